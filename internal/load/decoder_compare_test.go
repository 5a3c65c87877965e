package load

import (
	"encoding/json"
	"os"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"k8s.io/apimachinery/pkg/api/equality"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// decodeV2 is decodeTyped's first step alone: encoding/json v2.
func decodeV2(data []byte, gvk schema.GroupVersionKind) (kruntime.Object, error) {
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	return obj, jsonv2.Unmarshal(data, obj, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

type benchItem struct {
	raw []byte
	gvk schema.GroupVersionKind
}

func benchItems(tb testing.TB, nodes, pods int) []benchItem {
	return benchItemsShape(tb, nodes, pods, gencluster.ShapeDefault)
}

// benchItemsShape is benchItems of pods of shape.
func benchItemsShape(tb testing.TB, nodes, pods int, shape gencluster.Shape) []benchItem {
	path := loadtest.GenClusterShape(tb, tb.TempDir(), nodes, pods, shape)
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(data, &list); err != nil {
		tb.Fatal(err)
	}
	items := make([]benchItem, len(list.Items))
	for i, raw := range list.Items {
		gvk, err := kindOf(raw, nil)
		if err != nil {
			tb.Fatal(err)
		}
		items[i] = benchItem{raw: raw, gvk: gvk}
	}
	return items
}

// TestDecoderV2Equivalent: on hack/gen-cluster's objects, encoding/json v2
// decodes exactly what sigs.k8s.io/json (the API server's decoder) does.
func TestDecoderV2Equivalent(t *testing.T) {
	for _, it := range benchItems(t, 50, 1500) {
		a, err := decodeSigs(it.raw, it.gvk)
		if err != nil {
			t.Fatal(err)
		}
		b, err := decodeV2(it.raw, it.gvk)
		if err != nil {
			t.Fatalf("v2: %v\n%s", err, it.raw)
		}
		if !equality.Semantic.DeepEqual(a, b) {
			t.Fatalf("v2 decodes differently:\n%s", it.raw)
		}
	}
}

// BenchmarkDecoders decodes the same objects (hack/gen-cluster, 100 nodes
// and 3,000 pods) with each candidate decoder, in the same run.
func BenchmarkDecoders(b *testing.B) {
	items := benchItems(b, 100, 3000)
	var size int64
	for _, it := range items {
		size += int64(len(it.raw))
	}
	for _, d := range []struct {
		name   string
		decode decodeFunc
	}{{"sigs.k8s.io-json", decodeSigs}, {"go-json-experiment", decodeV2}} {
		b.Run(d.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, it := range items {
					if _, err := d.decode(it.raw, it.gvk); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestDecoderV2EdgeCases: the corners where encoding/json and v2 could
// differ; each input must decode to the same object with both, or fail
// with both.
func TestDecoderV2EdgeCases(t *testing.T) {
	pod := schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	for _, in := range []string{
		"{\"metadata\":{\"name\":\"a\xffb\"}}",
		`{"metadata":{"name":"a\ud800b"}}`,
		`{"metadata":{"name":"\u00e9\ud83d\ude00"}}`,
		`{"metadata":null,"spec":{"containers":null,"nodeSelector":null}}`,
		`{"Metadata":{"name":"x"},"metadata":{"Name":"y"}}`,
		`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":1,"memory":1.5e9,"x":"1"}}}]}}`,
		`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1x"}}}]}}`,
		`{"spec":{"priority":1.0}}`,
		`{"spec":{"priority":"1"}}`,
		`{"spec":{"priority":99999999999}}`,
		`{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z","deletionTimestamp":null}}`,
		`{"metadata":{"creationTimestamp":"yesterday"}}`,
		`{"spec":{"containers":[{"ports":[{"containerPort":80,"hostPort":"80"}]}]}}`,
		`{"spec":{"containers":{"name":"c"}}}`,
		`{"spec":{"overhead":{"cpu":null}}}`,
		`{"status":{"conditions":[{"type":"Ready","lastTransitionTime":null}]}}`,
		`{"unknown":{"deep":[1,2,{"x":null}]},"spec":{"unknownToo":true}}`,
		`{"metadata":{"labels":{"a":"1","b":null}}}`,
		`{"metadata":{"labels":{"a":1}}}`,
		`{"spec":{"hostNetwork":"true"}}`,
		`{"spec":{"terminationGracePeriodSeconds":-1}}`,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"annotations":{"k":"v\n\t\"q\""}}}`,
	} {
		a, errA := decodeSigs([]byte(in), pod)
		b, errB := decodeV2([]byte(in), pod)
		switch {
		case (errA == nil) != (errB == nil):
			t.Errorf("%s: sigs.k8s.io/json error %v, v2 error %v", in, errA, errB)
		case errA == nil && !equality.Semantic.DeepEqual(a, b):
			t.Errorf("%s: decoded differently:\n%+v\n%+v", in, a, b)
		}
	}
}
