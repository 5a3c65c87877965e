package load

// This file is the scanner decodeCommon walks a pod's text with: the
// text is in memory already (the cutter hands over each object's bytes),
// and json v2's jsontext.Decoder, behind an io.Reader, keeps a state
// machine and a name stack for every token, a large part of the walk's
// cost (docs/PERFORMANCE.md, "A scanner of our own for the common pod").
//
// It is never more permissive than jsontext with decodeOptions: what it
// accepts is valid JSON, read as jsontext reads it. What it does not check
// as jsontext does, it refuses, and decodeCommon gives up (the pod is then
// decoded the usual way, whose errors are the library's): an escape in a
// name or in a string taken as written, invalid UTF-8 in such a string,
// nesting deeper than maxScanDepth, and anything malformed. Invalid UTF-8
// within a value it only skips is accepted, as jsontext.AllowInvalidUTF8
// accepts it; the value's decoder then sees the same bytes the usual way
// would have handed it.

import (
	"unicode/utf8"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// scanner reads one JSON text held in memory, from data[pos] on.
type scanner struct {
	data []byte
	pos  int
}

// maxScanDepth is the deepest nesting the scanner skips; deeper values
// (far deeper than any pod field decodeCommon skips) are refused rather
// than counted against jsontext's own limit.
const maxScanDepth = 64

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.pos < len(s.data) {
		// Above ' ' is never whitespace: one comparison for compact text.
		if c := s.data[s.pos]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return
		}
		s.pos++
	}
}

// peek returns the next byte after whitespace, or 0 at the end.
func (s *scanner) peek() byte {
	s.space()
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// consume reads c, after whitespace, and reports whether it was there.
func (s *scanner) consume(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	if s.peek() == c {
		s.pos++
		return true
	}
	return false
}

// atEnd reports whether nothing but whitespace is left, as Unmarshal
// requires after the value.
func (s *scanner) atEnd() bool {
	s.space()
	return s.pos == len(s.data)
}

// plain reads a string without escapes or control characters: its bytes
// between the quotes, as written (what the string decodes to when it is
// valid UTF-8; the caller checks that when it keeps the text).
func (s *scanner) plain() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	from := s.pos
	s.pos += read.StringSpecial(s.data[s.pos:])
	if s.pos == len(s.data) || s.data[s.pos] != '"' {
		return nil, false // an escape, a control character, or no end
	}
	s.pos++
	return s.data[from : s.pos-1], true
}

// plainText is plain for a string kept as it is written: valid UTF-8
// too (json v2 would replace an invalid byte).
func (s *scanner) plainText() ([]byte, bool) {
	v, ok := s.plain()
	return v, ok && utf8.Valid(v)
}

// value skips one whole value, checking it as jsontext does, and returns
// its text (without the whitespace around it).
func (s *scanner) value() ([]byte, bool) {
	s.space()
	from := s.pos
	if !s.skip(0) {
		return nil, false
	}
	return s.data[from:s.pos], true
}

// skip skips the value at data[pos] (after whitespace), nested depth
// deep.
func (s *scanner) skip(depth int) bool {
	switch s.peek() {
	case '{':
		if depth == maxScanDepth {
			return false
		}
		s.pos++
		if s.consume('}') {
			return true
		}
		for {
			if s.peek() != '"' || !s.str() || !s.consume(':') || !s.skip(depth+1) {
				return false
			}
			if !s.consume(',') {
				return s.consume('}')
			}
		}
	case '[':
		if depth == maxScanDepth {
			return false
		}
		s.pos++
		if s.consume(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if !s.consume(',') {
				return s.consume(']')
			}
		}
	case '"':
		return s.str()
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	return s.number()
}

// literal reads word (true, false, null). What follows it is the
// caller's to check: a separator, a closing bracket or the end.
func (s *scanner) literal(word string) bool {
	if len(s.data)-s.pos < len(word) || string(s.data[s.pos:s.pos+len(word)]) != word {
		return false
	}
	s.pos += len(word)
	return true
}

// number reads a number by JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() bool {
	d := s.data
	i := s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(d, i)
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		if j := digits(d, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(d, i)
		if j == i {
			return false
		}
		i = j
	}
	s.pos = i
	return true
}

// digits returns the index after the decimal digits from d[i] on.
func digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// str skips the string at data[pos]: escapes as JSON defines them (any
// \u escape, surrogates unpaired too, as jsontext.AllowInvalidUTF8
// allows), no control character, any other byte.
func (s *scanner) str() bool {
	s.pos++ // the opening quote
	for {
		s.pos += read.StringSpecial(s.data[s.pos:])
		if s.pos == len(s.data) {
			return false
		}
		switch s.data[s.pos] {
		case '"':
			s.pos++
			return true
		case '\\':
			if !s.escape() {
				return false
			}
		default:
			return false // a control character
		}
	}
}

// escape skips the escape at data[pos].
func (s *scanner) escape() bool {
	d := s.data[s.pos:]
	if len(d) < 2 {
		return false
	}
	switch d[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return true
	case 'u':
		if len(d) < 6 {
			return false
		}
		for _, c := range d[2:6] {
			if !isHex(c) {
				return false
			}
		}
		s.pos += 6
		return true
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
