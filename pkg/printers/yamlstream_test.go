package printers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"k8s.io/apimachinery/pkg/runtime"
	cliprinters "k8s.io/cli-runtime/pkg/printers"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// yamlStrings are strings yamlString knows (plain, or double-quoted
// because go-yaml v2 would read them back as a boolean, null, integer or
// float) and strings it leaves to go-yaml (timestamps, leading indicators,
// blanks that fold past column 80, non-ASCII, escapes).
var yamlStrings = []string{
	"", "node-1", "kube-system/coredns-1", "d71aabe0-711e-4c08-865b-e2448ca866ea", "4f1c2a3b-0000-4c08-865b-e2448ca866ea",
	"y", "Y", "yes", "NO", "On", "off", "null", "Null", "true", "False", "yEs", "nul", "n0",
	"0", "007", "12", "1_000", "0x1F", "0o17", "0b101", "0b12", "1e5", "1E-3", "1.5", "1.", "1e999", "2e", "12345678-abcd",
	"2026-01-02", "2026-1-2", "1234-x", "10.0.0.1/TCP/80", "1.2.3", "us-east-1/us-east-1a", "a_b", "a.b",
	"-", "-1", ".5", ".inf", "_x", "/x", "~",
	"registry.k8s.io/pause:3.10.1", "repo/img@sha256:0a1b2c", "a:b", "a:", "a::b", "1:20", "190:20:30", "1a:b", "v1.0+b", "+1", "a+b", "@a", ":a",
	"a b", "a: b", "#c", "é漢字", "tab\tnl\n\"q\"\\", "bad\xffutf8", "\u2028", "a<b>&c",
	strings.Repeat("word ", 30), strings.Repeat("x", 200),
	"1e3", "0.", "1_2_3", "-0", ".NaN", "-.Inf", "2026-11-29T13:12:02Z", "Yes please", "multi\nline\n", " lead", "trail ",
	"{}", "[]", "&a", "*a", "!t", "%x", "`x", "'q'", "a#b", "a #b", "? x", "- x", "😀",
}

// yamlKeys are map keys whose order tells go-yaml's sort from a byte sort:
// numbers by value, letters after other characters, leading zeros.
var yamlKeys = []string{
	"a", "a9", "a10", "a09", "a0", "a00", "a1b", "a01b", "X", "x_y", "xY", "x-y", "x.y", "x/y",
	"hugepages-2Mi", "hugepages-1Gi", "hugepages-10Mi", "nvidia.com/gpu", "example.com/foo", "n1", "n01", "n010", "n10",
	"10", "9", "y", "null", "a b", "é", "a:b", "a:",
}

// TestYAMLEmitterMatchesGoYAML checks yamlEmitter byte for byte against
// sigs.k8s.io/yaml on random documents: maps with keys from yamlKeys,
// values from yamlStrings, integers at the int64 limits, booleans, null,
// nested maps and lists (a list in a list too). It also checks that the
// emitter writes the documents it should (plain strings only): a test whose
// every document went to go-yaml instead would prove nothing.
func TestYAMLEmitterMatchesGoYAML(t *testing.T) {
	var e yamlEmitter
	written := 0
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 11))
		plainOnly := seed%2 == 0
		doc := randomYAMLValue(r, 0, plainOnly)
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := yamlItemSlow("items", doc)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if !e.item(&got, js) {
			if plainOnly && !hasListInList(doc) && allTransitive(doc) {
				t.Fatalf("seed %d: the emitter gave up on %s", seed, js)
			}
			continue
		}
		written++
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("seed %d: %s\ngot:\n%s\nwant (sigs.k8s.io/yaml):\n%s", seed, js, got.Bytes(), want)
		}
	}
	if written < 1000 {
		t.Fatalf("the emitter wrote %d of 3000 documents itself; want at least 1000", written)
	}
}

func randomYAMLValue(r *rand.Rand, depth int, plainOnly bool) any {
	pick := func(list []string) string {
		for {
			s := list[r.IntN(len(list))]
			if _, ok := yamlString(s); ok || !plainOnly {
				return s
			}
		}
	}
	n := r.IntN(10)
	if depth == 0 {
		n = 8 // an element is an object
	}
	switch {
	case depth < 4 && n >= 8:
		m := map[string]any{}
		for range r.IntN(6) {
			m[pick(yamlKeys)] = randomYAMLValue(r, depth+1, plainOnly)
		}
		return m
	case depth < 4 && n == 7:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomYAMLValue(r, depth+1, plainOnly)
		}
		return l
	case n == 6:
		return []int64{-1 << 63, 1<<63 - 1, 0, -7, 1e17, 15401910272}[r.IntN(6)]
	case n == 5:
		return r.IntN(2) == 0
	case n == 4:
		return nil
	default:
		return pick(yamlStrings)
	}
}

