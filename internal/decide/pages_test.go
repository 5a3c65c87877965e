package decide

import (
	"sync"
	"testing"
)

// TestPagedSlots: a slot reads zero until written, keeps what is written,
// pages are allocated only where a slot was asked for, and goroutines
// writing distinct slots of the same pages at once lose nothing.
func TestPagedSlots(t *testing.T) {
	const n = 5*slotsPerPage + 7 // a last page cut short
	tab := newPagedSlots[int](n)
	if len(tab.pages) != 6 {
		t.Fatalf("%d pages for %d slots, want 6", len(tab.pages), n)
	}
	if tab.peek(n-1) != nil {
		t.Fatal("peek of a slot never used: not nil")
	}
	*tab.at(n - 1) = 42
	if p := tab.peek(n - 1); p == nil || *p != 42 {
		t.Fatalf("peek after a write: %v", p)
	}
	if tab.peek(0) != nil || tab.peek(n-8) != nil {
		t.Fatal("a page other than the written one was allocated")
	}

	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < n-1; i += 4 {
				*tab.at(i) = i + 1
			}
		})
	}
	wg.Wait()
	seen := 0
	tab.each(func(i int, v *int) {
		want := i + 1
		if i == n-1 {
			want = 42
		}
		if *v != want {
			t.Errorf("slot %d = %d, want %d", i, *v, want)
		}
		seen++
	})
	if seen != n {
		t.Fatalf("each visited %d slots, want %d", seen, n)
	}
}
