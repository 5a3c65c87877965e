// Package decide answers "what would kube-scheduler do with this pod?" by
// running kube-scheduler v1.36's own scheduling framework and in-tree plugins
// (k8s.io/kubernetes/pkg/scheduler/framework, imported here and nowhere else
// in the plugin) over a Snapshot of our cache model.
//
// The scheduling cycle itself (pkg/scheduler/schedule_one.go) is not a
// library, so Evaluator mirrors its steps around the framework's own Run*
// methods: PreEnqueue, PreFilter, the nominated node first, Filter with
// nominated pods over numFeasibleNodesToFind nodes from the rotating start
// index, PreScore/Score with the profile's weights, and on failure the
// PostFilter plugins (DynamicResources, DefaultPreemption) and the FitError
// message the scheduler writes into its FailedScheduling event.
//
// Read-only by construction: the framework is given a fake clientset seeded
// with the input objects, never a client of a real cluster, and
// DefaultPreemption's API calls (patching and deleting victims) are replaced
// by a recorder, so preemption reports its victims without evicting anything.
//
// After a cycle, Evaluate adds what the scheduler does not compute (misses.go):
// the rejected nodes per plugin, the best scored nodes and, for an
// unschedulable pod with Input.NearMisses, every Filter plugin that rejects it
// on each node, not only the first — this tool's analysis, kept apart from the
// verdict, which it does not change.
//
// Everything is built once per Evaluator (New) and shared by every pod it
// evaluates; Close releases the framework's goroutines.
package decide
