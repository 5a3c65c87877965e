package decide

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestRestart: the sequential state of Schedule is reset, and the cycle
// count skips one so that the framework's batching state of the last cycle
// (framework/runtime/batch.go v1.36: usable only by cycle count + 1) does
// not carry over.
func TestRestart(t *testing.T) {
	e, err := New(context.Background(), Input{Snapshot: cache.NewEmptySnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.nextStartNodeIndex, e.cycle, e.preemptions = 37, 5, 2
	e.preempted[types.UID("p")] = "n1"
	e.Restart()
	if e.nextStartNodeIndex != 0 || e.cycle != 6 || len(e.preempted) != 0 || e.preemptions != 3 {
		t.Errorf("after Restart: start %d, cycle %d, preempted %v, preemptions %d", e.nextStartNodeIndex, e.cycle, e.preempted, e.preemptions)
	}
}
