package load

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestNodeDecoderMatchesDecode: on every hack/gen-cluster node and on
// nodes with unusual image lists and condition times, the node decoder's
// node equals the plain decode's, field for field.
func TestNodeDecoderMatchesDecode(t *testing.T) {
	d := newNodeDecoder()
	check := func(data []byte) {
		t.Helper()
		plain, err := decodeTyped(data, nodeKind)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := d.decode(data)
		if err != nil {
			t.Fatalf("node decoder: %v\n%s", err, data)
		}
		if !reflect.DeepEqual(plain, fast) {
			t.Fatalf("decodes differently:\n%s\nplain %+v\nfast  %+v", data, plain, fast)
		}
	}
	for _, status := range []string{
		`{"images":null}`,
		`{"images":[]}`,
		`{"images":[{}]}`,
		`{"images":[{"names":null,"sizeBytes":5}]}`,
		`{"images":[{"names":[],"sizeBytes":0}]}`,
		`{"images":[{"names":["a","b"],"sizeBytes":1,"unknown":{"x":[1]}},{"sizeBytes":2,"names":["c"]}]}`,
		`{"images":[{"Names":["a"],"sizebytes":3}]}`, // names are case-sensitive: both ignored
		`{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":null,"lastTransitionTime":"2026-01-02T03:04:05+02:00"}]}`,
	} {
		check([]byte(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":` + status + `}`))
	}
	nodes := 0
	for _, it := range benchItems(t, 20, 600) {
		if it.gvk != nodeKind {
			continue
		}
		nodes++
		check(it.raw)
	}
	if nodes != 20 {
		t.Fatalf("%d nodes compared, want 20", nodes)
	}
}

// TestNodeDecoderSharesImages: two nodes listing an image the same way
// share its names; the node decoder allocates a node's image list at its
// length.
func TestNodeDecoderSharesImages(t *testing.T) {
	d := newNodeDecoder()
	decode := func(name string) *corev1.Node {
		obj, err := d.decode([]byte(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"` + name + `"},"status":{"images":[` +
			`{"names":["img@sha256:1","img:v1"],"sizeBytes":10},{"names":["other:v2"],"sizeBytes":20},{"names":["x:` + name + `"],"sizeBytes":30}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.Node)
	}
	a, b := decode("a"), decode("b")
	if &a.Status.Images[0].Names[0] != &b.Status.Images[0].Names[0] || &a.Status.Images[1].Names[0] != &b.Status.Images[1].Names[0] {
		t.Error("the nodes' equal images do not share their names")
	}
	if &a.Status.Images[2].Names[0] == &b.Status.Images[2].Names[0] || b.Status.Images[2].Names[0] != "x:b" {
		t.Errorf("different images shared: %v", b.Status.Images[2])
	}
	if cap(a.Status.Images) != 3 || cap(a.Status.Images[0].Names) != 2 {
		t.Errorf("capacities %d and %d, want 3 and 2", cap(a.Status.Images), cap(a.Status.Images[0].Names))
	}
}

// TestNodeDecoderRefusesWhatThePlainDecodeRefuses: a node the plain decode
// refuses fails with its error.
func TestNodeDecoderRefusesWhatThePlainDecodeRefuses(t *testing.T) {
	d := newNodeDecoder()
	for _, status := range []string{
		`{"images":"x"}`,
		`{"images":{}}`,
		`{"images":[{"names":"x"}]}`,
		`{"images":[{"names":[5]}]}`,
		`{"images":[{"sizeBytes":"5"}]}`,
		`{"images":[5]}`,
		`{"conditions":[{"lastHeartbeatTime":"yesterday"}]}`,
		`{"conditions":[{"lastTransitionTime":5}]}`,
		`{"capacity":{"cpu":"lots"}}`,
	} {
		data := []byte(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":` + status + `}`)
		_, want := decodeTyped(data, nodeKind)
		if want == nil {
			t.Fatalf("%s: the plain decode accepts it; the case tests nothing", status)
		}
		_, got := d.decode(data)
		if got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", status, got, want)
		}
	}
}
