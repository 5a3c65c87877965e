package printers

import (
	"math"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{MilliCPU(4000), "4"}, {MilliCPU(3250), "3250m"}, {MilliCPU(0), "0"}, {MilliCPU(-180), "-180m"},
		{Bytes(0), "0"}, {Bytes(500), "500"}, {Bytes(1024), "1Ki"}, {Bytes(512 * 1024 * 1024), "512Mi"},
		{Bytes(13421772800), "12.5Gi"}, {Bytes(-256 * 1024 * 1024), "-256Mi"}, {Bytes(1 << 40), "1Ti"},
		{Bytes(math.MinInt64), "-8Ei"}, {Bytes(math.MaxInt64), "8Ei"}, {Bytes(-1023), "-1023"},
		{Percent(50, 200), "25%"}, {Percent(199, 200), "99%"}, {Percent(4100, 3920), "104%"}, {Percent(0, 0), "0%"}, {Percent(5, 0), "-"},
		{Cores(6411735), "6411.735"}, {Cores(9512190), "9512.19"}, {Cores(4000), "4"}, {Cores(5), "0.005"}, {Cores(-1500), "-1.5"},
		{Cores(math.MinInt64), "-9223372036854775.808"}, {TotalQuantity("cpu", 72335), "72.335"}, {TotalQuantity("memory", 1024), "1Ki"},
		{Quantity("cpu", 1500), "1500m"}, {Quantity("hugepages-2Mi", 4194304), "4Mi"}, {Quantity("nvidia.com/gpu", 3), "3"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
