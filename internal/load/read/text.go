package read

import (
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// readBuffer is the size of the reads from a source, in bytes.
const readBuffer = 256 << 10

// textReader decodes a source as cli-runtime's file reader does (kubectl
// v1.36 reads files through unicode.BOMOverride over unicode.UTF8's
// decoder): UTF-16 with a byte-order mark becomes UTF-8; after a UTF-8
// byte-order mark, which is dropped, the bytes pass as they are; otherwise
// every ill-formed UTF-8 sequence becomes U+FFFD.
//
// The decoder itself copies and checks every byte through 4 KiB buffers, a
// visible cost on large files (docs/PERFORMANCE.md#file-mode, "The reader,
// third session"). Here well-formed UTF-8, nearly every
// input, is checked a buffer at a time with utf8.Valid and passed on; from
// the first ill-formed sequence, or a UTF-16 byte-order mark, the rest of
// the source goes through the same x/text decoder as before. The decoder
// keeps no state between two characters, so starting it at a character
// boundary gives the bytes it would have given from the start
// (TestTextReaderMatchesDecoder).
func textReader(r io.Reader) io.Reader { return newTextReader(r, readBuffer) }

// newTextReader is textReader reading size bytes at a time (at least
// utf8.UTFMax).
func newTextReader(r io.Reader, size int) io.Reader {
	return &utf8Reader{src: r, buf: make([]byte, 0, max(size, utf8.UTFMax))}
}

// utf8Reader is textReader's reader.
type utf8Reader struct {
	src io.Reader
	// buf[off:valid] is checked text not read yet; buf[valid:] the start
	// of a character the next read completes.
	buf        []byte
	off, valid int
	// err is src's error (io.EOF at the end), returned once buf is read.
	err error
	// started: the byte-order mark was looked for. asIs: it was UTF-8's.
	started, asIs bool
	// slow reads the rest once it is not plain well-formed UTF-8.
	slow io.Reader
}

func (t *utf8Reader) Read(p []byte) (int, error) {
	for {
		if t.off < t.valid {
			n := copy(p, t.buf[t.off:t.valid])
			t.off += n
			return n, nil
		}
		if t.slow != nil {
			return t.slow.Read(p)
		}
		if t.err != nil {
			return 0, t.err
		}
		t.fill()
	}
}

// fill reads more of the source after the unfinished character kept from
// the last fill, and checks it.
func (t *utf8Reader) fill() {
	kept := copy(t.buf[:cap(t.buf)], t.buf[t.valid:])
	n, err := t.src.Read(t.buf[kept:cap(t.buf)])
	t.buf, t.off, t.valid, t.err = t.buf[:kept+n], 0, 0, err
	if !t.started {
		t.start()
		return
	}
	if t.asIs {
		t.valid = len(t.buf)
		return
	}
	t.check()
}

// start looks at the first three bytes, as the byte-order-mark override
// does (fewer only at the end of the source).
func (t *utf8Reader) start() {
	b := t.buf
	if len(b) < 3 && t.err == nil {
		t.valid = 0 // all kept for the next fill
		return
	}
	t.started = true
	switch {
	case len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF):
		t.slow = transform.NewReader(t.remaining(b), unicode.BOMOverride(unicode.UTF8.NewDecoder()))
		t.buf = t.buf[:0]
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		t.asIs, t.off, t.valid = true, 3, len(b)
	default:
		t.check()
	}
}

// check finds how much of buf is well-formed; from an ill-formed sequence,
// or one the end of the source cut short, the decoder takes over.
func (t *utf8Reader) check() {
	t.valid = validPrefix(t.buf)
	if rest := t.buf[t.valid:]; len(rest) > 0 && (t.err != nil || utf8.FullRune(rest)) {
		t.slow = transform.NewReader(t.remaining(rest), unicode.UTF8.NewDecoder())
		t.buf = t.buf[:t.valid]
	}
}

// remaining is a copy of b followed by what the source has left.
func (t *utf8Reader) remaining(b []byte) io.Reader {
	head := bytes.NewReader(bytes.Clone(b))
	switch t.err {
	case nil:
		return io.MultiReader(head, t.src)
	case io.EOF:
		return head
	}
	return io.MultiReader(head, errReader{t.err})
}

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// validPrefix is the length of the longest prefix of b made of whole,
// well-formed UTF-8 characters.
func validPrefix(b []byte) int {
	if utf8.Valid(b) {
		return len(b)
	}
	// Usually a character cut by the end of the read: it starts in the
	// last three bytes.
	j := len(b) - 1
	for j > 0 && j > len(b)-utf8.UTFMax && !utf8.RuneStart(b[j]) {
		j--
	}
	if j >= 0 && !utf8.FullRune(b[j:]) && utf8.Valid(b[:j]) {
		return j
	}
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return i
}
