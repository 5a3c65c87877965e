package read

// This file reads an object's apiVersion and kind without decoding it. The
// API server's JSON serializer reads them with encoding/json
// (SimpleMetaFactory.Interpret), which parses the whole object: a fifth of
// the reader's CPU. ScanTypeMeta walks the object's top level, skipping
// nested values bracket by bracket, and gives up (ok false) on anything
// where encoding/json's own rules would need care: escapes or non-ASCII
// bytes in a key, a non-string value for either field, escapes in the
// value, or text that is not a well-formed top level. kindOf then asks
// Interpret, so the result is always Interpret's.

import "bytes"

// ScanTypeMeta returns the apiVersion and kind of the JSON object data as
// encoding/json would fill struct{ APIVersion, Kind string } from it: keys
// matched case-insensitively, the last match winning. ok is false when the
// fast path cannot tell.
func ScanTypeMeta(data []byte) (apiVersion, kind string, ok bool) {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return "", "", false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return "", "", true
	}
	for i < len(data) {
		if data[i] != '"' {
			return "", "", false
		}
		end := bytes.IndexByte(data[i+1:], '"')
		if end < 0 {
			return "", "", false
		}
		key := data[i+1 : i+1+end]
		if !plainASCII(key) {
			return "", "", false
		}
		i = skipSpace(data, i+end+2)
		if i >= len(data) || data[i] != ':' {
			return "", "", false
		}
		i = skipSpace(data, i+1)
		field := 0
		switch {
		case bytes.EqualFold(key, []byte("kind")):
			field = 1
		case bytes.EqualFold(key, []byte("apiVersion")):
			field = 2
		}
		var next int
		if field != 0 {
			s, n, isString := plainString(data, i)
			if !isString {
				return "", "", false
			}
			if field == 1 {
				kind = s
			} else {
				apiVersion = s
			}
			next = n
		} else if next = skipValue(data, i); next < 0 {
			return "", "", false
		}
		i = skipSpace(data, next)
		if i >= len(data) {
			return "", "", false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return apiVersion, kind, skipSpace(data, i+1) == len(data)
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// TypeMetaKeys is where the cutter saw an object's apiVersion and kind
// keys: the offsets just after their closing quotes, 0 for a key the
// object does not have. known is false when the cutter could not tell (a
// key with an escape or a non-ASCII byte, which encoding/json may match
// case-insensitively in ways this does not follow).
type TypeMetaKeys struct {
	known            bool
	apiVersion, kind int
}

// Read returns the apiVersion and kind of data, the object the keys were
// found in, as ScanTypeMeta would; ok is false when the keys are not known
// or a value is not a plain string (ScanTypeMeta then decides). It spares
// the decoders a second walk over every object's top level.
func (t TypeMetaKeys) Read(data []byte) (apiVersion, kind string, ok bool) {
	if !t.known {
		return "", "", false
	}
	if apiVersion, ok = t.value(data, t.apiVersion); !ok {
		return "", "", false
	}
	if kind, ok = t.value(data, t.kind); !ok {
		return "", "", false
	}
	return apiVersion, kind, true
}

// value reads the plain string after the key ending at data[end] ("" when
// end is 0: no such key).
func (t TypeMetaKeys) value(data []byte, end int) (string, bool) {
	if end == 0 {
		return "", true
	}
	if end > len(data) || data[end-1] != '"' {
		return "", false // not the text the keys were found in
	}
	i := skipSpace(data, end)
	if i >= len(data) || data[i] != ':' {
		return "", false
	}
	v, _, ok := plainString(data, skipSpace(data, i+1))
	return v, ok
}

// plainASCII: no escapes, no control or non-ASCII bytes (whose case
// folding encoding/json treats specially).
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

// plainString reads the JSON string at data[i] when it has no escapes and
// only plain ASCII: its text and the index after its closing quote.
func plainString(data []byte, i int) (string, int, bool) {
	if i >= len(data) || data[i] != '"' {
		return "", 0, false
	}
	end := bytes.IndexByte(data[i+1:], '"')
	if end < 0 || !plainASCII(data[i+1:i+1+end]) {
		return "", 0, false
	}
	return string(data[i+1 : i+1+end]), i + end + 2, true
}

// skipValue returns the index after the value starting at data[i] (its
// brackets matched, its strings skipped through their closing quotes), or
// -1 when it does not end. Validity is left to the decoder that follows.
func skipValue(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if i >= len(data) {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // a literal just before the closing bracket
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
