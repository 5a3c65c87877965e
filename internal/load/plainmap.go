package load

import (
	"bytes"
	"unicode/utf8"
)

// plainStringMap decodes text, a JSON object of strings as the API server
// and kubectl write labels (no space, no escape, valid UTF-8), into a new
// map, as json v2 would; false for any other text, which the caller
// decodes with json v2. text is a value the pod decoder's tokenizer has
// read whole, so it is valid JSON. On the small shape most pods' labels
// are their own workload's, decoded once for about five pods: json v2's
// reflective map decode was most of that.
func plainStringMap(text []byte) (map[string]string, bool) {
	if len(text) < 2 || text[0] != '{' || text[len(text)-1] != '}' {
		return nil, false
	}
	if len(text) == 2 {
		return map[string]string{}, true
	}
	m := make(map[string]string, bytes.Count(text, []byte(`":"`)))
	for i := 1; ; {
		k, at, ok := plainQuoted(text, i)
		if !ok || at >= len(text) || text[at] != ':' {
			return nil, false
		}
		v, at, ok := plainQuoted(text, at+1)
		if !ok || at >= len(text) {
			return nil, false
		}
		m[string(k)] = string(v)
		switch {
		case text[at] == ',':
			i = at + 1
		case text[at] == '}' && at == len(text)-1:
			return m, true
		default:
			return nil, false
		}
	}
}

// plainQuoted reads the string starting at text[i] (its opening quote):
// its bytes between the quotes and the index after its closing quote;
// false unless it is a string without escapes, in valid UTF-8.
func plainQuoted(text []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(text) || text[i] != '"' {
		return nil, 0, false
	}
	end := bytes.IndexByte(text[i+1:], '"')
	if end < 0 {
		return nil, 0, false
	}
	s = text[i+1 : i+1+end]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return nil, 0, false
	}
	return s, i + end + 2, true
}
