package load

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// decodeUsual decodes data the pod decoder's usual way, without
// decodeCommon.
func decodeUsual(t *testing.T, d *podDecoder, data []byte) *corev1.Pod {
	t.Helper()
	pod := &corev1.Pod{}
	if err := jsonv2.Unmarshal(data, pod, d.opts); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return pod
}

// commonTestPod has every member decodeCommon walks.
const commonTestPod = `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"n","uid":"u","generateName":"p-","resourceVersion":"7",
 "creationTimestamp":"2026-01-02T03:04:05Z","labels":{"a":"b"},"annotations":{"c":"d"},
 "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"x","controller":true}]},
 "spec":{"containers":[{"name":"a","image":"i","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},{"name":"b"}],
  "nodeName":"n1","schedulerName":"s","priorityClassName":"high","priority":1000,"nodeSelector":{"z":"a"},
  "tolerations":[{"key":"k","operator":"Exists"}]},
 "status":{"phase":"Pending","nominatedNodeName":"n2","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","lastTransitionTime":"2026-01-02T03:04:05Z"}]}}`

// TestCommonPodMatchesPodDecoder: on the pods of every hack/gen-cluster
// shape and on pods with what decodeCommon gives up on, the pod decoder
// decodes the same pod as its usual way (a struct decode with the same
// unmarshalers); decodeCommon decodes every small-shape pod itself.
func TestCommonPodMatchesPodDecoder(t *testing.T) {
	d := newPodDecoder()
	check := func(data []byte) (common bool) {
		t.Helper()
		want := decodeUsual(t, d, data)
		got, err := d.decode(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodes differently:\n%s\ngot  %+v\nwant %+v", data, got, want)
		}
		return d.decodeCommon(data, &corev1.Pod{})
	}
	for _, tc := range []struct {
		pod    string
		common bool
	}{
		{commonTestPod, true},
		{"\t\r\n " + commonTestPod + "\n ", true},
		// Values the walk skips, checked by the scanner and decoded by json
		// v2 from their text: escapes, numbers, nesting, invalid UTF-8.
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a\u0041":"\"\\\/\b\f\n\r\t\ud800"},"annotations":{"x":"y\u00e9"}},
 "spec":{"priority":-0,"tolerations":[{"key":"k","x":[1.5e3,-0.25E-2,0E+0,10,-7,[[{"y":{"z":[true,false,null]}}]]]}]}}`, true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"deletionGracePeriodSeconds":0},"spec":{"priority":-2147483648,"tolerations":[]},
 "status":{"conditions":[{"type":"Ready","status":"True","message":"{\"a\":[1,[2,{}]]}"}]}}`, true},
		{"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"labels\":{\"a\":\"b\xff\"},\"annotations\":{\"c\":\"\xe2\x82\"}}}", true},
		{"{ \"kind\" : \"Pod\" ,\n \"apiVersion\":\"v1\", \"spec\" : { \"containers\" : [ { \"name\" : \"a\" } , { } ] } }", true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"spec":{"containers":[]},"status":{}}`, true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","labels":null,"creationTimestamp":null,"deletionTimestamp":"2026-01-02T03:04:05Z","deletionGracePeriodSeconds":30},"spec":{"priority":null}}`, true},
		// What it gives up on: the pod is then decoded the usual way.
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p\u0041"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"n\u0061me":"p"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":null}}`, false},
		{"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\xff\"}}", false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","unknown":1}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"Name":"p"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":null}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[null]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","ports":[{"containerPort":80}]}]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","resources":{"claims":[{"name":"c"}]}}]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"hostNetwork":true}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","status":{"phase":"Running","podIP":"10.0.0.1"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","status":null}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"creationTimestamp":"2026-01-02T03:04:05\u005a"}}`, false},
		{"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"namespace\":\"\xc3\"}}", false},
		{`{"kind":"Pod","apiVersion":"v1","status":{"conditions":[{"type":"Ready","x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","status":{"conditions":[{"type":"Ready","x":` + strings.Repeat("[", 60) + strings.Repeat("]", 60) + `}]}}`, true},
	} {
		if common := check([]byte(tc.pod)); common != tc.common {
			t.Errorf("decodeCommon took it: %v, want %v\n%s", common, tc.common, tc.pod)
		}
	}
	for _, shape := range gencluster.Shapes {
		pods, common := 0, 0
		for _, it := range benchItemsShape(t, 20, 600, shape) {
			if it.gvk != podKind {
				continue
			}
			pods++
			if check(it.raw) && len(it.raw) <= maxCommonPod {
				common++ // and so decode takes it that way
			}
		}
		if pods != 600 || shape == gencluster.ShapeSmall && common != pods {
			t.Errorf("shape %q: %d of %d pods decoded by decodeCommon", shape, common, pods)
		}
		t.Logf("shape %q: %d of %d pods decoded by decodeCommon", shape, common, pods)
	}
}

