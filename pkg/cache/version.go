package cache

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/version"
)

// The kube-scheduler minor versions kubectl-schedcache models, v1.18 to v1.36.
const (
	MinMinor = 18
	MaxMinor = 36
)

// Version is a kube-scheduler version, always major 1. Only the minor and,
// for the assumed-pod TTL of the v1.20–v1.22 patch releases, the patch
// matter; "v1.22" is read as v1.22.0.
type Version struct {
	Minor int
	Patch int
	// PatchGiven is false for "v1.22", so that String gives it back as typed.
	PatchGiven bool
}

// Latest is the newest version modelled, and the default.
var Latest = Version{Minor: MaxMinor}

// SupportedRange is the range for messages: "v1.18 to v1.36".
const SupportedRange = "v1.18 to v1.36"

// String is "v1.MINOR" or "v1.MINOR.PATCH", as given.
func (v Version) String() string {
	if v.PatchGiven {
		return fmt.Sprintf("v1.%d.%d", v.Minor, v.Patch)
	}
	return fmt.Sprintf("v1.%d", v.Minor)
}

var minorOnly = regexp.MustCompile(`^v?[0-9]+\.[0-9]+$`)

// ParseVersion parses "v1.MINOR", "v1.MINOR.PATCH" (the "v" is optional)
// and server versions with a pre-release or build suffix, such as
// "v1.30.2-gke.1587003" or "v1.27.3+k3s1". It fails for anything else, and
// for versions outside v1.18 to v1.36, with a one-line error naming the
// supported range.
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	v, err := version.ParseSemantic(s)
	patchGiven := err == nil
	if err != nil && minorOnly.MatchString(s) {
		v, err = version.ParseGeneric(s)
	}
	if err != nil {
		return Version{}, fmt.Errorf("invalid Kubernetes version %q: want v1.MINOR or v1.MINOR.PATCH, from %s", s, SupportedRange)
	}
	if v.Major() != 1 || v.Minor() < MinMinor || v.Minor() > MaxMinor {
		return Version{}, fmt.Errorf("unsupported Kubernetes version %q: kubectl-schedcache models kube-scheduler %s", s, SupportedRange)
	}
	return Version{Minor: int(v.Minor()), Patch: int(v.Patch()), PatchGiven: patchGiven}, nil
}

// Minors lists every supported minor version, oldest first.
func Minors() []Version {
	out := make([]Version, 0, MaxMinor-MinMinor+1)
	for m := MinMinor; m <= MaxMinor; m++ {
		out = append(out, Version{Minor: m})
	}
	return out
}
