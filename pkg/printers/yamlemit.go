package printers

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// yamlEmitter writes one list element's YAML from its compact JSON, byte
// for byte as sigs.k8s.io/yaml writes that element inside its document
// (go-yaml v2: block style, two-space indent, lists in a mapping at the
// mapping's column, keys in go-yaml's order), for the JSON it knows how to:
// strings of plain characters (yamlString), integers, booleans, null,
// objects and lists of them, but no list directly in a list. Anything else
// makes item report false, and the caller writes the element another way.
//
// Its slices are reused from one element to the next.
type yamlEmitter struct {
	js   []byte
	toks []yamlToken
	keys []int32 // members of the objects being written, by token index
}

// yamlToken is one JSON value, key or string in js[start:end] (a string
// without its quotes); objects and lists also count their members or
// elements and say where the token after their last one is.
type yamlToken struct {
	kind       byte // '{', '[', '"', '0' (an integer), 't', 'f', 'n'
	start, end int32
	n          int32 // members of an object, elements of a list
	next       int32 // index of the token after this value
}

// item appends the YAML of the element whose JSON is js to out, as the
// list item it is: "- " at column 0. It reports false, with out holding
// a partial text, for JSON it does not write.
func (e *yamlEmitter) item(out *bytes.Buffer, js []byte) bool {
	e.js, e.toks, e.keys = js, e.toks[:0], e.keys[:0]
	if len(js) > 1<<30 {
		return false
	}
	end, ok := e.parse(0)
	if !ok || end != len(js) {
		return false
	}
	out.WriteString("- ")
	return e.inSequence(out, 0, 0)
}

// parse reads the value at js[i:] into toks and returns the offset after it.
func (e *yamlEmitter) parse(i int) (int, bool) {
	if i >= len(e.js) {
		return i, false
	}
	at := len(e.toks)
	e.toks = append(e.toks, yamlToken{kind: e.js[i], start: int32(i)})
	switch c := e.js[i]; {
	case c == '{' || c == '[':
		return e.parseContainer(i, at)
	case c == '"':
		end := bytes.IndexByte(e.js[i+1:], '"')
		if end < 0 || bytes.IndexByte(e.js[i+1:i+1+end], '\\') >= 0 {
			return i, false // escapes: not plain characters anyway
		}
		e.toks[at].start, e.toks[at].end = int32(i+1), int32(i+1+end)
		e.toks[at].next = int32(len(e.toks))
		return i + end + 2, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := i
		if c == '-' {
			j++
		}
		d := j
		for j < len(e.js) && e.js[j] >= '0' && e.js[j] <= '9' {
			j++
		}
		// An integer as go-yaml writes it back: no fraction or exponent,
		// no "-0", and short enough to be an int64.
		if j == d || (e.js[d] == '0' && j-d > 1) || (c == '-' && e.js[d] == '0') || (j-d > 18 && !fitsInt64(e.js[i:j])) {
			return i, false
		}
		if j < len(e.js) && (e.js[j] == '.' || e.js[j] == 'e' || e.js[j] == 'E') {
			return i, false
		}
		e.toks[at].kind, e.toks[at].end, e.toks[at].next = '0', int32(j), int32(len(e.toks))
		return j, true
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(e.js[i:], []byte(lit)) {
				e.toks[at].end, e.toks[at].next = int32(i+len(lit)), int32(len(e.toks))
				return i + len(lit), true
			}
		}
		return i, false
	}
}

// parseContainer reads the object or list that starts at js[i], whose
// token is toks[at]: an object's members as a key token then a value.
func (e *yamlEmitter) parseContainer(i, at int) (int, bool) {
	closing := byte(']')
	if e.js[i] == '{' {
		closing = '}'
	}
	i++
	for n := 0; ; n++ {
		if i < len(e.js) && e.js[i] == closing && n == 0 {
			break
		}
		if closing == '}' {
			if i >= len(e.js) || e.js[i] != '"' {
				return i, false
			}
			var ok bool
			if i, ok = e.parse(i); !ok || i >= len(e.js) || e.js[i] != ':' {
				return i, false
			}
			i++
		}
		var ok bool
		if i, ok = e.parse(i); !ok || i >= len(e.js) {
			return i, false
		}
		e.toks[at].n++
		if e.js[i] == closing {
			break
		}
		if e.js[i] != ',' {
			return i, false
		}
		i++
	}
	e.toks[at].end, e.toks[at].next = int32(i+1), int32(len(e.toks))
	return i + 1, true
}

// inSequence writes the value toks[t] after a "- " whose dash is at
// column col: a scalar, or a mapping whose first key follows the dash and
// whose other keys are at col+2.
func (e *yamlEmitter) inSequence(out *bytes.Buffer, t int32, col int) bool {
	switch tok := e.toks[t]; tok.kind {
	case '{':
		if tok.n == 0 {
			out.WriteString("{}\n")
			return true
		}
		return e.members(out, t, col+2, true)
	case '[':
		if tok.n == 0 {
			out.WriteString("[]\n")
			return true
		}
		return false // a list in a list
	default:
		if !e.scalar(out, tok) {
			return false
		}
		out.WriteByte('\n')
		return true
	}
}

