package simulate

import (
	"fmt"
	"time"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TTLChoice is the assumed-pod TTL in force and why.
type TTLChoice struct {
	TTL time.Duration
	// Source says where the TTL comes from: "--ttl", "kube-scheduler v1.19
	// default", "latest kube-scheduler default".
	Source string
	// Version is the kube-scheduler version whose default was used; empty
	// for --ttl and for the latest version.
	Version string
	// HasExpiry is false when the chosen kube-scheduler has no expiry
	// mechanism at all (v1.36 removed it); true for --ttl.
	HasExpiry bool
	// why qualifies Source in the note (how the version was found).
	why string
}

// ResolveTTL picks the TTL: flag if not nil (--ttl), else the default of
// kube-scheduler version (cache.DefaultTTL), else the latest version's (0).
// why says how the version was found, or why there is none, for the note
// (e.g. "from the server version", "no --kube-version"); it may be empty.
func ResolveTTL(flag *time.Duration, version, why string) (TTLChoice, error) {
	if flag != nil {
		if *flag < 0 {
			return TTLChoice{}, fmt.Errorf("the TTL must not be negative, got %s", *flag)
		}
		return TTLChoice{TTL: *flag, Source: "--ttl", HasExpiry: true, why: why}, nil
	}
	if version == "" {
		return TTLChoice{Source: "latest kube-scheduler default", why: why}, nil
	}
	ttl, hasExpiry, err := cache.DefaultTTL(version)
	if err != nil {
		return TTLChoice{}, err
	}
	return TTLChoice{TTL: ttl, Source: "kube-scheduler " + version + " default", Version: version, HasExpiry: hasExpiry, why: why}, nil
}

// Note is the one line that tells which TTL is in force and why, e.g.
// "note: TTL 30s (kube-scheduler v1.19 default); assumed pods whose binding
// finished expire 30s later".
func (c TTLChoice) Note() string {
	source := c.Source
	if c.why != "" {
		source += ", " + c.why
	}
	switch {
	case c.TTL > 0:
		return fmt.Sprintf("note: TTL %s (%s); assumed pods whose binding finished expire %s later", c.TTL, source, c.TTL)
	case !c.HasExpiry:
		return fmt.Sprintf("note: TTL 0 (%s: assumed pods never expire; v1.36 removed expiry)", source)
	case c.Source == "--ttl":
		return fmt.Sprintf("note: TTL 0 (%s): assumed pods never expire", source)
	default:
		return fmt.Sprintf("note: TTL 0 (%s, as in 1.25–1.35): assumed pods never expire", source)
	}
}
