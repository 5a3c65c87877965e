package printers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	cliprinters "k8s.io/cli-runtime/pkg/printers"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// outputKinds are the kinds the commands print with -o json.
func outputKinds() map[string]func() runtime.Object {
	return map[string]func() runtime.Object{
		"CacheDump":        func() runtime.Object { return &v1alpha1.CacheDump{} },
		"RequestedReport":  func() runtime.Object { return &v1alpha1.RequestedReport{} },
		"NodeOrder":        func() runtime.Object { return &v1alpha1.NodeOrder{} },
		"Snapshot":         func() runtime.Object { return &v1alpha1.Snapshot{} },
		"Simulation":       func() runtime.Object { return &v1alpha1.Simulation{} },
		"CacheComparison":  func() runtime.Object { return &v1alpha1.CacheComparison{} },
		"CacheDiff":        func() runtime.Object { return &v1alpha1.CacheDiff{} },
		"SchedulingReport": func() runtime.Object { return &v1alpha1.SchedulingReport{} },
	}
}

// TestStreamJSONMatchesJSONPrinter checks StreamJSON byte for byte against
// cli-runtime's JSONPrinter (what -o json printed before it) on every
// output kind filled at random: strings that encoding/json escapes (HTML
// characters, U+2028, control characters, invalid UTF-8), empty and nil
// lists, and lists whose lengths fall on both sides of a chunk boundary.
func TestStreamJSONMatchesJSONPrinter(t *testing.T) {
	for kind, newObj := range outputKinds() {
		t.Run(kind, func(t *testing.T) {
			for seed := range uint64(60) {
				r := rand.New(rand.NewPCG(seed, 7))
				obj := newObj()
				f := &filler{r: r, long: []int{0, 1, 2, jsonChunk - 1, jsonChunk, jsonChunk + 1, 3*jsonChunk + 5}[seed%7]}
				f.fill(reflect.ValueOf(obj).Elem(), 0)
				v1alpha1.SetKind(obj, kind)
				assertSameJSON(t, obj)
			}
		})
	}
}

func assertSameJSON(t *testing.T, obj runtime.Object) {
	t.Helper()
	var want, got bytes.Buffer
	p := &cliprinters.JSONPrinter{}
	if err := p.PrintObj(obj, &want); err != nil {
		t.Fatal(err)
	}
	if err := StreamJSON(&got, obj, p.PrintObj); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%T: StreamJSON differs from JSONPrinter at byte %d:\ngot  %q\nwant %q", obj, firstDiff(got.Bytes(), want.Bytes()), clip(got.Bytes(), want.Bytes()), clip(want.Bytes(), got.Bytes()))
	}
}

func firstDiff(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func clip(a, b []byte) []byte {
	i := firstDiff(a, b)
	return a[max(0, i-80):min(len(a), i+80)]
}

// TestStreamJSONSplitsTheLongestList checks which list is streamed: the
// longest that is always written (no omitempty), and none without one.
func TestStreamJSONSplitsTheLongestList(t *testing.T) {
	d := &v1alpha1.CacheDiff{AddedNodes: []string{"a", "b"}, RemovedNodes: []string{"c", "d", "e"}, Nodes: []v1alpha1.NodeDiff{{}}}
	_, key, items, ok := splitLongestList(d)
	if !ok || key != "removedNodes" || items.Len() != 3 {
		t.Fatalf("split CacheDiff: key %s, %d items, ok %v; want \"removedNodes\", 3, true", key, items.Len(), ok)
	}
	// Lists is omitempty: a non-empty one is written, and split when it
	// is the longest; an empty one is not written at all.
	d = &v1alpha1.CacheDiff{Lists: []v1alpha1.ListChange{{}, {}}}
	if _, key, items, ok := splitLongestList(d); !ok || key != "lists" || items.Len() != 2 {
		t.Fatalf("split CacheDiff: key %s, ok %v; want lists, true", key, ok)
	}
	v1alpha1.SetKind(d, "CacheDiff")
	assertSameJSON(t, d)
	d = &v1alpha1.CacheDiff{}
	if _, key, _, ok := splitLongestList(d); ok {
		t.Fatalf("split %s of a CacheDiff whose lists are all empty", key)
	}
}

// TestStreamJSONErrors checks that print's errors (a kind without
// apiVersion) and write errors come back, and that nothing follows a
// failed write.
func TestStreamJSONErrors(t *testing.T) {
	p := &cliprinters.JSONPrinter{}
	noKind := &v1alpha1.NodeOrder{Order: make([]v1alpha1.NodeSlot, 3)}
	if err := StreamJSON(io.Discard, noKind, p.PrintObj); err == nil || !strings.Contains(err.Error(), "missing apiVersion or kind") {
		t.Fatalf("StreamJSON of an object without kind: %v, want JSONPrinter's error", err)
	}
	obj := &v1alpha1.NodeOrder{Order: make([]v1alpha1.NodeSlot, 20*jsonChunk)}
	for i := range obj.Order {
		obj.Order[i].Node = strings.Repeat("n", 4096)
	}
	v1alpha1.SetKind(obj, "NodeOrder")
	w := &failingWriter{after: 1 << 20}
	err := StreamJSON(w, obj, p.PrintObj)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("StreamJSON to a failing writer: %v, want %v", err, errDiskFull)
	}
	if w.calls != w.failedAt {
		t.Fatalf("StreamJSON wrote %d more times after a failed write", w.calls-w.failedAt)
	}
}

