package load

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
		got, ok := plainStringMap([]byte(tc.text), nil)
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

// TestPlainOwnerRefs checks plainOwnerRefs against json v2 as
// TestPlainStringMap does.
func TestPlainOwnerRefs(t *testing.T) {
	rs := `{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1-abc","uid":"84205cb8-84cd-463c-a22a-59b90aa06500","controller":true,"blockOwnerDeletion":true}`
	for _, tc := range []struct {
		text  string
		plain bool
	}{
		{`[` + rs + `]`, true},
		{`[` + rs + `,{"kind":"Node","name":"n1","controller":false}]`, true},
		{`[{"name":"a{b","uid":"u"}]`, true},
		{`[{"name":"a","name":"b"}]`, true},
		{`[{}]`, false},
		{`[]`, false},
		{`null`, false},
		{`[{"name":"a"} ]`, false},
		{`[{"name":"a","controller":null}]`, false},
		{`[{"name":"a","controller":"true"}]`, false},
		{`[{"name":"a","Controller":true}]`, false},
		{`[{"name":"a","extra":"x"}]`, false},
		{`[{"name":"\u0061"}]`, false},
		{"[{\"name\":\"\xff\"}]", false},
		{`[{"name":"a"}]x`, false},
	} {
		got, ok := plainOwnerRefs([]byte(tc.text))
		if ok != tc.plain {
			t.Errorf("%s: taken %v, want %v", tc.text, ok, tc.plain)
		}
		if !ok {
			continue
		}
		var want []metav1.OwnerReference
		if err := jsonv2.Unmarshal([]byte(tc.text), &want, decodeOptions); err != nil {
			t.Fatalf("%s: json v2: %v", tc.text, err)
		}
		if !reflect.DeepEqual(got, want) || len(got) != cap(got) {
			t.Errorf("%s: %#v (cap %d), json v2 %#v", tc.text, got, cap(got), want)
		}
	}
}
