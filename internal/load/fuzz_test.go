package load

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

// fuzzLimits keeps each fuzzed read small: the limits are exercised, not
// the machine.
var fuzzLimits = Limits{MaxDocumentBytes: 64 << 10}

// FuzzReadFiles feeds arbitrary bytes to the reader (as stdin, so that the
// bytes alone choose JSON, YAML or neither) and checks what must hold for
// any input: no panic, no hang; a failure is an *Error of Kind
// InvalidInput whose message is one line without control characters; a
// success has nodes or pods, every pod with a namespace and a UID; and the
// same bytes read twice give the same result. `make fuzz` runs it for a
// fixed time; the seeds are the hostile shapes of the hostile-input suite,
// small.
func FuzzReadFiles(f *testing.F) {
	for _, seed := range []string{
		testPod,
		`{"kind": "List", "apiVersion": "v1", "items": [` + testPod + `, {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}]}`,
		`{"kind": "PodList", "apiVersion": "v1", "items": [{"metadata": {"name": "p"}}]}`,
		`{"apiVersion": "v1", "items": [{"metadata": {"name": "p"}}], "kind": "PodList"}`,
		`[` + testPod + `]`,
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\nmetadata: {}\n",
		"kind: PodList\napiVersion: v1\nitems:\n  - metadata:\n      name: p\n  # c\n  - metadata: {name: q}\n",
		"- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n---\n" + testPod + "\n",
		`{"kind": "List", "items": [` + testPod + `], "items": []}`,
		"kind: List\nitems:\n- " + testPod + "\nitems: []\n",
		`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "name": "q"}}`,
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
		`{"a":` + strings.Repeat(`{"a":`, 100) + strings.Repeat("}", 101),
		"a: " + strings.Repeat("[", 200),
		"\x00\x01\x02\xff",
		"\xff\xfek\x00i\x00n\x00d\x00",
		strings.Repeat(" ", 1000) + "\n\n",
		"--- x\n",
		"---\n---\n\n---\n",
		`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "\u001b]52;c;aGk=\u0007\n\u009b31m"}, "spec": 5}`,
		"kind: Pod\nmetadata: {name: \"\\e[31m\\n\"}\nspec: 5\n",
		`{"apiVersion": "v2", "kind": "Pod", "metadata": {"name": "p"}}`,
		`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "status": {"phase": "Failed"}}`,
		`{"items": [1, "x", null, true]}`,
		`"just a string"`,
		"# Title\n\nSome: text: here\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first, err1 := readFuzz(data)
		second, err2 := readFuzz(data)
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() || first != second {
			t.Fatalf("two reads differ: %q, %v / %q, %v", first, err1, second, err2)
		}
	})
}

// readFuzz reads data and checks the invariants; it returns a summary of
// what was read.
func readFuzz(data []byte) (string, error) {
	var warnings bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: bytes.NewReader(data), Objects: true, Limits: fuzzLimits}, &warnings)
	for _, line := range strings.Split(strings.TrimSuffix(warnings.String(), "\n"), "\n") {
		if strings.IndexFunc(line, unicode.IsControl) >= 0 {
			panic("a control character in the warning " + line)
		}
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Kind != InvalidInput {
			panic("not an InvalidInput *Error: " + err.Error())
		}
		if strings.IndexFunc(err.Error(), unicode.IsControl) >= 0 {
			panic("a control character or a line break in the error " + err.Error())
		}
		return "", err
	}
	if len(c.Nodes) == 0 && len(c.Pods) == 0 {
		panic("success without nodes or pods")
	}
	var b strings.Builder
	for _, n := range c.Nodes {
		b.WriteString("node " + n.Name + "\n")
	}
	for _, p := range c.Pods {
		if p.Namespace == "" || p.UID == "" {
			panic("a pod without namespace or UID: " + p.Name)
		}
		b.WriteString("pod " + p.Namespace + "/" + p.Name + "\n")
	}
	return b.String() + warnings.String(), nil
}

// FuzzCommonPod feeds arbitrary bytes to the pod decoder's walk over its
// own scanner (decodeCommon) and checks it against the usual decode and
// the jsontext walk it replaced (scanCheck): a pod it takes is one both
// take, decoded the same; and the scanner takes a value exactly when
// jsontext does (checkScanValue). Seeded with pods that have every member it
// walks, escapes, numbers and nesting in the values it skips, and
// small-shape pods.
func FuzzCommonPod(f *testing.F) {
	f.Add([]byte(commonTestPod))
	f.Add([]byte(`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":{"a\u0041":"\"\\\/\b\f\n\r\t\ud800"}},` +
		`"status":{"conditions":[{"type":"Ready","n":[-1.5e+3,0,1E-2,-0.0,12],"o":{"t":true,"f":false,"z":null}}]}}`))
	f.Add([]byte("{ \"kind\" : \"Pod\" ,\n \"spec\" : { \"containers\" : [ { \"name\" : \"a\" } , { } ] } }"))
	for _, it := range benchItemsShape(f, 2, 10, gencluster.ShapeSmall)[2:5] {
		f.Add(it.raw)
	}
	c := newScanCheck()
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanValue(t, data)
		c.check(t, data)
	})
}
