package read

// This file cuts JSON input into the pieces package load decodes: whole
// documents, or the items of a List one at a time. It looks at structure
// only (brackets, strings, separators), never recursing: nesting is counted
// on a small stack and capped at MaxDepth, and the bytes held at once are
// capped by Limits.MaxDocumentBytes, so a hostile input costs flat memory.
// What is inside an object (values, escapes, numbers) is checked by the
// decoder that gets the piece.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// SyntaxError is malformed JSON found while cutting, at an input offset
// counting the bytes up to and including the bad one (as encoding/json's).
type SyntaxError struct {
	// Offset is in bytes from the start of the source.
	Offset int64
	// Msg says what is wrong, without the offset.
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("json: offset %d: %s", e.Offset, e.Msg) }

// jsonScanner reads JSON from r through a window that holds, from start on,
// the bytes of the piece being cut. Bytes before start are dropped when the
// window moves; the window grows only while one piece needs it, up to limit.
type jsonScanner struct {
	r     io.Reader
	buf   []byte
	start int   // first byte still needed
	pos   int   // next byte to look at
	base  int64 // input offset of buf[0]
	limit int64
	eof   bool
	err   error // a read error other than io.EOF
	// The arrays and objects open in the value being cut, and the keys
	// read so far in the open objects (innermost last).
	stack []frame
	keys  []span
	// typeMeta locates the apiVersion and kind keys of the last object cut
	// (TypeMetaKeys), relative to its first byte.
	typeMeta TypeMetaKeys
}

// frame is an open array or object.
type frame struct {
	close     byte // ']' or '}'
	keysFrom  int  // its keys start at keys[keysFrom]
	expectKey bool // an object whose next string is a key
}

// span is the input offsets of a key's text, quotes included.
type span struct{ from, to int64 }

func newJSONScanner(r io.Reader, limit int64) *jsonScanner {
	return &jsonScanner{r: r, buf: make([]byte, 0, 64<<10), limit: limit}
}

// offset is the input offset of buf[i].
func (s *jsonScanner) offset(i int) int64 { return s.base + int64(i) }

// more reads into the window; false at the end of input (or on a read
// error, kept in s.err). It fails with *tooLargeError when the bytes held
// from start would exceed the limit.
func (s *jsonScanner) more() (bool, error) {
	if s.eof {
		return false, s.err
	}
	if s.start > 0 && (len(s.buf) == cap(s.buf) || s.start > len(s.buf)/2) {
		n := copy(s.buf, s.buf[s.start:])
		s.base += int64(s.start)
		s.pos -= s.start
		s.buf = s.buf[:n]
		s.start = 0
	}
	if int64(len(s.buf)-s.start) >= s.limit {
		return false, &tooLargeError{s.limit}
	}
	if len(s.buf) == cap(s.buf) {
		size := min(int64(2*cap(s.buf)), s.limit+1)
		grown := make([]byte, len(s.buf), size)
		copy(grown, s.buf)
		s.buf = grown
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
		return n > 0, nil
	}
	return true, nil
}

// peek skips whitespace and returns the next byte without consuming it; ok
// is false at the end of input. Skipped whitespace stays held until the
// caller releases it, so a run of whitespace counts toward the limit too.
func (s *jsonScanner) peek() (c byte, ok bool, err error) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\r', '\n':
				s.pos++
			default:
				return c, true, nil
			}
		}
		if err := s.check(); err != nil {
			return 0, false, err
		}
		more, err := s.more()
		if err != nil || !more {
			return 0, false, err
		}
	}
}

// check fails with *tooLargeError when the bytes held exceed the limit.
func (s *jsonScanner) check() error {
	if int64(s.pos-s.start) > s.limit {
		return &tooLargeError{s.limit}
	}
	return nil
}

// release drops the bytes before the current position.
func (s *jsonScanner) release() { s.start = s.pos }

// expect consumes the next non-space byte, which must be one of want; it
// returns it, or a syntax error saying what it was looking for.
func (s *jsonScanner) expect(want string, context string) (byte, error) {
	c, ok, err := s.peek()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, io.ErrUnexpectedEOF
	}
	if bytes.IndexByte([]byte(want), c) < 0 {
		return 0, s.syntaxError(c, context)
	}
	s.pos++
	return c, nil
}

func (s *jsonScanner) syntaxError(c byte, context string) error {
	return &SyntaxError{Offset: s.offset(s.pos) + 1, Msg: "invalid character " + quoteChar(c) + " " + context}
}

// quoteChar formats c as encoding/json's messages do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	if c >= 0x80 {
		q = fmt.Sprintf(`"\x%02x"`, c)
	}
	return "'" + q[1:len(q)-1] + "'"
}

// value cuts the JSON value starting at the next non-space byte and returns
// its bytes (valid until the scanner moves on) and its input offset. Objects
// and arrays are matched bracket by bracket, at most MaxDepth deep counting
// the depth levels that enclose the value; strings are skipped through
// their closing quote; other values (numbers, literals, or garbage the
// decoder will name) run to the next delimiter. The bytes held, the value's
// included, must stay within the limit.
func (s *jsonScanner) value(depth int) ([]byte, int64, error) {
	v, at, err := s.cutValue(depth)
	if err == nil {
		err = s.check()
	}
	return v, at, err
}

