package cache

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/version"
)

// DefaultTTL returns the assumed-pod TTL that kube-scheduler at version v
// passes to its cache, and whether that version has the expiry mechanism:
//
//	≤ 1.19                     30 s
//	1.20.0–1.22.4 (and 1.20.x  30 s; the late 1.20/1.21/1.22 patches
//	  / 1.21.x before the        (1.20.15, 1.21.14, 1.22.5+) use 2 min
//	  cherry-picks)
//	1.23–1.24                  15 min
//	1.25–1.35                  0 (never expire)
//	≥ 1.36                     0, and no expiry mechanism at all
//
// v is a version such as "v1.22.5" or "1.24". For 1.20/1.21 the exact
// cherry-pick patch is not recorded in our reference; we use the first patch
// verified to carry 2 min (1.20.15, 1.21.14) as the boundary.
func DefaultTTL(v string) (ttl time.Duration, hasExpiry bool, err error) {
	ver, err := version.ParseGeneric(v)
	if err != nil {
		return 0, false, fmt.Errorf("invalid Kubernetes version %q: %w", v, err)
	}
	if ver.Major() != 1 {
		return 0, false, fmt.Errorf("unsupported Kubernetes major version in %q", v)
	}
	switch minor, patch := ver.Minor(), ver.Patch(); {
	case minor <= 19:
		return 30 * time.Second, true, nil
	case minor == 20 && patch >= 15, minor == 21 && patch >= 14, minor == 22 && patch >= 5:
		return 2 * time.Minute, true, nil
	case minor <= 22:
		return 30 * time.Second, true, nil
	case minor <= 24:
		return 15 * time.Minute, true, nil
	case minor <= 35:
		return 0, true, nil
	default:
		return 0, false, nil
	}
}
