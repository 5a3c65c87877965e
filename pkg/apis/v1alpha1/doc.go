// Package v1alpha1 holds the stable output kinds of kubectl-schedcache
// (group schedcache.kubectl.io, version v1alpha1): CacheDump, RequestedReport,
// NodeOrder, Snapshot, Simulation, SchedulingReport, ConfigComparison,
// DrainReport, ScaleDownReport, ScaleUpReport, CacheComparison, CacheDiff and
// CacheWatchEvent. They are what
// -o json|yaml|jsonpath print; docs/output.md documents every field, and
// test/readme fails when a JSON field is missing there or a documented one
// does not exist.
//
// Field names follow kube-scheduler's own vocabulary (requested,
// nonZeroRequested, allocatable, milliCPU, …) so output can be compared with
// the scheduler's cache dumper. Quantities are exact integers: milliCPU in
// millicores, memory and ephemeralStorage in bytes, scalar resources in
// Quantity.Value() units (hugepages in bytes).
package v1alpha1

import "k8s.io/apimachinery/pkg/runtime/schema"

// SchemeGroupVersion is the group and version of every kind in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: "schedcache.kubectl.io", Version: "v1alpha1"}
