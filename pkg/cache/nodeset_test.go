package cache

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNodeSetMatchesMap adds and removes random node numbers (in a few
// ranges, so sets stay lists, become bitmaps, and grow their bitmaps) and
// compares the set with a map of the same numbers after every step.
func TestNodeSetMatchesMap(t *testing.T) {
	for _, span := range []uint32{8, 40, 200, 5000, 20000} {
		r := rand.New(rand.NewPCG(uint64(span), 7))
		var s nodeSet
		want := map[uint32]bool{}
		for step := range 4000 {
			id := r.Uint32N(span)
			if r.IntN(3) == 0 {
				s.remove(id)
				delete(want, id)
			} else {
				s.add(id)
				want[id] = true
			}
			if s.len() != len(want) {
				t.Fatalf("span %d step %d: len %d, want %d", span, step, s.len(), len(want))
			}
		}
		var ids []uint32
		for id := range want {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		if got := s.members(); !slices.Equal(got, ids) {
			t.Fatalf("span %d: members %v, want %v", span, got, ids)
		}
	}
}

// TestNodeSetEdges: numbers on word boundaries, the move from list to
// bitmap, and removing what is not there.
func TestNodeSetEdges(t *testing.T) {
	var s nodeSet
	s.remove(3)
	if s.len() != 0 {
		t.Fatalf("removing from an empty set: len %d", s.len())
	}
	for i := range uint32(smallNodeSet) {
		s.add(i * 64)
		s.add(i * 64) // again: no change
	}
	if s.words != nil || s.len() != smallNodeSet {
		t.Fatalf("%d members should still be a list: bitmap %v, len %d", smallNodeSet, s.words != nil, s.len())
	}
	s.add(63)
	if s.words == nil || s.len() != smallNodeSet+1 {
		t.Fatalf("one more member should make a bitmap: bitmap %v, len %d", s.words != nil, s.len())
	}
	s.add(1 << 20)
	s.remove(64)
	s.remove(65)      // not a member
	s.remove(1 << 30) // beyond the bitmap
	if s.len() != smallNodeSet+1 {
		t.Fatalf("len %d, want %d", s.len(), smallNodeSet+1)
	}
	got := s.members()
	if got[0] != 0 || got[1] != 63 || got[2] != 128 || got[len(got)-1] != 1<<20 {
		t.Fatalf("members %v", got)
	}
}

// members returns the members of s in increasing order.
func (s *nodeSet) members() []uint32 {
	var out []uint32
	if s.words == nil {
		out = append(out, s.small...)
		slices.Sort(out)
		return out
	}
	for w, word := range s.words {
		for word != 0 {
			out = append(out, uint32(w*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return out
}
