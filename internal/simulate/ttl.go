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
	// Version is the kube-scheduler version whose default TTL applies (given
	// by --kube-version or read from the live server); empty for --ttl and
	// for the default version.
	Version string
	// HasExpiry is false when the chosen kube-scheduler has no expiry
	// mechanism at all (v1.36 removed it); true for --ttl.
	HasExpiry bool
	// ZeroExpires is true when the TTL is 0 and the version modelled (before
	// v1.25) expires an assumed pod at the first cleanup after its binding
	// finished, rather than never.
	ZeroExpires bool
	// why qualifies Source in the note (how the version was found).
	why string
	// modelled is the version modelled, for the note on a TTL of 0.
	modelled string
}

// ResolveTTL picks the TTL: flag if not nil (--ttl), else the default of
// the kube-scheduler version b models. given says whether that version was
// given (--kube-version or the live server's) rather than the default
// (v1.36, "latest"); why says how it was found, or why there is none, for
// the note (e.g. "from the server version", "no --kube-version"); it may
// be empty.
func ResolveTTL(flag *time.Duration, b *cache.Behavior, given bool, why string) (TTLChoice, error) {
	c := TTLChoice{why: why, modelled: b.Version.String()}
	switch {
	case flag != nil && *flag < 0:
		return TTLChoice{}, fmt.Errorf("the TTL must not be negative, got %s", *flag)
	case flag != nil:
		c.TTL, c.Source, c.HasExpiry, c.why = *flag, "--ttl", true, ""
	case given:
		c.Version = b.Version.String()
		c.TTL, c.Source, c.HasExpiry = b.DefaultTTL, "kube-scheduler "+c.Version+" default", b.Expiry
	default:
		c.Source = "latest kube-scheduler default"
	}
	c.ZeroExpires = c.TTL == 0 && c.HasExpiry && !b.ZeroTTLNeverExpires
	return c, nil
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
	case c.ZeroExpires:
		return fmt.Sprintf("note: TTL 0 (%s, kube-scheduler %s): assumed pods whose binding finished expire at the next cleanup", source, c.modelled)
	case !c.HasExpiry:
		return fmt.Sprintf("note: TTL 0 (%s: assumed pods never expire; v1.36 removed expiry)", source)
	case c.Source == "--ttl":
		return fmt.Sprintf("note: TTL 0 (%s): assumed pods never expire", source)
	default:
		return fmt.Sprintf("note: TTL 0 (%s, as in 1.25–1.35): assumed pods never expire", source)
	}
}
