// Package cache is kubectl-schedcache's model of kube-scheduler's internal
// cache (pkg/scheduler/backend/cache in Kubernetes v1.36): the pod state
// machine, per-node NodeInfo accounting, the zone NodeTree and the incremental
// Snapshot. It is written from the behaviour described in
// shared/docs/scheduler-cache.md, not copied from upstream.
//
// The package is a pure model: it does no I/O, prints nothing and never reads
// the wall clock; time comes from an injected k8s.io/utils/clock.PassiveClock
// or an explicit "now" argument.
//
// Version coverage: accounting, shared state transitions, NodeTree.List and
// Snapshot follow v1.36.3. The classic assumed-pod expiry (FinishBinding, TTL
// deadline, Cleanup) of v1.18–v1.35 and the stateful v1.18 NodeTree.Next
// round-robin are modelled as well, because users study them.
package cache