func (s *jsonScanner) cutValue(depth int) ([]byte, int64, error) {
	if _, ok, err := s.peek(); err != nil {
		return nil, 0, err
	} else if !ok {
		return nil, 0, io.ErrUnexpectedEOF
	}
	at := s.offset(s.pos)
	s.stack, s.keys = s.stack[:0], s.keys[:0]
	s.typeMeta = TypeMetaKeys{}
	inString, isKey := false, false
	var keyAt int64
	for {
		if s.pos == len(s.buf) {
			more, err := s.more()
			if err != nil {
				return nil, 0, err
			}
			if !more {
				if len(s.stack) == 0 && !inString {
					return s.cut(at), at, nil // a literal at the end of input
				}
				return nil, 0, io.ErrUnexpectedEOF
			}
			continue
		}
		if inString {
			s.pos += stringStop(s.buf[s.pos:])
			switch {
			case s.pos == len(s.buf):
				continue
			case s.buf[s.pos] == '\\':
				// Skip the escaped byte too, reading on when it is not here yet.
				if s.pos+1 == len(s.buf) {
					if more, err := s.more(); err != nil {
						return nil, 0, err
					} else if !more {
						return nil, 0, io.ErrUnexpectedEOF
					}
				}
				s.pos += 2
				continue
			}
			s.pos++ // the closing quote
			inString = false
			if len(s.stack) == 0 {
				return s.cut(at), at, nil
			}
			if isKey {
				if err := s.addKey(span{keyAt, s.offset(s.pos)}); err != nil {
					return nil, 0, err
				}
				isKey = false
			}
			continue
		}
		switch c := s.buf[s.pos]; c {
		case '"':
			inString = true
			if n := len(s.stack); n > 0 && s.stack[n-1].expectKey {
				isKey, keyAt = true, s.offset(s.pos)
				s.stack[n-1].expectKey = false
			}
		case '{', '[':
			if depth+len(s.stack) == MaxDepth {
				return nil, 0, tooDeepError{}
			}
			s.stack = append(s.stack, frame{close: c + 2, keysFrom: len(s.keys), expectKey: c == '{'}) // c+2: '}' or ']'
		case '}', ']':
			if len(s.stack) == 0 {
				if s.offset(s.pos) == at {
					return nil, 0, s.syntaxError(c, "looking for beginning of value")
				}
				return s.cut(at), at, nil // a literal before the enclosing bracket
			}
			top := s.stack[len(s.stack)-1]
			if top.close != c {
				return nil, 0, s.mismatch(at, c)
			}
			if len(s.stack) == 1 && c == '}' {
				s.typeMeta = s.topTypeMeta(at)
			}
			s.keys = s.keys[:top.keysFrom]
			s.stack = s.stack[:len(s.stack)-1]
			if len(s.stack) == 0 {
				s.pos++
				return s.cut(at), at, nil
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if len(s.stack) == 0 {
				if s.offset(s.pos) == at {
					return nil, 0, s.syntaxError(c, "looking for beginning of value")
				}
				return s.cut(at), at, nil
			}
			if top := &s.stack[len(s.stack)-1]; c == ',' && top.close == '}' {
				top.expectKey = true
			}
		}
		s.pos++
	}
}

// topTypeMeta finds, among the keys of the object cut from input offset
// at (all of them recorded, and no other, as it closes), those that
// encoding/json would fill apiVersion and kind from.
func (s *jsonScanner) topTypeMeta(at int64) TypeMetaKeys {
	t := TypeMetaKeys{known: true}
	for _, k := range s.keys {
		text := s.buf[k.from-s.base+1 : k.to-s.base-1] // within the quotes
		if !plainASCII(text) {
			return TypeMetaKeys{} // case folding beyond ASCII: ScanTypeMeta decides
		}
		// The last of equal keys wins, as in encoding/json.
		switch {
		case bytes.EqualFold(text, []byte("kind")):
			t.kind = int(k.to - at)
		case bytes.EqualFold(text, []byte("apiVersion")):
			t.apiVersion = int(k.to - at)
		}
	}
	return t
}

// addKey records a key of the innermost open object, failing when the
// object already has a key of the same text. Keys are compared as written:
// the API server's decoder would also reject the rare pair that differs
// only by escapes ("a" and "\u0061"), which passes here and keeps the last.
func (s *jsonScanner) addKey(k span) error {
	text := s.buf[k.from-s.base : k.to-s.base]
	for _, seen := range s.keys[s.stack[len(s.stack)-1].keysFrom:] {
		if bytes.Equal(s.buf[seen.from-s.base:seen.to-s.base], text) {
			return fmt.Errorf("duplicate key %s", clean(string(text)))
		}
	}
	s.keys = append(s.keys, k)
	return nil
}

// mismatch is the error of a closing bracket c at the current position
// that does not close what is open: encoding/json's own message for the
// value so far, which says what it expected instead.
func (s *jsonScanner) mismatch(at int64, c byte) error {
	var raw json.RawMessage
	var syntax *json.SyntaxError
	if errors.As(json.Unmarshal(s.buf[at-s.base:s.pos+1], &raw), &syntax) {
		return &SyntaxError{Offset: at + syntax.Offset, Msg: syntax.Error()}
	}
	return s.syntaxError(c, "in a JSON value")
}

// cut returns the bytes from input offset at to the current position.
func (s *jsonScanner) cut(at int64) []byte { return s.buf[at-s.base : s.pos] }

// key reads an object key (a JSON string) and the colon after it.
func (s *jsonScanner) key() (string, error) {
	c, ok, err := s.peek()
	if err != nil {
		return "", err
	}
	if !ok {
		return "", io.ErrUnexpectedEOF
	}
	if c != '"' {
		return "", s.syntaxError(c, "looking for beginning of object key string")
	}
	raw, at, err := s.value(0)
	if err != nil {
		return "", err
	}
	var key string
	if err := json.Unmarshal(raw, &key); err != nil {
		return "", &SyntaxError{Offset: at + 1, Msg: "malformed object key " + clean(string(raw))}
	}
	if _, err := s.expect(":", "after object key"); err != nil {
		return "", err
	}
	return key, nil
}