// members writes the object toks[t]'s members, sorted as go-yaml sorts
// keys, each "key:" at column col (the first one without its indent when
// it follows a list item's dash).
func (e *yamlEmitter) members(out *bytes.Buffer, t int32, col int, afterDash bool) bool {
	base := len(e.keys)
	for k, i := t+1, int32(0); i < e.toks[t].n; i++ {
		e.keys = append(e.keys, k)
		k = e.toks[k+1].next
	}
	order := e.keys[base:]
	slices.SortFunc(order, func(a, b int32) int {
		ka, kb := e.bytes(e.toks[a]), e.bytes(e.toks[b])
		switch {
		case yamlKeyLess(ka, kb):
			return -1
		case yamlKeyLess(kb, ka):
			return 1
		}
		return 0
	})
	if !e.totalOrder(order) {
		return false
	}
	for i := range order {
		k := e.keys[base+i]
		if i > 0 || !afterDash {
			indent(out, col)
		}
		key := e.toks[k]
		if key.end-key.start > 128 || !e.scalar(out, key) {
			return false // a long key is written "? key" by go-yaml
		}
		out.WriteByte(':')
		if !e.value(out, k+1, col) {
			return false
		}
	}
	e.keys = e.keys[:base]
	return true
}

// totalOrder reports whether the sorted keys are in an order every sort
// gives: go-yaml's comparison of digits is not transitive ("a1b" < "a9" <
// "a10" < "a1b"), and with such keys its order depends on the map's
// iteration order. Keys without digits always are.
func (e *yamlEmitter) totalOrder(order []int32) bool {
	digits := false
	for _, k := range order {
		for _, c := range e.bytes(e.toks[k]) {
			digits = digits || isASCIIDigit(c)
		}
	}
	for i := 0; digits && i < len(order); i++ {
		for j := i + 1; j < len(order); j++ {
			if !yamlKeyLess(e.bytes(e.toks[order[i]]), e.bytes(e.toks[order[j]])) {
				return false
			}
		}
	}
	return true
}

// fitsInt64 reports an integer that go-yaml reads back as itself: one that
// fits an int64 or, positive, a uint64.
func fitsInt64(n []byte) bool {
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(string(n), 10, 64)
	return err == nil
}

// value writes the value toks[t] of a key at column col, after its ":".
func (e *yamlEmitter) value(out *bytes.Buffer, t int32, col int) bool {
	switch tok := e.toks[t]; tok.kind {
	case '{':
		if tok.n == 0 {
			out.WriteString(" {}\n")
			return true
		}
		out.WriteByte('\n')
		return e.members(out, t, col+2, false)
	case '[':
		if tok.n == 0 {
			out.WriteString(" []\n")
			return true
		}
		out.WriteByte('\n')
		for k, i := t+1, int32(0); i < tok.n; i++ {
			indent(out, col)
			out.WriteString("- ")
			if !e.inSequence(out, k, col) {
				return false
			}
			k = e.toks[k].next
		}
		return true
	default:
		out.WriteByte(' ')
		if !e.scalar(out, tok) {
			return false
		}
		out.WriteByte('\n')
		return true
	}
}

// scalar writes a string, integer, boolean or null as go-yaml writes it.
func (e *yamlEmitter) scalar(out *bytes.Buffer, tok yamlToken) bool {
	if tok.kind != '"' {
		out.Write(e.js[tok.start:tok.end])
		return true
	}
	s := e.bytes(tok)
	plain, ok := yamlString(s)
	switch {
	case !ok:
		return false
	case plain:
		out.Write(s)
	default:
		out.WriteByte('"')
		out.Write(s)
		out.WriteByte('"')
	}
	return true
}

func (e *yamlEmitter) bytes(tok yamlToken) []byte {
	return e.js[tok.start:tok.end]
}

func indent(out *bytes.Buffer, col int) {
	const blanks = "                                                                "
	for ; col > len(blanks); col -= len(blanks) {
		out.WriteString(blanks)
	}
	out.WriteString(blanks[:col])
}

