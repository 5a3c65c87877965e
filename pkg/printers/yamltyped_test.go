package printers

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// typedDoc has a field of every shape yamlPlan writes, and the odd cases:
// keys go-yaml quotes ("yes", "1e3", "null", "n"), keys whose order differs
// from a byte sort (a9 before a10, capitals, "-" and "." before letters),
// omitempty on every kind (a struct too, which encoding/json never omits),
// nil and empty lists and maps, pointers (to itself too), a named string
// type, fields encoding/json skips, and a list in a list (which the plan
// leaves to the slow path when not empty).
type typedDoc struct {
	Name      string                `json:"name"`
	Yes       string                `json:"yes"`
	Exp       string                `json:"1e3"`
	Null      string                `json:"null,omitempty"`
	A9        int                   `json:"a9"`
	A10       int8                  `json:"a10"`
	Upper     bool                  `json:"Z"`
	Dash      string                `json:"x-y"`
	Dot       string                `json:"x.y,omitempty"`
	Flag      bool                  `json:"flag,omitempty"`
	N         int64                 `json:"n"`
	U         uint64                `json:"u,omitempty"`
	U8        uint8                 `json:"u8"`
	Ptr       *typedLeaf            `json:"ptr,omitempty"`
	PtrNull   *typedLeaf            `json:"ptrNull"`
	List      []string              `json:"list"`
	ListOmit  []string              `json:"listOmit,omitempty"`
	Leaves    []typedLeaf           `json:"leaves"`
	LeafPtrs  []*typedLeaf          `json:"leafPtrs,omitempty"`
	Map       map[string]int64      `json:"map"`
	MapOmit   map[string]string     `json:"mapOmit,omitempty"`
	Nested    map[string]*typedLeaf `json:"nested,omitempty"`
	Lists     [][]string            `json:"lists,omitempty"`
	Named     typedName             `json:"named"`
	Inner     typedLeaf             `json:"inner"`
	InnerOmit typedLeaf             `json:"innerOmit,omitempty"` // never omitted
	Nothing   struct{}              `json:"nothing"`
	Self      *typedDoc             `json:"self,omitempty"`
	NoTag     string
	Skipped   string `json:"-"`
	unwritten string
}