// TestCommonPodRefusesWhatThePlainDecodeRefuses: a pod the usual way
// refuses is refused with the plain decode's error.
func TestCommonPodRefusesWhatThePlainDecodeRefuses(t *testing.T) {
	d := newPodDecoder()
	for _, pod := range []string{
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":5}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":[]}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":"high"}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":3000000000}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"lots"}}}]}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"creationTimestamp":"yesterday"}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":{}}}`,
		// What the scanner must refuse as jsontext does.
		"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"labels\":{\"a\":\"b\x01\"}}}",
		"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\x1f\"}}",
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a":"\x"}}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a":"\u00g0"}}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a":"b",}}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a" "b"}}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":01}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":1.}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":-}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":1e}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":nul}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"tolerations":[{"key":"k"}]]}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"tolerations":[{"key":"k"},]}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a"},]}}`,
		`{"kind":"Pod","apiVersion":"v1","status":{}}x`,
		`{"kind":"Pod","apiVersion":"v1","status":{}}}`,
		"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"status\":{}}\v",
		`{"kind":"Pod","apiVersion":"v1","status":{},}`,
		`{"kind":"Pod","apiVersion":"v1","status":{}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p`,
		"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"creationTimestamp\":\"2026-01-02T03:04:05\xff\"}}",
	} {
		_, want := decodeTyped([]byte(pod), podKind)
		if want == nil {
			t.Fatalf("%s: the plain decode accepts it; the case tests nothing", pod)
		}
		_, got := d.decode([]byte(pod))
		if got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", pod, got, want)
		}
	}
}

// BenchmarkPodDecoderSmall decodes hack/gen-cluster's small-shape pods
// (about 690 bytes each) the pod decoder's usual way (a struct decode),
// with decodeCommon's walk over json v2's tokens it replaced ("tokens")
// and with decodeCommon over its own scanner ("scan"), in the same run, in
// CPU time per pod (the process's, so the collector's share counts).
func BenchmarkPodDecoderSmall(b *testing.B) {
	var pods [][]byte
	for _, it := range benchItemsShape(b, 100, 3000, gencluster.ShapeSmall) {
		if it.gvk == podKind {
			pods = append(pods, it.raw)
		}
	}
	d := newPodDecoder()
	var reader tokenReader
	walkers := map[string]func([]byte) bool{
		"usual":  func(data []byte) bool { return jsonv2.Unmarshal(data, &corev1.Pod{}, d.opts) == nil },
		"tokens": func(data []byte) bool { return d.decodeCommonTokens(&reader, data, &corev1.Pod{}) },
		"scan":   func(data []byte) bool { return d.decodeCommon(data, &corev1.Pod{}) },
	}
	benchDecoders(b, pods, []string{"usual", "tokens", "scan"}, walkers, "pod")
}

// scanCheck decodes a text with decodeCommon's scanner, the usual way
// and the jsontext walk it replaced (podcommon_tokens_test.go), each with
// a pod decoder of its own, so that a value one way shared never stands
// in for another's.
type scanCheck struct {
	scan, usual, tokens *podDecoder
	reader              tokenReader
	// tokensOnly counts the texts the jsontext walk took and the scanner
	// gave up on (allowed: the usual decode then runs).
	tokensOnly int
}

func newScanCheck() *scanCheck {
	return &scanCheck{scan: newPodDecoder(), usual: newPodDecoder(), tokens: newPodDecoder()}
}

// check fails tb when decodeCommon takes data and the usual decode
// refuses it or decodes another pod, or the jsontext walk refuses it:
// the scanner is never more permissive than jsontext. It reports whether
// decodeCommon took data.
func (c *scanCheck) check(tb testing.TB, data []byte) bool {
	tb.Helper()
	got := &corev1.Pod{}
	scanned := c.scan.decodeCommon(data, got)
	tokens := c.tokens.decodeCommonTokens(&c.reader, data, &corev1.Pod{})
	if !scanned {
		if tokens {
			c.tokensOnly++
		}
		return false
	}
	want := &corev1.Pod{}
	if err := jsonv2.Unmarshal(data, want, c.usual.opts); err != nil {
		tb.Fatalf("decodeCommon takes what the usual decode refuses (%v):\n%q", err, data)
	}
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("decodes differently:\n%q\ngot  %+v\nwant %+v", data, got, want)
	}
	if !tokens {
		tb.Fatalf("decodeCommon takes what the jsontext walk refuses:\n%q", data)
	}
	return true
}

// checkScanValue fails tb unless the scanner takes data as one whole
// value exactly when jsontext does with decodeOptions: the scanner's own
// checks, which the walk rarely shows (the values it skips are decoded
// again by json v2, which has the last word on most). Nesting deeper than
// maxScanDepth the scanner refuses.
func checkScanValue(tb testing.TB, data []byte) {
	tb.Helper()
	s := &scanner{data: data}
	_, got := s.value()
	got = got && s.atEnd()
	want := jsontext.Value(data).IsValid(decodeOptions)
	deep := bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > maxScanDepth
	if got && !want || !got && want && !deep {
		tb.Fatalf("the scanner takes the value: %v, jsontext: %v\n%q", got, want, data)
	}
}

// mutationBytes are what TestCommonPodScannerOnMutations writes over or
// before each byte of a pod: JSON's punctuation and whitespace, what
// starts a literal or a number, an escape, control characters, DEL, and
// bytes of UTF-8 sequences (whole and broken).
var mutationBytes = []byte{'"', '\\', ',', ':', '{', '}', '[', ']', ' ', '\n', '0', '1', '-', '.', 'e', 'n', 'u', 'a', 0x01, 0x1f, 0x7f, 0xc3, 0xff}

// insertedBytes are those inserted before each byte: fewer, to keep the
// test in the fast loop.
var insertedBytes = []byte{'"', '\\', ',', '}', ' ', '0', 0x01, 0xff}

// TestCommonPodScannerOnMutations: every text made from a few pods by
// overwriting, inserting or deleting one byte, anywhere, is decoded by
// the pod decoder as the usual decode does (scanCheck), and is valid JSON
// to the scanner exactly when it is to jsontext (checkScanValue). The pods are the
// table's, indented as kubectl writes them, and small-shape pods.
func TestCommonPodScannerOnMutations(t *testing.T) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(commonTestPod), "", " "); err != nil {
		t.Fatal(err)
	}
	seeds := [][]byte{[]byte(commonTestPod), indented.Bytes(),
		[]byte(`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a":"\"\u00e9\ud800"}},"spec":{"priority":-10,"tolerations":[{"tolerationSeconds":0}]},
