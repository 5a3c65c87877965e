// Package simulate replays, in virtual time, what kube-scheduler's cache
// goes through while pods are scheduled: AssumePod when the scheduler picks
// a node, FinishBinding when the bind call returns, then the pod's Add event
// (the binding was confirmed), ForgetPod (it failed) or nothing at all (the
// Add event is lost), and the cleanup loop that expires assumed pods once
// their TTL has passed (kube-scheduler ≤ 1.24 in practice).
//
// A Simulator drives a pkg/cache Cache built by pkg/model with a fake clock
// and an Observer, and records every operation with the state transitions
// the cache reported and the node's requested resources right after it. Two
// modes exist: Run, a fixed timeline (assume every pod at +0s, bind after a
// latency, cleanup ticks every period), and RunScript, a list of explicit
// operations (see Step).
//
// The package is pure: no I/O and no wall clock, so the same inputs always
// give the same Result.
package simulate
