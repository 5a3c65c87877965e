package simulate

import (
	"time"

	"k8s.io/utils/clock"
)

// virtualClock is a simulation's time: a k8s.io/utils/clock PassiveClock
// that stands still until the simulation moves it, and never reads the
// wall clock. The cache reads it for FinishBinding deadlines.
type virtualClock struct {
	now time.Time
}

var _ clock.PassiveClock = (*virtualClock)(nil)

// newVirtualClock returns a clock at Epoch.
func newVirtualClock() *virtualClock { return &virtualClock{now: Epoch} }

// Now is the virtual instant.
func (c *virtualClock) Now() time.Time { return c.now }

// Since is the virtual time elapsed since t.
func (c *virtualClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

// set moves the clock to Epoch + offset.
func (c *virtualClock) set(offset time.Duration) { c.now = Epoch.Add(offset) }