"status":{"conditions":[{"type":"Ready","n":[-1.5e+3,0,1E-2,-0.0,12],"o":{"t":true,"f":false,"z":null}}]}}`)}
	for _, it := range benchItemsShape(t, 5, 40, gencluster.ShapeSmall)[5:6] {
		seeds = append(seeds, it.raw)
	}
	c := newScanCheck()
	taken, texts := onMutations(t, seeds, false, func(data []byte) bool {
		checkScanValue(t, data)
		return c.check(t, data)
	})
	t.Logf("decodeCommon took %d of %d texts; %d taken by the jsontext walk only", taken, texts, c.tokensOnly)
}

// TestLastTextTellsTextsApart: a walk's memo gives the value of the text
// it holds only for that text, also one of the same length, and the
// shared value whichever way it was found.
func TestLastTextTellsTextsApart(t *testing.T) {
	var memo lastText[map[string]string]
	var shared byText[map[string]string]
	decode := func(text []byte) (map[string]string, error) {
		var m map[string]string
		return m, json.Unmarshal(text, &m)
	}
	first := map[string]map[string]string{}
	for _, text := range []string{`{"a":"1"}`, `{"a":"2"}`, `{"a":"2"}`, `{"a":"1"}`, `{"b":"1"}`} {
		var got map[string]string
		if !memo.byValue(&scanner{data: []byte(text)}, &shared, &got, decode) {
			t.Fatalf("%s: not decoded", text)
		}
		want, _ := decode([]byte(text))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v", text, got)
		}
		if m, ok := first[text]; ok && reflect.ValueOf(m).Pointer() != reflect.ValueOf(got).Pointer() {
			t.Errorf("%s: not the value shared for its text", text)
		}
		first[text] = got
	}
}

// eachMutation calls try with each text one edit away from seed: a byte
// deleted, a byte replaced by one of mutationBytes, one of insertedBytes
// inserted before a byte, and with prefixes every prefix of seed too.
func eachMutation(seed []byte, prefixes bool, try func([]byte)) {
	for i := range seed {
		try(append(seed[:i:i], seed[i+1:]...))
		if prefixes {
			try(seed[:i])
		}
		for _, b := range mutationBytes {
			mutated := bytes.Clone(seed)
			mutated[i] = b
			try(mutated)
		}
		for _, b := range insertedBytes {
			try(append(append(seed[:i:i], b), seed[i:]...))
		}
	}
}

// onMutations checks each seed and each text eachMutation makes of it with
// check, which reports whether the walk took the text. The walk must take
// every seed, and most of the texts: most edits change a byte of a name
// or a value, and a walk refusing everything would pass the checks.
func onMutations(t *testing.T, seeds [][]byte, prefixes bool, check func([]byte) bool) (taken, texts int) {
	t.Helper()
	for _, seed := range seeds {
		if !check(seed) {
			t.Fatalf("the walk gives up on the seed %s", seed)
		}
		eachMutation(seed, prefixes, func(data []byte) {
			texts++
			if check(data) {
				taken++
			}
		})
	}
	if taken < texts/5 {
		t.Errorf("the walk took %d of %d texts", taken, texts)
	}
	return taken, texts
}

// benchDecoders runs each decoder of names over texts as a sub-benchmark,
// reporting its CPU per text (cpu-ns/unit).
func benchDecoders(b *testing.B, texts [][]byte, names []string, decoders map[string]func([]byte) bool, unit string) {
	for _, name := range names {
		decode := decoders[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := loadtest.ProcessCPU()
			for b.Loop() {
				for _, text := range texts {
					if !decode(text) {
						b.Fatalf("%s\n", text)
					}
				}
			}
			cpu := loadtest.ProcessCPU() - start
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(texts)), "cpu-ns/"+unit)
		})
	}
}