type typedLeaf struct {
	Key   string   `json:"key,omitempty"`
	Count int32    `json:"count,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type typedName string

// TestYAMLPlanMatchesGoYAML checks the typed writer byte for byte against
// sigs.k8s.io/yaml (the reference: encoding/json, go-yaml v2) on 3,000
// typedDocs filled at random, half with strings yamlString writes only.
// Those must all be written by the plan unless they hold a list in a list
// or map keys go-yaml orders non-transitively: a test whose every document
// went the slow way would prove nothing.
func TestYAMLPlanMatchesGoYAML(t *testing.T) {
	plan, ok := newYAMLPlan(reflect.TypeFor[typedDoc]())
	if !ok {
		t.Fatal("no plan for typedDoc")
	}
	var y yamlTyped
	written := 0
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 5))
		plainOnly := seed%2 == 0
		var doc typedDoc
		fillTyped(r, reflect.ValueOf(&doc).Elem(), 0, plainOnly)
		doc.unwritten = "never written: unexported"
		want, err := yamlItemSlow("items", &doc)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := y.item(nil, plan, reflect.ValueOf(&doc).Elem())
		if !ok {
			if plainOnly && !typedHasListInList(&doc) && typedKeysTransitive(&doc) {
				t.Fatalf("seed %d: the plan gave up on\n%s", seed, want)
			}
			continue
		}
		written++
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d:\ngot:\n%s\nwant (sigs.k8s.io/yaml):\n%s", seed, got, want)
		}
	}
	t.Logf("the plan wrote %d of 3000 documents", written)
	if written < 1000 {
		t.Fatalf("the plan wrote %d of 3000 documents; want at least 1000", written)
	}
}

// fillTyped fills v at random: strings from yamlStrings (those yamlString
// writes, with plainOnly), map keys from yamlKeys, integers at the limits
// of their kind, nil, empty and short lists and maps.
func fillTyped(r *rand.Rand, v reflect.Value, depth int, plainOnly bool) {
	pick := func(list []string) string {
		for {
			s := list[r.IntN(len(list))]
			if _, ok := yamlString(s); ok || !plainOnly {
				return s
			}
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(pick(yamlStrings))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		v.SetInt([]int64{0, -1, 7, -1 << (bits - 1), 1<<(bits-1) - 1, r.Int64() >> (65 - bits)}[r.IntN(6)])
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint([]uint64{0, 1, 1<<v.Type().Bits() - 1}[r.IntN(3)])
	case reflect.Pointer:
		if depth < 3 && r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fillTyped(r, v.Elem(), depth+1, plainOnly)
		}
	case reflect.Slice:
		if r.IntN(4) == 0 || depth >= 3 {
			return // nil
		}
		s := reflect.MakeSlice(v.Type(), r.IntN(3), 3)
		for i := range s.Len() {
			fillTyped(r, s.Index(i), depth+1, plainOnly)
		}
		v.Set(s)
	case reflect.Map:
		if r.IntN(4) == 0 || depth >= 3 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			val := reflect.New(v.Type().Elem()).Elem()
			fillTyped(r, val, depth+1, plainOnly)
			m.SetMapIndex(reflect.ValueOf(pick(yamlKeys)), val)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillTyped(r, v.Field(i), depth+1, plainOnly)
			}
		}
	}
}

func typedHasListInList(d *typedDoc) bool {
	for ; d != nil; d = d.Self {
		for _, l := range d.Lists {
			if len(l) > 0 {
				return true
			}
		}
	}
	return false
}

func typedKeysTransitive(d *typedDoc) bool {
	for ; d != nil; d = d.Self {
		for _, keys := range [][]string{mapKeys(d.Map), mapKeys(d.MapOmit), mapKeys(d.Nested)} {
			if !transitive(keys) {
				return false
			}
		}
	}
	return true
}

func mapKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// TestYAMLPlanRefuses checks the types the plan leaves to the slow path:
// those encoding/json does not write as plain fields (a JSON or text form
// of their own, floats, interfaces, []byte, embedded structs, options
// other than omitempty, two fields of one name) and field names go-yaml
// orders non-transitively.
func TestYAMLPlanRefuses(t *testing.T) {
	type embedded struct{ A string }
	for name, typ := range map[string]reflect.Type{
		"metav1.Time":  reflect.TypeFor[struct{ T metav1.Time }](),
		"*metav1.Time": reflect.TypeFor[struct{ T *metav1.Time }](),
		"float":        reflect.TypeFor[struct{ F float64 }](),
		"interface":    reflect.TypeFor[struct{ I any }](),
		"bytes":        reflect.TypeFor[struct{ B []byte }](),
		"array":        reflect.TypeFor[struct{ A [2]string }](),
		"embedded":     reflect.TypeFor[struct{ embedded }](),
		"string option": reflect.TypeFor[struct {
			N int `json:"n,string"`
		}](),
		"omitzero": reflect.TypeFor[struct {
			N int `json:"n,omitzero"`
		}](),
		// Built at run time: go vet rejects the tag repeated in source.
		"same name": reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"a"`},
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"a"`},
		}),
		"non-transitive keys": reflect.TypeFor[struct {
			A string `json:"a1b"`
			B string `json:"a9"`
			C string `json:"a10"`
		}](),
		"int keys": reflect.TypeFor[map[int]string](),
		"non-ASCII key": reflect.TypeFor[struct {
			A string `json:"é"`
		}](),
	} {
		if _, ok := newYAMLPlan(typ); ok {
			t.Errorf("%s: newYAMLPlan made a plan for %v", name, typ)
		}
	}
}

// TestYAMLPlanWritesLargeOutputs checks that the elements of the three
// large outputs (a dump's nodes, a snapshot's nodes, requested --pods'
// pods), as the commands fill them, are written by their plan and equal
// sigs.k8s.io/yaml's: both paths give the same bytes, so only this test
// would see the fast one lost.
func TestYAMLPlanWritesLargeOutputs(t *testing.T) {
	d := benchDump(3)
	n := &d.Nodes[1]
	n.ImageStates = []v1alpha1.ImageState{{Name: "registry.k8s.io/pause:3.10.1", Size: 321, NumNodes: 5000}, {Name: "repo/img@sha256:0a1b2c", Size: 1, NumNodes: 1}}
	n.UsedPorts, n.PVCRefCounts = []string{"0.0.0.0/TCP/9100"}, map[string]int{"ads-00/backend-00043-shared": 2, "ads-00/backend-00044-shared": 1}
	n.Allocatable.ScalarResources = map[string]int64{"hugepages-1Gi": 0, "hugepages-2Mi": 0, "nvidia.com/gpu": 8}
	n.Pods[0].PVCs = []string{"ads-00/backend-00043-shared"}
	limits := v1alpha1.Resource{MilliCPU: 500, Memory: 1 << 30}
	elements := []any{
		&d.Nodes[0], &d.Nodes[1],
		&v1alpha1.SnapshotNode{Name: "node-0001", Zone: "us-east-1/us-east-1a", Generation: 31, Pods: 30},
		&v1alpha1.PodRequested{Namespace: "ads-05", Name: "router-1", Node: "node-0001", Requested: limits, Limits: &limits},
		&v1alpha1.PodRequested{Namespace: "ads-05", Name: "router-2", Node: ""},
	}
	var y yamlTyped
	for i, el := range elements {
		v := reflect.ValueOf(el).Elem()
		plan, ok := newYAMLPlan(v.Type())
		if !ok {
			t.Fatalf("no plan for %v", v.Type())
		}
		got, ok := y.item(nil, plan, v)
		if !ok {
			t.Errorf("element %d (%T): the plan gave up", i, el)
			continue
		}
		want, err := yamlItemSlow("items", el)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("element %d (%T):\ngot:\n%s\nwant:\n%s", i, el, got, want)
		}
	}
}
