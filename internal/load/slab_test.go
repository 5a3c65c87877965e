package load

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestSlabHandsOutDistinctZeroValues takes values across three slabs:
// each is zero when handed out, none is handed out twice, and a write to
// one is seen in no other.
func TestSlabHandsOutDistinctZeroValues(t *testing.T) {
	var s slab[corev1.Pod]
	seen := map[*corev1.Pod]int{}
	n := 2*slabLen + 1
	for i := range n {
		p := s.next()
		if p.Name != "" || p.Spec.NodeName != "" {
			t.Fatalf("value %d is not zero: %q %q", i, p.Name, p.Spec.NodeName)
		}
		if j, ok := seen[p]; ok {
			t.Fatalf("value %d handed out again as %d", j, i)
		}
		seen[p] = i
		p.Name = string(rune('a' + i%26))
		p.Spec.NodeName = p.Name
	}
	for p, i := range seen {
		if want := string(rune('a' + i%26)); p.Name != want || p.Spec.NodeName != want {
			t.Fatalf("value %d reads %q %q, want %q", i, p.Name, p.Spec.NodeName, want)
		}
	}
}

// TestPrefaultKeepsContents prefaults memory already written, fresh
// memory, an unaligned part of a page and nothing: the contents stay as
// they were.
func TestPrefaultKeepsContents(t *testing.T) {
	b := make([]byte, 5<<20)
	for i := range b {
		if i%4096 == 0 || i%4096 == 4095 {
			b[i] = byte(i / 4096)
		}
	}
	prefault(b)
	prefault(b[1:100])
	prefault(nil)
	for i := range b {
		want := byte(0)
		if i%4096 == 0 || i%4096 == 4095 {
			want = byte(i / 4096)
		}
		if b[i] != want {
			t.Fatalf("byte %d is %d after prefault, was %d", i, b[i], want)
		}
	}
	fresh := make([]int64, 1<<18)
	prefaultSlice(fresh)
	for i, v := range fresh {
		if v != 0 {
			t.Fatalf("fresh value %d is %d after prefault", i, v)
		}
	}
}
