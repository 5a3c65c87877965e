package read

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// decoded is what cli-runtime's file reader makes of in (kubectl v1.36):
// the byte-order-mark override over the UTF-8 decoder, all the way.
func decoded(t *testing.T, in []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(transform.NewReader(bytes.NewReader(in), unicode.BOMOverride(unicode.UTF8.NewDecoder())))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// textPieces are the kinds of bytes random texts are made of: plain and
// multi-byte characters, U+FFFD itself, ill-formed sequences (stray
// continuation bytes, bytes that never start a character, overlong forms,
// surrogates, code points past U+10FFFF) and characters cut short.
var textPieces = [][]byte{
	[]byte(`{"kind": "Pod", "name": "a"}`), []byte("\n"), []byte("é"), []byte("€"), []byte("𝄞"),
	[]byte("\uFFFD"), {0x80}, {0xBF}, {0xFF}, {0xC0, 0xAF}, {0xED, 0xA0, 0x80}, {0xF4, 0x90, 0x80, 0x80},
	{0xE2, 0x82}, {0xF0, 0x9D, 0x84}, {0xC3}, {0xE2, 0x41},
}

// randomText is 0 to 60 random pieces after one of the byte-order marks
// (or none).
func randomText(rng *rand.Rand) []byte {
	var b []byte
	switch rng.Intn(6) {
	case 0:
		b = append(b, 0xEF, 0xBB, 0xBF)
	case 1:
		b = append(b, 0xFF, 0xFE, 'a', 0, ':', 0, ' ', 0, 0x3D, 0xD8) // a lone surrogate at the end
	case 2:
		b = append(b, 0xFE, 0xFF, 0, 'a')
	}
	for n := rng.Intn(61); n > 0; n-- {
		b = append(b, textPieces[rng.Intn(len(textPieces))]...)
	}
	return b
}

// chunkedReader returns what it holds a random 1 to 9 bytes at a time.
type chunkedReader struct {
	b   []byte
	rng *rand.Rand
}

func (r *chunkedReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+r.rng.Intn(9))], r.b)
	r.b = r.b[n:]
	return n, nil
}

// textReader gives exactly the bytes of the x/text decoder it replaces, on
// random texts read through buffers of 4 to 19 bytes from a source that
// returns a few bytes at a time, so that characters, byte-order marks and
// ill-formed sequences fall across reads; and on the texts whole.
func TestTextReaderMatchesDecoder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		in := randomText(rng)
		want := decoded(t, in)
		size := 4 + rng.Intn(16)
		got, err := io.ReadAll(newTextReader(&chunkedReader{b: in, rng: rng}, size))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("text %q, buffer %d:\n got %q, %v\nwant %q", in, size, got, err, want)
		}
		if got, err := io.ReadAll(textReader(bytes.NewReader(in))); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("text %q whole:\n got %q, %v\nwant %q", in, got, err, want)
		}
	}
}

// The edge cases by name: the byte-order marks alone or cut short, and
// an unfinished character at the very end.
func TestTextReaderEdges(t *testing.T) {
	for _, in := range []string{"", "a", "ab", "\xEF", "\xEF\xBB", "\xEF\xBB\xBF", "\xEF\xBB\xBF\xFF", "\xFF\xFE", "\xFE\xFF",
		"\xFF", "ab\xE2\x82", "\xE2\x82\xAC", "x\xF0"} {
		want := decoded(t, []byte(in))
		for size := 4; size <= 6; size++ {
			got, err := io.ReadAll(newTextReader(iotest.OneByteReader(bytes.NewReader([]byte(in))), size))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%q, buffer %d: got %q, %v; want %q", in, size, got, err, want)
			}
		}
	}
}

// A read error comes back after the text before it, in either mode.
func TestTextReaderReturnsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	for _, in := range []string{"abc", "ab\xE2\x82", "a\xFFb", "\xFF\xFEa\x00"} {
		src := io.MultiReader(bytes.NewReader([]byte(in)), iotest.ErrReader(boom))
		got, err := io.ReadAll(newTextReader(src, 8))
		if !errors.Is(err, boom) {
			t.Errorf("%q: error %v, want boom", in, err)
		}
		if want := decoded(t, []byte(in)); !bytes.HasPrefix(want, got) {
			t.Errorf("%q: got %q before the error, not a prefix of %q", in, got, want)
		}
	}
}

// FuzzTextReader: on any bytes, through any buffer size, textReader gives
// the x/text decoder's bytes.
func FuzzTextReader(f *testing.F) {
	for _, seed := range []string{"", "\xEF\xBB\xBF{}", "\xFF\xFEa\x00", "a\xE2\x82", "\xE2\x82\xAC\xFF", "\xED\xA0\x80"} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, size uint8) {
		want := decoded(t, in)
		got, err := io.ReadAll(newTextReader(iotest.HalfReader(bytes.NewReader(in)), int(size%32)))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%q, buffer %d: got %q, %v; want %q", in, size%32, got, err, want)
		}
	})
}
