package read

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// parsedKind parses apiVersion and kind as Interpret (and the decoder of
// package load) parse them.
func parsedKind(apiVersion, kind string) (schema.GroupVersionKind, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return gv.WithKind(kind), nil
}

// genItems returns the raw items of a hack/gen-cluster List.
func genItems(tb testing.TB, nodes, pods int) []json.RawMessage {
	path := loadtest.GenCluster(tb, tb.TempDir(), nodes, pods)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(data, &list); err != nil {
		tb.Fatal(err)
	}
	return list.Items
}

// TestScanTypeMetaAgreesWithInterpret: wherever the fast path answers, it
// answers what the API server's serializer (SimpleMetaFactory.Interpret)
// does; where that would need care, it declines.
func TestScanTypeMetaAgreesWithInterpret(t *testing.T) {
	tests := []struct {
		in       string
		declines bool
	}{
		{in: `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","kind":"x"}}`},
		{in: `{"apiVersion":"apps/v1","kind":"Deployment","spec":{"a":[1,2,{"b":"]"}],"c":"\"}"}}`},
		{in: ` { "KIND" : "Pod" , "ApiVersion":"v1" } `},
		{in: `{"kind":"Pod","kind2":"x","Kind":"Node","apiVersion":"v1"}`},
		{in: `{"metadata":{},"spec":null,"n":-1.5e3,"t":true,"kind":"Pod","apiVersion":"v1"}`},
		{in: `{}`},
		{in: `{"apiVersion":"v1"}`},
		{in: `{"a":1}`},
		{in: `{"kind":"Pod","apiVersion":"a/b/c"}`, declines: false},
		{in: `{"kind":null,"apiVersion":"v1"}`, declines: true},
		{in: `{"kind":1,"apiVersion":"v1"}`, declines: true},
		{in: `{"kind":"P\u006fd","apiVersion":"v1"}`, declines: true},
		{in: `{"\u006bind":"Pod","apiVersion":"v1"}`, declines: true},
		{in: "{\"\u212aind\":\"Pod\",\"apiVersion\":\"v1\"}", declines: true},
		{in: `{"kind":"Pod" "apiVersion":"v1"}`, declines: true},
		{in: `{"kind":"Pod","apiVersion":"v1"} x`, declines: true},
		{in: `{"kind":"Pod","apiVersion":"v1"`, declines: true},
		{in: `{"kind" "Pod"}`, declines: true},
	}
	for _, tc := range tests {
		checkCutTypeMeta(t, tc.in)
		apiVersion, kind, ok := ScanTypeMeta([]byte(tc.in))
		if ok == tc.declines {
			t.Errorf("%s: ok %v, want %v", tc.in, ok, !tc.declines)
			continue
		}
		if !ok {
			continue
		}
		want, err := kjson.DefaultMetaFactory.Interpret([]byte(tc.in))
		got, gotErr := parsedKind(apiVersion, kind)
		switch {
		case (err == nil) != (gotErr == nil):
			t.Errorf("%s: error %v, Interpret's %v", tc.in, gotErr, err)
		case err == nil && got != *want:
			t.Errorf("%s: %v, Interpret reads %v", tc.in, got, *want)
		}
	}
}

// checkCutTypeMeta cuts in as the reader cuts a List item and checks that
// where the keys the cutter noted (TypeMetaKeys) answer and Interpret reads
// the object, they agree with it. (Where Interpret fails, the decode fails
// too and the reader takes Interpret's way for the error.)
func checkCutTypeMeta(t *testing.T, in string) {
	t.Helper()
	s := newJSONScanner(strings.NewReader(in), 1<<20)
	raw, _, err := s.value(2)
	if err != nil {
		return
	}
	apiVersion, kind, ok := s.typeMeta.Read(bytes.TrimSpace(raw))
	if !ok {
		return
	}
	want, err := kjson.DefaultMetaFactory.Interpret(raw)
	if err != nil {
		return
	}
	if got, gotErr := parsedKind(apiVersion, kind); gotErr != nil || got != *want {
		t.Errorf("%q: the cutter's keys read %v %v, Interpret reads %v", in, got, gotErr, *want)
	}
}

// TestCutTypeMetaReadsAsScanTypeMeta: on every gen-cluster item the keys
// the cutter notes answer, and answer what ScanTypeMeta reads.
func TestCutTypeMetaReadsAsScanTypeMeta(t *testing.T) {
	items := genItems(t, 5, 200)
	for _, it := range items {
		s := newJSONScanner(bytes.NewReader(it), 1<<20)
		raw, _, err := s.value(2)
		if err != nil {
			t.Fatal(err)
		}
		apiVersion, kind, ok := s.typeMeta.Read(raw)
		wantVersion, wantKind, wantOK := ScanTypeMeta(raw)
		if !ok || !wantOK || apiVersion != wantVersion || kind != wantKind {
			t.Fatalf("cutter's keys: %q %q %v; ScanTypeMeta: %q %q %v\n%s", apiVersion, kind, ok, wantVersion, wantKind, wantOK, raw)
		}
	}
	if len(items) < 205 {
		t.Fatalf("%d items, want 205", len(items))
	}
}

// FuzzCutTypeMeta: whenever the cutter's keys answer, Interpret agrees.
func FuzzCutTypeMeta(f *testing.F) {
	f.Add(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}`)
	f.Add(`{"a":[1,{"b":"]"}],"Kind":"x","kind":"y","apiVersion":"g/v"}`)
	f.Add(`{"kind" : "Pod", "x":{"kind":"Node"}, "APIVERSION":"v1"}`)
	f.Fuzz(func(t *testing.T, in string) { checkCutTypeMeta(t, in) })
}

// FuzzScanTypeMeta: whenever the fast path answers, Interpret agrees.
func FuzzScanTypeMeta(f *testing.F) {
	f.Add(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}`)
	f.Add(`{"a":[1,{"b":"]"}],"Kind":"x","kind":"y","apiVersion":"g/v"}`)
	f.Fuzz(func(t *testing.T, in string) {
		apiVersion, kind, ok := ScanTypeMeta([]byte(in))
		if !ok {
			return
		}
		want, err := kjson.DefaultMetaFactory.Interpret([]byte(in))
		if err != nil {
			// The fast path does not validate what it skips; the
			// reader then takes Interpret's way for the error.
			return
		}
		got, gotErr := parsedKind(apiVersion, kind)
		if gotErr != nil || got != *want {
			t.Fatalf("%q: %v %v, Interpret reads %v", in, got, gotErr, *want)
		}
	})
}
