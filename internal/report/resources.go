package report

import (
	"fmt"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// amounts returns a node row's requested and allocatable amounts of
// resource name, in the units the scheduler counts it in (milliCPU, bytes,
// pods, the extended resource's own count).
func amounts(row *v1alpha1.NodeRequested, name string) (requested, allocatable int64) {
	switch name {
	case "cpu":
		return row.Requested.MilliCPU, row.Allocatable.MilliCPU
	case "memory":
		return row.Requested.Memory, row.Allocatable.Memory
	case "ephemeral-storage":
		return row.Requested.EphemeralStorage, row.Allocatable.EphemeralStorage
	case "pods":
		return int64(row.Pods), row.Allocatable.AllowedPodNumber
	}
	return row.Requested.ScalarResources[name], row.Allocatable.ScalarResources[name]
}

// The colour buckets beyond the tenths 0–9 of allocatable requested.
const (
	bucketFull = 10 // requested == allocatable (100%)
	bucketOver = 11 // requested > allocatable (the node is overcommitted)
	bucketNone = 12 // nothing allocatable and nothing requested
)

// bucket is the colour bucket of requested/allocatable: the tenth it falls
// in (0–9), bucketFull at exactly 100%, bucketOver beyond (or a request
// against nothing allocatable), bucketNone when both are zero.
func bucket(requested, allocatable int64) int {
	switch {
	case allocatable <= 0 && requested <= 0:
		return bucketNone
	case requested > allocatable:
		return bucketOver
	case requested == allocatable:
		return bucketFull
	}
	// requested*10 would overflow for byte counts near the int64 limit.
	return int(float64(requested) / float64(allocatable) * 10)
}

// ratio is requested/allocatable for sorting (-1: nothing allocatable).
func ratio(requested, allocatable int64) float64 {
	if allocatable <= 0 {
		if requested > 0 {
			return 1e18
		}
		return -1
	}
	return float64(requested) / float64(allocatable)
}

// amountText is "3300m/3920m (84%)", as requested's table shows it.
func amountText(name string, requested, allocatable int64) string {
	return fmt.Sprintf("%s/%s (%s)", printers.Quantity(name, requested), printers.Quantity(name, allocatable), printers.Percent(requested, allocatable))
}

// percentText is the cell label of a resource: "84%", or "-" when nothing
// is allocatable.
func percentText(requested, allocatable int64) string {
	return printers.Percent(requested, allocatable)
}
