// Package whatif changes a loaded cluster the way an operator or a
// controller would, before the scheduler's decisions are computed on it:
// pods evicted and recreated by their controllers, nodes cordoned,
// uncordoned, removed or added. Every decision command (why, simulate,
// requested --pod, drain) applies the same edits to the same input, so that
// "what would the scheduler do if…" is answered by the same engine as "what
// does it do now".
//
// The package only rewrites objects in memory; nothing is ever sent to a
// cluster.
package whatif
