package load

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// TestPlainStringMap checks plainStringMap against json v2 with the pod
// decoder's options: the texts it takes decode to the same map, and it
// takes the common ones (so the test fails if it never does).
func TestPlainStringMap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		plain bool // plainStringMap takes it
	}{
		{`{}`, true},
		{`{"app":"web"}`, true},
		{`{"app":"web-1","pod-template-hash":"abc12"}`, true},
		{`{"a":"","b":""}`, true},
		{`{"a":"x","a":"y"}`, true},
		{`{"zone":"éé"}`, true},
		{`{"a:b":"c,d","e}":"{f"}`, true},
		{`{"a":"1", "b":"2"}`, false},
		{`{ "a":"1"}`, false},
		{`{"a" :"1"}`, false},
		{`{"a":"\u0031"}`, false},
		{`{"a\"b":"1"}`, false},
		{"{\"a\":\"\xff\"}", false},
		{`{"a":1}`, false},
		{`{"a":null}`, false},
		{`null`, false},
		{`{"a":"1"}x`, false},
	} {
		got, ok := plainStringMap([]byte(tc.text))
		if ok != tc.plain {
			t.Errorf("%s: taken %v, want %v", tc.text, ok, tc.plain)
		}
		if !ok {
			continue
		}
		var want map[string]string
		if err := jsonv2.Unmarshal([]byte(tc.text), &want, decodeOptions); err != nil {
			t.Fatalf("%s: json v2: %v", tc.text, err)
		}
		if !reflect.DeepEqual(got, want) || got == nil {
			t.Errorf("%s: %#v, json v2 %#v", tc.text, got, want)
		}
	}
}
