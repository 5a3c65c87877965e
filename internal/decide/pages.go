package decide

import "sync/atomic"

// slotsPerPage is how many slots of a pagedSlots table are allocated
// together. A cycle filters and scores a run of nodes in the lister's
// order (from the scheduler's next start index, v1.36.3's
// findNodesThatPassFilters), so a key's table is filled a run at a time;
// most keys meet a few cycles over a few hundred nodes, and a table of
// every node's slot (5,000 at 5,000 nodes) was mostly never written.
const slotsPerPage = 64

// pagedSlots is a table of slots of type S, one per node of the lister's
// list, allocated a page of slotsPerPage at a time on first use. Distinct
// slots may be used from different goroutines at once (a cycle's filter
// and score steps run on the parallelizer's goroutines, each on its own
// nodes); whichever goroutine first needs a page allocates it
// (compare-and-swap), and the others use that one.
type pagedSlots[S any] struct {
	n     int
	pages []atomic.Pointer[[slotsPerPage]S]
}

// newPagedSlots is a table of n slots, every one zero.
func newPagedSlots[S any](n int) *pagedSlots[S] {
	return &pagedSlots[S]{n: n, pages: make([]atomic.Pointer[[slotsPerPage]S], (n+slotsPerPage-1)/slotsPerPage)}
}

// at is slot i, allocating its page when it has none yet.
func (t *pagedSlots[S]) at(i int) *S {
	p := &t.pages[i/slotsPerPage]
	page := p.Load()
	if page == nil {
		page = new([slotsPerPage]S)
		if !p.CompareAndSwap(nil, page) {
			page = p.Load()
		}
	}
	return &page[i%slotsPerPage]
}

// peek is slot i, nil while its page was never allocated (the slot is
// zero then).
func (t *pagedSlots[S]) peek(i int) *S {
	page := t.pages[i/slotsPerPage].Load()
	if page == nil {
		return nil
	}
	return &page[i%slotsPerPage]
}

// each calls f with the index and the slot of every slot of the pages
// allocated, in order (the table's slots only, not the rest of a last
// page).
func (t *pagedSlots[S]) each(f func(int, *S)) {
	for p := range t.pages {
		page := t.pages[p].Load()
		if page == nil {
			continue
		}
		for k := range min(slotsPerPage, t.n-p*slotsPerPage) {
			f(p*slotsPerPage+k, &page[k])
		}
	}
}
