package simulate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/simulate/script"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Epoch is the virtual instant of offset +0s. It is fixed, not the wall
// clock, so that results are reproducible.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Timeline defaults.
const (
	// DefaultBindLatency is the time from AssumePod to FinishBinding.
	DefaultBindLatency = 100 * time.Millisecond
	// DefaultCleanupPeriod is upstream's cleanAssumedPeriod: the cache's
	// cleanup loop runs every second.
	DefaultCleanupPeriod = time.Second
	// MinAutoUntil is the shortest automatic timeline (see AutoUntil).
	MinAutoUntil = time.Minute
	// maxTicks bounds the cleanup ticks of one timeline, so that a tiny
	// period over a long timeline is refused rather than run for hours.
	maxTicks = 1_000_000
)

// Outcome is what happens to a pod's binding after FinishBinding. The
// script package defines it, since a script's bind step names one too.
type Outcome = script.Outcome

// The binding outcomes (see script.Confirm, script.Fail, script.Lost).
const (
	Confirm = script.Confirm
	Fail    = script.Fail
	Lost    = script.Lost
)

// Options configure a Simulator.
type Options struct {
	// TTL is the assumed-pod TTL in force and where it comes from (see
	// ResolveTTL); the result's settings report both.
	TTL TTLChoice
	// Profile is the kube-scheduler version and gates modelled; nil means
	// cache.DefaultProfile (v1.36).
	Profile *cache.Profile
	// Bind is the default binding outcome (timeline mode, and the script
	// "bind" step without an outcome). Empty means Confirm.
	Bind Outcome
	// BindFor overrides Bind per pod, keyed by "namespace/name" (timeline).
	BindFor map[string]Outcome
	// Node, if set, is where every pod is assumed, without a fit check
	// (timeline). Empty: wherever kube-scheduler would place it.
	Node string
	// SchedulerConfig is the kube-scheduler configuration placement runs
	// with; nil means the default one.
	SchedulerConfig *decide.Config
	// BindLatency is the time from AssumePod to FinishBinding (timeline).
	BindLatency time.Duration
	// CleanupPeriod is the interval of cleanup ticks (timeline); 0 means
	// DefaultCleanupPeriod.
	CleanupPeriod time.Duration
	// Until is the length of the timeline; 0 means AutoUntil.
	Until time.Duration
	// Context, once done, stops the run at its next placement, which
	// fails with the context's error (context.Canceled for Ctrl-C); nil
	// means context.Background().
	Context context.Context
}

// context is Options.Context, or context.Background() when nil.
func (o Options) context() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// Validate checks the option values.
func (o Options) Validate() error {
	switch {
	case o.ttl() < 0:
		return errors.New("the TTL must not be negative")
	case o.BindLatency < 0:
		return errors.New("the bind latency must not be negative")
	case o.CleanupPeriod < 0:
		return errors.New("the cleanup period must not be negative")
	case o.Until < 0:
		return errors.New("the timeline length must not be negative")
	}
	if o.Bind != "" {
		if _, err := script.ParseOutcome(string(o.Bind)); err != nil {
			return err
		}
	}
	if ticks := o.until() / o.period(); ticks > maxTicks {
		return fmt.Errorf("a timeline of %s with a cleanup every %s has %d cleanup ticks, more than %d", o.until(), o.period(), ticks, maxTicks)
	}
	return nil
}

func (o Options) period() time.Duration {
	if o.CleanupPeriod == 0 {
		return DefaultCleanupPeriod
	}
	return o.CleanupPeriod
}

func (o Options) until() time.Duration {
	if o.Until == 0 {
		return AutoUntil(o.ttl(), o.BindLatency, o.period(), o.profile().ZeroTTLNeverExpires)
	}
	return o.Until
}

// ttl is the TTL in force.
func (o Options) ttl() time.Duration { return o.TTL.TTL }

// profile is Profile, or v1.36's.
func (o Options) profile() *cache.Profile {
	if o.Profile == nil {
		p := cache.DefaultProfile()
		return &p
	}
	return o.Profile
}

// outcomeFor is the binding outcome of the pod "namespace/name".
func (o Options) outcomeFor(podName string) Outcome {
	if out, ok := o.BindFor[podName]; ok {
		return out
	}
	return o.defaultOutcome()
}

func (o Options) defaultOutcome() Outcome {
	if o.Bind == "" {
		return Confirm
	}
	return o.Bind
}

// AutoUntil is the timeline length used when Options.Until is 0: a minute,
// or longer when needed for a binding lost at the bind latency to expire
// within the timeline, i.e. up to the first cleanup tick after latency +
// TTL (a 15-minute TTL gives 15m1s with the defaults). A TTL of 0 never
// expires when zeroNeverExpires (v1.25+); before, it expires at the first
// tick after the latency.
func AutoUntil(ttl, latency, period time.Duration, zeroNeverExpires bool) time.Duration {
	if ttl == 0 && zeroNeverExpires || period <= 0 {
		return MinAutoUntil
	}
	deadline := latency + ttl
	// Cleanup expires a pod only once now is strictly after its deadline.
	expiryTick := (deadline/period + 1) * period
	return max(MinAutoUntil, expiryTick)
}