var errDiskFull = errors.New("no space left on device")

type failingWriter struct {
	after, written  int
	calls, failedAt int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	if w.failedAt > 0 || w.written+len(p) > w.after {
		if w.failedAt == 0 {
			w.failedAt = w.calls
		}
		return 0, errDiskFull
	}
	w.written += len(p)
	return len(p), nil
}

// filler fills exported fields with random values. Types with unexported
// fields (metav1.Time, resource.Quantity) keep their zero values, which
// still go through their MarshalJSON.
type filler struct {
	r       *rand.Rand
	long    int      // length of the top-level lists
	strings []string // the strings to pick from (fillStrings when nil)
}

func (f *filler) pick() string {
	list := f.strings
	if list == nil {
		list = fillStrings
	}
	return list[f.r.IntN(len(list))]
}

var fillStrings = []string{"", "node-1", "a<b>&c", "\u2028\u2029", "tab\tnl\n\"q\"\\", "é漢字", "\x00\x1f", "bad\xffutf8", "kube-system/coredns-1", "\uFFFD", "\U0001F600", "\uFF5E"}

func (f *filler) fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.pick())
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(f.r.Int64N(1<<40) - 1<<39)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(f.r.Uint64N(1 << 16))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f.r.Float64() * 1e6)
	case reflect.Pointer:
		if depth < 6 && f.r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem(), depth+1)
		}
	case reflect.Slice:
		f.fillSlice(v, depth)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || depth >= 6 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range f.r.IntN(3) {
			val := reflect.New(v.Type().Elem()).Elem()
			f.fill(val, depth+1)
			m.SetMapIndex(reflect.ValueOf(f.pick()).Convert(v.Type().Key()), val)
		}
		v.Set(m)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				return // metav1.Time, resource.Quantity: zero value
			}
		}
		for i := range t.NumField() {
			f.fill(v.Field(i), depth+1)
		}
	}
}

func (f *filler) fillSlice(v reflect.Value, depth int) {
	n := f.r.IntN(3)
	switch {
	case depth == 1:
		n = f.long
	case depth >= 6:
		n = 0
	}
	if n == 0 && f.r.IntN(2) == 0 {
		return // nil
	}
	s := reflect.MakeSlice(v.Type(), n, n)
	for i := range n {
		f.fill(s.Index(i), depth+1)
	}
	v.Set(s)
}

// ownJSONList is a list with a JSON form of its own, which StreamJSON must
// not split into elements.
type ownJSONList []string

func (l ownJSONList) MarshalJSON() ([]byte, error) {
	return []byte(`"` + fmt.Sprint(len(l)) + ` items"`), nil
}

type withOwnList struct {
	metav1.TypeMeta `json:",inline"`
	Items           ownJSONList `json:"items"`
}

func (w *withOwnList) DeepCopyObject() runtime.Object { c := *w; return &c }

// TestStreamJSONKeepsListsThatMarshalThemselves checks that a list type
// with its own MarshalJSON is printed by it, not element by element.
func TestStreamJSONKeepsListsThatMarshalThemselves(t *testing.T) {
	obj := &withOwnList{Items: ownJSONList{"a", "b"}}
	obj.SetGroupVersionKind(v1alpha1.SchemeGroupVersion.WithKind("Test"))
	if _, key, _, ok := splitLongestList(obj); ok {
		t.Fatalf("split %s, whose type has its own MarshalJSON", key)
	}
	assertSameJSON(t, obj)
}
