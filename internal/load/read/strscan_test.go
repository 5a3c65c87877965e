package read

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// stringStopNaive is stringStop one byte at a time.
func stringStopNaive(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' {
			return i
		}
	}
	return len(b)
}

// TestStringStop checks the word-at-a-time search against the byte loop:
// every position of a stop in every length up to three words, the bytes
// the word arithmetic is likely to confuse (0x00, 0x01, 0x21, 0x23, 0x5b,
// 0x5d, 0x80, 0xa2, 0xdc, 0xff) around it, and random texts.
func TestStringStop(t *testing.T) {
	near := []byte{0x00, 0x01, 0x21, 0x23, 0x5b, 0x5d, 0x80, 0xa2, 0xdc, 0xff, 'a'}
	for n := 0; n <= 24; n++ {
		for _, fill := range near {
			for at := -1; at < n; at++ {
				for _, stop := range []byte{'"', '\\'} {
					b := make([]byte, n)
					for i := range b {
						b[i] = fill
					}
					if at >= 0 {
						b[at] = stop
					}
					if got, want := stringStop(b), stringStopNaive(b); got != want {
						t.Fatalf("stringStop(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = near[r.IntN(len(near))]
			if r.IntN(30) == 0 {
				b[i] = "\"\\"[r.IntN(2)]
			}
		}
		if got, want := stringStop(b), stringStopNaive(b); got != want {
			t.Fatalf("stringStop(%q) = %d, want %d", b, got, want)
		}
	}
}

// stringSpecialNaive is StringSpecial one byte at a time.
func stringSpecialNaive(b []byte) int {
	for i, c := range b {
		if c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return len(b)
}

// TestStringSpecial checks the word-at-a-time search against the byte
// loop: every position of a stop in every length up to three words,
// among the bytes the word arithmetic is likely to confuse (those next
// to a stop's value, the high bit's edges).
func TestStringSpecial(t *testing.T) {
	fills := []byte{'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa0, 0xa2, 0xdc, 0xff, 0x01, 0x00}
	stops := []byte{'"', '\\', 0x00, 0x01, 0x1f}
	for n := 0; n <= 24; n++ {
		for _, fill := range fills {
			for at := -1; at < n; at++ {
				for _, stop := range stops {
					b := bytes.Repeat([]byte{fill}, n)
					if at >= 0 {
						b[at] = stop
					}
					if got, want := StringSpecial(b), stringSpecialNaive(b); got != want {
						t.Fatalf("StringSpecial(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}
