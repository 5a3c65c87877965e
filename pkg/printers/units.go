package printers

import (
	"fmt"
	"strings"
)

// MilliCPU renders millicores the way kubectl shows cpu quantities: whole
// cores as "4", otherwise millicores as "3250m".
func MilliCPU(m int64) string {
	if m%1000 == 0 {
		return fmt.Sprintf("%d", m/1000)
	}
	return fmt.Sprintf("%dm", m)
}

// Cores renders millicores as cores with up to three decimals, trailing
// zeros dropped ("6411.735", "90.94", "4"): exact, and what kubectl top and
// kube-capacity readers take in at a glance for sums over many nodes,
// where millicores grow to seven digits. It is a valid cpu quantity too.
func Cores(m int64) string {
	neg, mag := "", uint64(m)
	if m < 0 {
		neg, mag = "-", uint64(-(m+1))+1
	}
	s := fmt.Sprintf("%s%d", neg, mag/1000)
	if frac := mag % 1000; frac != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%03d", frac), "0")
	}
	return s
}

// TotalQuantity is Quantity for sums over nodes (TOTAL rows): cpu in
// Cores, every other resource as Quantity renders it.
func TotalQuantity(name string, v int64) string {
	if name == "cpu" {
		return Cores(v)
	}
	return Quantity(name, v)
}

// Bytes renders bytes with binary suffixes: exact multiples as "512Mi",
// otherwise one decimal ("12.5Gi"); below 1Ki as plain bytes.
func Bytes(b int64) string {
	neg, mag := "", uint64(b)
	if b < 0 {
		// -(b+1)+1: the magnitude of math.MinInt64 too (2^63, 8Ei).
		neg, mag = "-", uint64(-(b+1))+1
	}
	units := []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	if mag < 1024 {
		return fmt.Sprintf("%s%d", neg, mag)
	}
	v, unit := float64(mag), ""
	for _, u := range units {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return neg + s + unit
}

// Percent is requested/allocatable as kubectl describe node shows it: an
// integer, rounded down; "-" when nothing is allocatable.
func Percent(requested, allocatable int64) string {
	if allocatable <= 0 {
		if requested > 0 {
			return "-"
		}
		return "0%"
	}
	return fmt.Sprintf("%d%%", requested*100/allocatable)
}

// Quantity renders a value of resource name with the unit it is counted in:
// cpu in cores/millicores, byte resources with binary suffixes, counts plain.
func Quantity(name string, v int64) string {
	switch {
	case name == "cpu":
		return MilliCPU(v)
	case name == "memory" || name == "ephemeral-storage" || strings.HasPrefix(name, "hugepages-"):
		return Bytes(v)
	default:
		return fmt.Sprintf("%d", v)
	}
}