// allTransitive reports whether the keys of every map in v are ordered
// consistently by yamlKeyLess.
func allTransitive(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		var keys []string
		for k, x := range v {
			keys = append(keys, k)
			if !allTransitive(x) {
				return false
			}
		}
		return transitive(keys)
	case []any:
		for _, x := range v {
			if !allTransitive(x) {
				return false
			}
		}
	}
	return true
}

func hasListInList(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if hasListInList(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if _, ok := x.([]any); ok || hasListInList(x) {
				return true
			}
		}
	}
	return false
}

// TestYAMLStringMatchesGoYAML checks yamlString's verdict on every string
// of yamlStrings (and a few more) against go-yaml's own: a plain string is
// written as itself, a quoted one between double quotes.
func TestYAMLStringMatchesGoYAML(t *testing.T) {
	extra := []string{"0x", "0xG", "1__2", "1_", "0777", "08", "1e+5", "1e-", "9223372036854775808", "18446744073709551616", "3.14e", "YES", "Off", "OFF"}
	for _, s := range append(copyStrings(yamlStrings), extra...) {
		plain, ok := yamlString(s)
		if !ok {
			continue
		}
		want, err := yaml.Marshal(map[string]string{"k": s})
		if err != nil {
			t.Fatal(err)
		}
		got := "k: " + s + "\n"
		if !plain {
			got = "k: \"" + s + "\"\n"
		}
		if got != string(want) {
			t.Errorf("%q: yamlString gives %q, go-yaml %q", s, got, want)
		}
	}
}

func copyStrings(s []string) []string { return append([]string(nil), s...) }