// yamlString says how go-yaml v2 writes the string s, for the strings it
// knows: ok is false unless s is made of ASCII letters, digits and
// ". _ / - : @ +", starts with a letter or a digit and does not end with
// ":" (no blanks to fold lines at, no character to escape or to read as an
// indicator), and is not a timestamp or, starting with a digit, holds no
// ":" (go-yaml quotes sexagesimal numbers). Image names and digests,
// "ip/protocol/port" and UIDs are such strings.
// Such a string is written plain unless, unquoted, go-yaml would read it
// back as something else — a boolean or null word of YAML 1.1 (yes, No,
// ON, ~, …), an integer (decimal, 0x, 0o, 0b, underscores ignored) or a
// float — when it is double-quoted; "" is written "".
func yamlString[S ~string | ~[]byte](s S) (plain, ok bool) {
	if len(s) == 0 {
		return false, true
	}
	for i := range len(s) {
		if !yamlPlainByte(s[i]) {
			return false, false
		}
	}
	if s[len(s)-1] == ':' {
		return false, false // a key indicator: go-yaml quotes it
	}
	if isASCIILetter(s[0]) {
		switch string(s) { // no allocation: compared, not kept
		case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
			"true", "True", "TRUE", "false", "False", "FALSE",
			"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL":
			return false, true
		}
		return true, true
	}
	if !isASCIIDigit(s[0]) || hasColon(s) {
		return false, false // a sign, an indicator, or a sexagesimal number
	}
	digits := 0
	for digits < len(s) && isASCIIDigit(s[digits]) {
		digits++
	}
	if digits == 4 && len(s) > 4 && s[4] == '-' {
		return false, false // maybe a timestamp: YYYY-…
	}
	if !yamlMaybeNumber(s) {
		return true, true
	}
	n := strings.ReplaceAll(string(s), "_", "")
	if _, err := strconv.ParseInt(n, 0, 64); err == nil {
		return false, true
	}
	if _, err := strconv.ParseUint(n, 0, 64); err == nil {
		return false, true
	}
	if yamlFloatForm(n) {
		if _, err := strconv.ParseFloat(n, 64); err == nil {
			return false, true
		}
	}
	return true, true
}

func hasColon[S ~string | ~[]byte](s S) bool {
	for i := range len(s) {
		if s[i] == ':' {
			return true
		}
	}
	return false
}

// yamlPlainByte reports an ASCII letter or digit or one of "._/-:@+",
// the characters yamlString knows: one bit per byte below 128, in two
// words, as this runs on every byte of every string written.
func yamlPlainByte(c byte) bool {
	const (
		low  = 1<<'+' | 1<<'-' | 1<<'.' | 1<<'/' | (1<<10-1)<<'0' | 1<<':'
		high = 1<<('@'-64) | (1<<26-1)<<('A'-64) | 1<<('_'-64) | (1<<26-1)<<('a'-64)
	)
	switch {
	case c < 64:
		return low>>c&1 != 0
	case c < 128:
		return high>>(c-64)&1 != 0
	}
	return false
}

// yamlMaybeNumber reports a string that starts with a digit and could be
// an integer or a float to go-yaml: a radix prefix (0x, 0o, 0b), or only
// digits, underscores, dots, signs and exponent marks. It saves parsing
// the strings that cannot be (a UID such as "4f1c…").
func yamlMaybeNumber[S ~string | ~[]byte](s S) bool {
	if len(s) > 1 && s[0] == '0' && strings.IndexByte("xXoObB", s[1]) >= 0 {
		return true
	}
	for i := range len(s) {
		if c := s[i]; !isASCIIDigit(c) && strings.IndexByte("_.eE+-", c) < 0 {
			return false
		}
	}
	return true
}

// yamlFloatForm reports digits, an optional fraction and an optional
// exponent ("1.", "2.5", "3e4", "1.5E-3"): YAML 1.1's float form for a
// string that starts with a digit.
func yamlFloatForm(s string) bool {
	i := 0
	for i < len(s) && isASCIIDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && isASCIIDigit(s[i]) {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(s)
}

// yamlKeyLess orders two ASCII map keys as go-yaml v2 sorts them: at the
// first byte that differs, letters by byte value and after any other
// character; otherwise the numbers spelt by the digits from there compare
// by value (a run continuing digits before it that are not all zeros
// counts from 1, so leading zeros are not dropped there), then by length,
// then by byte; a key that is a prefix of the other comes first.
func yamlKeyLess[S ~string | ~[]byte](a, b S) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		xl, yl := isASCIILetter(x), isASCIILetter(y)
		if xl && yl {
			return x < y
		}
		if xl || yl {
			return yl
		}
		var xn, yn int64
		if x == '0' || y == '0' {
			for j := i - 1; j >= 0 && isASCIIDigit(a[j]); j-- {
				if a[j] != '0' {
					xn, yn = 1, 1
					break
				}
			}
		}
		xe, ye := i, i
		for ; xe < len(a) && isASCIIDigit(a[xe]); xe++ {
			xn = xn*10 + int64(a[xe]-'0')
		}
		for ; ye < len(b) && isASCIIDigit(b[ye]); ye++ {
			yn = yn*10 + int64(b[ye]-'0')
		}
		if xn != yn {
			return xn < yn
		}
		if xe != ye {
			return xe < ye
		}
		return x < y
	}
	return len(a) < len(b)
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }
