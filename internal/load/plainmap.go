package load

import (
	"bytes"
	"slices"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// plainStringMap decodes text, a JSON object of strings as the API server
// and kubectl write labels (no space, no escape, valid UTF-8), into a new
// map, as json v2 would; false for any other text, which the caller
// decodes with json v2. text is a value jsontext or the pod decoder's
// scanner (podscan.go) has read whole, so it is valid JSON: no control
// character in its strings. On the small shape most pods' labels
// are their own workload's, decoded once for about five pods: json v2's
// reflective map decode was most of that. Keys come from keys when it is
// not nil (a walk's strings: a cluster's label keys are few).
func plainStringMap(text []byte, keys *stringCache) (map[string]string, bool) {
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
		if keys != nil {
			m[keys.make(k)] = string(v)
		} else {
			m[string(k)] = string(v)
		}
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

// plainOwnerRefs decodes text, a JSON array of owner references as the
// API server writes them (no space, no escape, valid UTF-8, only the
// fields of metav1.OwnerReference, its flags true or false), as json v2
// would; false for any other text (an empty array too), which the caller
// decodes with json v2. Most pods' references are their own ReplicaSet's,
// shared by about five pods on the small shape.
func plainOwnerRefs(text []byte) ([]metav1.OwnerReference, bool) {
	if len(text) < 4 || text[0] != '[' || text[len(text)-1] != ']' {
		return nil, false
	}
	refs := make([]metav1.OwnerReference, 0, bytes.Count(text, []byte("{")))
	for i := 1; ; {
		var ref metav1.OwnerReference
		at, ok := plainOwnerRef(text, i, &ref)
		if !ok || at >= len(text) {
			return nil, false
		}
		refs = append(refs, ref)
		switch {
		case text[at] == ',':
			i = at + 1
		case text[at] == ']' && at == len(text)-1:
			return slices.Clip(refs), true
		default:
			return nil, false
		}
	}
}

// plainOwnerRef reads the object starting at text[i] into ref and
// returns the index after it (plainOwnerRefs).
func plainOwnerRef(text []byte, i int, ref *metav1.OwnerReference) (int, bool) {
	if i >= len(text) || text[i] != '{' {
		return 0, false
	}
	i++
	for {
		k, at, ok := plainQuoted(text, i)
		if !ok || at >= len(text) || text[at] != ':' {
			return 0, false
		}
		at++
		var s []byte
		switch string(k) {
		case "apiVersion", "kind", "name", "uid":
			if s, at, ok = plainQuoted(text, at); !ok {
				return 0, false
			}
		case "controller", "blockOwnerDeletion":
			var b bool
			switch {
			case bytes.HasPrefix(text[at:], []byte("true")):
				b, at = true, at+4
			case bytes.HasPrefix(text[at:], []byte("false")):
				at += 5
			default:
				return 0, false
			}
			if string(k) == "controller" {
				ref.Controller = &b
			} else {
				ref.BlockOwnerDeletion = &b
			}
		default:
			return 0, false
		}
		switch string(k) {
		case "apiVersion":
			ref.APIVersion = string(s)
		case "kind":
			ref.Kind = string(s)
		case "name":
			ref.Name = string(s)
		case "uid":
			ref.UID = types.UID(s)
		}
		if at >= len(text) {
			return 0, false
		}
		switch text[at] {
		case ',':
			i = at + 1
		case '}':
			return at + 1, true
		default:
			return 0, false
		}
	}
}
