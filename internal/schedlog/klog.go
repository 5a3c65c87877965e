package schedlog

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// klogHeader is the parsed header of a klog text line:
// "Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg" (klog v1 and v2 alike).
type klogHeader struct {
	// time is "mmdd hh:mm:ss.uuuuuu".
	time string
	// msg is everything after "] ", possibly empty.
	msg string
}

// parseKlogHeader recognises a klog text header line. It checks the fixed
// positions by hand: the large dumps are hundreds of thousands of lines, and
// each must be classified.
func parseKlogHeader(line string) (klogHeader, bool) {
	// "I1122 02:33:37.773684 1 a.go:1]" is the shortest possible header.
	if len(line) < 30 || strings.IndexByte("IWEF", line[0]) < 0 || line[5] != ' ' ||
		line[8] != ':' || line[11] != ':' || line[14] != '.' || line[21] != ' ' {
		return klogHeader{}, false
	}
	for _, i := range []int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 17, 18, 19, 20} {
		if line[i] < '0' || line[i] > '9' {
			return klogHeader{}, false
		}
	}
	rest := strings.TrimLeft(line[21:], " ")
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 || strings.Trim(rest[:sp], "0123456789") != "" {
		return klogHeader{}, false
	}
	rest = rest[sp+1:]
	end := strings.Index(rest, "] ")
	if end < 0 {
		// A header whose message is empty, with its trailing blank removed.
		if !strings.HasSuffix(rest, "]") {
			return klogHeader{}, false
		}
		end = len(rest) - 1
		rest += " "
	}
	if strings.IndexByte(rest[:end], ':') < 0 {
		return klogHeader{}, false
	}
	return klogHeader{time: line[1:21], msg: rest[end+2:]}, true
}

// stripTimestamp drops the RFC 3339 timestamp and blank that `kubectl logs
// --timestamps` (and the kubelet's log files) put before each line.
func stripTimestamp(line string) string {
	if len(line) < 21 || line[4] != '-' || line[7] != '-' || line[10] != 'T' {
		return line
	}
	sp := strings.IndexByte(line, ' ')
	if sp < 0 {
		return line
	}
	if _, err := time.Parse(time.RFC3339Nano, line[:sp]); err != nil {
		return line
	}
	return line[sp+1:]
}

// structured splits the message of a structured klog text record
// (`"Message" key=value …`) into the unquoted message and the key/value text.
func structured(msg string) (message, kvs string, ok bool) {
	if !strings.HasPrefix(msg, `"`) {
		return "", "", false
	}
	q, err := strconv.QuotedPrefix(msg)
	if err != nil {
		return "", "", false
	}
	m, err := strconv.Unquote(q)
	if err != nil {
		return "", "", false
	}
	return m, strings.TrimPrefix(msg[len(q):], " "), true
}

// valueKind is how klog rendered a string value in the text format.
type valueKind int

const (
	valueMissing   valueKind = iota // key not present
	valueQuoted                     // key="…", a value without line breaks
	valueMultiLine                  // key=<, the value's lines follow
)

// stringValue finds key in the key/value text of a structured record and
// returns its value when quoted, or valueMultiLine when it is the `key=<`
// that ends the line. Values of other keys may precede it.
func stringValue(kvs, key string) (string, valueKind, error) {
	for kvs != "" {
		k, rest, ok := strings.Cut(kvs, "=")
		if !ok {
			return "", valueMissing, nil
		}
		var val string
		kind := valueQuoted
		switch {
		case rest == "<":
			kind, rest = valueMultiLine, ""
		case strings.HasPrefix(rest, `"`):
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return "", valueMissing, errorf("bad quoted value of %s", k)
			}
			if val, err = strconv.Unquote(q); err != nil {
				return "", valueMissing, errorf("bad quoted value of %s", k)
			}
			rest = rest[len(q):]
		default:
			// A bare value (a number, a list): skip to the next key.
			end := bareEnd(rest)
			val, rest = rest[:end], rest[end:]
			kind = valueQuoted
		}
		if k == key {
			return val, kind, nil
		}
		kvs = strings.TrimPrefix(rest, " ")
	}
	return "", valueMissing, nil
}

// bareEnd returns the end of an unquoted value: a [list] may hold blanks.
func bareEnd(s string) int {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i >= 0 {
			return i + 1
		}
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return i
	}
	return len(s)
}

// listValue parses a list of names or UIDs as klog renders a []string:
// `[a b]` (fmt's %+v, klog ≤ v2.80) or `["a","b"]` (JSON, later klog).
func listValue(s string) []string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, `"`) {
		var out []string
		if json.Unmarshal([]byte(s), &out) == nil {
			return out
		}
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	return strings.Fields(s)
}

// parseJSONRecord decodes a JSON log line, or reports false when it is not
// one (it must start with '{' and hold "msg").
func parseJSONRecord(line string) (map[string]json.RawMessage, string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &m) != nil {
		return nil, "", false
	}
	raw, ok := m["msg"]
	if !ok {
		return nil, "", false
	}
	var msg string
	if json.Unmarshal(raw, &msg) != nil {
		return nil, "", false
	}
	return m, msg, true
}

// jsonString returns a string value of a JSON record, and whether key held one.
func jsonString(m map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := m[key]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// jsonTime renders the "ts" of a JSON record (milliseconds since the epoch,
// as component-base's JSON logger writes it) as RFC 3339 in UTC.
func jsonTime(m map[string]json.RawMessage) string {
	var ms float64
	if json.Unmarshal(m["ts"], &ms) != nil || ms <= 0 {
		return ""
	}
	sec := int64(ms / 1000)
	nsec := int64((ms - float64(sec)*1000) * 1e6)
	return time.Unix(sec, nsec).UTC().Format(time.RFC3339Nano)
}
