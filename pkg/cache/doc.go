// Package cache is kubectl-schedcache's model of kube-scheduler's internal
// cache (pkg/scheduler/internal/cache up to v1.31,
// pkg/scheduler/backend/cache from v1.32): the pod state machine, per-node
// NodeInfo accounting, the zone NodeTree and the incremental Snapshot. It is
// written from the behaviour of the upstream code, not copied from it.
//
// The package is a pure model: it does no I/O, prints nothing and never reads
// the wall clock; time comes from an injected k8s.io/utils/clock.PassiveClock
// or an explicit "now" argument.
//
// Version coverage: every minor version from v1.18 to v1.36. A Profile (a
// version's Behavior plus its feature gates) selects the transitions, error
// texts, assumed-pod expiry, request arithmetic, snapshot contents and node
// order of that version; each behaviour that changed has one field in
// Behavior, set by the one table of Changes (behavior.go), from which
// docs/versions.md is generated. The default is v1.36.3.
package cache
