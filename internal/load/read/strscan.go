package read

import (
	"encoding/binary"
	"math/bits"
)

// Within a JSON string only '"' (its end) and '\\' (an escape) matter to
// the cutter, and strings are most of a pod's text: stringStop looks for
// them eight bytes at a time, as one 64-bit word.

const (
	ones  = 0x0101010101010101 // every byte 1
	highs = 0x8080808080808080 // every byte's high bit
)

// stringStop returns the index in b of the first '"' or '\\', or len(b)
// when there is none.
func stringStop(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := zeroBytes(w^(ones*'"')) | zeroBytes(w^(ones*'\\')); m != 0 {
			// The lowest flagged byte is exact: a false flag only follows
			// a true one (the borrow runs upwards).
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '"' || b[i] == '\\' {
			return i
		}
	}
	return i
}

// StringSpecial returns the index in b of the first '"', '\\' or byte
// below 0x20, or len(b) when there is none: what a decoder that checks a
// string's bytes (the pod walk's scanner, internal/load) stops at, eight
// bytes at a time.
func StringSpecial(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// Each term flags its lowest matching byte exactly, so the lowest
		// flag of the three is a true one. (w-ones*0x20) &^ w flags bytes
		// below 0x20 (and no byte of 0x80 or more).
		m := zeroBytes(w^(ones*'"')) | zeroBytes(w^(ones*'\\')) | (w-ones*0x20)&^w&highs
		if m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

// zeroBytes flags the high bit of the first zero byte of w (lowest
// first) and maybe of later bytes; none when w has no zero byte.
func zeroBytes(w uint64) uint64 { return (w - ones) &^ w & highs }