// TestYAMLKeyLessMatchesGoYAML sorts random sets of the ASCII yamlKeys
// with yamlKeyLess and checks the order against go-yaml's for the same map,
// for the sets where the comparison is transitive (go-yaml's order of the
// others depends on the map's iteration order).
func TestYAMLKeyLessMatchesGoYAML(t *testing.T) {
	var ascii []string
	for _, k := range yamlKeys {
		if _, ok := yamlString(k); ok {
			ascii = append(ascii, k)
		}
	}
	compared := 0
	for seed := range uint64(500) {
		r := rand.New(rand.NewPCG(seed, 3))
		m := map[string]int{}
		for range 2 + r.IntN(6) {
			m[ascii[r.IntN(len(ascii))]] = 0
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sortKeys(keys)
		if !transitive(keys) {
			continue
		}
		compared++
		var want strings.Builder
		for _, k := range keys {
			if plain, _ := yamlString(k); !plain {
				k = `"` + k + `"`
			}
			fmt.Fprintf(&want, "%s: 0\n", k)
		}
		got, err := yaml.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want.String() {
			t.Fatalf("go-yaml's order:\n%s\nyamlKeyLess's:\n%s", got, want.String())
		}
	}
	if compared < 200 {
		t.Fatalf("compared %d sets of keys; want at least 200", compared)
	}
}

// transitive reports whether every triple of keys is ordered consistently
// by yamlKeyLess.
func transitive(keys []string) bool {
	for _, a := range keys {
		for _, b := range keys {
			for _, c := range keys {
				if yamlKeyLess(a, b) && yamlKeyLess(b, c) && !yamlKeyLess(a, c) {
					return false
				}
			}
		}
	}
	return true
}

func sortKeys(keys []string) {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && yamlKeyLess(keys[j], keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// TestStreamYAMLMatchesYAMLPrinter checks StreamYAML byte for byte against
// cli-runtime's YAMLPrinter (what -o yaml printed before it) on every
// output kind filled at random, with plain strings (written by the
// emitter) and the others (written by go-yaml), lists on both sides of a
// chunk boundary.
func TestStreamYAMLMatchesYAMLPrinter(t *testing.T) {
	for kind, newObj := range outputKinds() {
		t.Run(kind, func(t *testing.T) {
			for seed := range uint64(40) {
				r := rand.New(rand.NewPCG(seed, 7))
				obj := newObj()
				f := &filler{r: r, long: []int{0, 1, 2, jsonChunk - 1, jsonChunk, jsonChunk + 1, 3*jsonChunk + 5}[seed%7]}
				if seed%2 == 0 {
					f.strings = yamlStrings
				}
				f.fill(reflect.ValueOf(obj).Elem(), 0)
				v1alpha1.SetKind(obj, kind)
				assertSameYAML(t, obj)
			}
		})
	}
}

func assertSameYAML(t *testing.T, obj runtime.Object) {
	t.Helper()
	var want, got bytes.Buffer
	if err := (&cliprinters.YAMLPrinter{}).PrintObj(obj, &want); err != nil {
		t.Fatal(err)
	}
	if err := StreamYAML(&got, obj, (&cliprinters.YAMLPrinter{}).PrintObj); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%T: StreamYAML differs from YAMLPrinter at byte %d:\ngot  %q\nwant %q", obj, firstDiff(got.Bytes(), want.Bytes()), clip(got.Bytes(), want.Bytes()), clip(want.Bytes(), got.Bytes()))
	}
}

// TestStreamYAMLErrors checks that print's errors (a kind without
// apiVersion) and write errors come back.
func TestStreamYAMLErrors(t *testing.T) {
	p := &cliprinters.YAMLPrinter{}
	noKind := &v1alpha1.NodeOrder{Order: make([]v1alpha1.NodeSlot, 3)}
	if err := StreamYAML(&bytes.Buffer{}, noKind, p.PrintObj); err == nil || !strings.Contains(err.Error(), "missing apiVersion or kind") {
		t.Fatalf("StreamYAML of an object without kind: %v, want YAMLPrinter's error", err)
	}
	obj := &v1alpha1.NodeOrder{Order: make([]v1alpha1.NodeSlot, 20*jsonChunk)}
	for i := range obj.Order {
		obj.Order[i].Node = strings.Repeat("n", 4096)
	}
	v1alpha1.SetKind(obj, "NodeOrder")
	w := &failingWriter{after: 1 << 20}
	if err := StreamYAML(w, obj, (&cliprinters.YAMLPrinter{}).PrintObj); !errors.Is(err, errDiskFull) {
		t.Fatalf("StreamYAML to a failing writer: %v, want %v", err, errDiskFull)
	}
	if w.calls != w.failedAt {
		t.Fatalf("StreamYAML wrote %d more times after a failed write", w.calls-w.failedAt)
	}
}

// TestStreamYAMLEmitsDumpNodes checks that a dump's nodes, as the
// commands print them (names, zones, UIDs, images, ports, claims,
// hugepages), take the emitter's path in StreamYAML, not go-yaml's: both
// give the same bytes, so only this test would see the fast path lost.
func TestStreamYAMLEmitsDumpNodes(t *testing.T) {
	d := benchDump(3)
	n := &d.Nodes[1]
	n.ImageStates = []v1alpha1.ImageState{{Name: "registry.k8s.io/pause:3.10.1", Size: 321, NumNodes: 5000}, {Name: "repo/img@sha256:0a1b2c", Size: 1, NumNodes: 1}}
	n.UsedPorts, n.PVCRefCounts = []string{"0.0.0.0/TCP/9100"}, map[string]int{"ads-00/backend-00043-shared": 2}
	n.Allocatable.ScalarResources = map[string]int64{"hugepages-1Gi": 0, "hugepages-2Mi": 0, "nvidia.com/gpu": 8}
	n.Pods[0].PVCs = []string{"ads-00/backend-00043-shared"}
	opts := jsonv1.DefaultOptionsV1()
	var e yamlEmitter
	var out, js bytes.Buffer
	for i := range d.Nodes {
		out.Reset()
		emitted, err := yamlElement(&out, &e, &js, "nodes", &d.Nodes[i], opts)
		if err != nil {
			t.Fatal(err)
		}
		if !emitted {
			t.Errorf("node %d went to go-yaml: %s", i, js.Bytes())
		}
		want, err := yamlItemSlow("nodes", &d.Nodes[i])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("node %d:\ngot:\n%s\nwant:\n%s", i, out.Bytes(), want)
		}
	}
}
