package simulate

import (
	"testing"
	"time"
)

func TestVirtualClock(t *testing.T) {
	c := newVirtualClock()
	if !c.Now().Equal(Epoch) || c.Since(Epoch) != 0 {
		t.Fatalf("new clock at %s", c.Now())
	}
	c.set(31 * time.Second)
	if got := c.Now(); !got.Equal(time.Date(2026, 1, 1, 0, 0, 31, 0, time.UTC)) {
		t.Errorf("Now %s, want 2026-01-01T00:00:31Z", got)
	}
	if got := c.Since(Epoch.Add(time.Second)); got != 30*time.Second {
		t.Errorf("Since(+1s) %s, want 30s", got)
	}
}
