// Package simulate replays, in virtual time, what kube-scheduler's cache
// goes through while pods are scheduled: AssumePod when the scheduler picks
// a node, FinishBinding when the bind call returns, then the pod's Add event
// (the binding was confirmed), ForgetPod (it failed) or nothing at all (the
// Add event is lost), and the cleanup loop that expires assumed pods once
// their TTL has passed (kube-scheduler ≤ 1.24 in practice).
//
// A Simulator drives the pkg/cache Cache of a internal/model Model, the model the
// other commands use, built with a virtual clock (a k8s.io/utils/clock
// PassiveClock that only the simulation moves) and an Observer; it records
// every operation with the state transitions the cache reported and the
// node's requested resources right after it, as a Result (internal/views
// maps it to the output kind, views.Simulation). Two modes exist: Run, a
// fixed timeline (assume every pod at +0s, bind after a latency, cleanup
// ticks every period), and RunScript, a list of explicit operations (see
// package script, which parses them).
//
// The package is pure: no I/O and no wall clock, so the same inputs always
// give the same Simulation.
package simulate
