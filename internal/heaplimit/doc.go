// Package heaplimit keeps the process's soft memory limit
// (runtime/debug.SetMemoryLimit) above the live heap by a fixed ratio, so
// the garbage collector's cost per allocated byte does not grow with the
// cluster.
//
// A fixed soft limit makes the collector run more often as the live heap
// approaches it and back to back once the live heap passes it: the work of
// one cycle is proportional to the live heap while the bytes allocated
// between two cycles shrink to the gap left under the limit. At 5,000 nodes
// / 150,000 pods the 800 MiB the plugin starts with leaves that gap; at
// 15,000 nodes / 450,000 pods the live heap alone is above it. Raising the
// limit after each cycle to a multiple of the live heap keeps the gap a
// share of the heap, as GOGC does, but a smaller share than main's GOGC of
// 400 so that the peak stays bounded (see docs/PERFORMANCE.md, "File mode,
// session of 2026-11-27 evening").
//
// The runtime has no hook "after a collection"; the package arms a cleanup
// (runtime.AddCleanup) on an otherwise unreachable object, which runs after
// the cycle that found it unreachable, and arms the next one from there.
package heaplimit
