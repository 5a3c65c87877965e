package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// exportedItems returns the items of testdata/exported.json (a `kubectl get
// nodes,pods -A -o json` List) as generic objects.
func exportedItems(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/exported.json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Items []map[string]any }
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustYAML(t *testing.T, v any) []byte {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// untypedList is a typed List (NodeList, PodList) of the items of kind,
// without its own kind, and with kind and apiVersion dropped from the items
// as the API server serves them.
func untypedList(items []map[string]any, kind string) map[string]any {
	var kept []any
	for _, item := range items {
		if item["kind"] == kind {
			c := map[string]any{}
			for k, v := range item {
				if k != "kind" && k != "apiVersion" {
					c[k] = v
				}
			}
			kept = append(kept, c)
		}
	}
	return map[string]any{"apiVersion": "v1", "items": kept}
}

// TestEveryShapeReadsTheSame writes the objects of a `kubectl get -o json`
// export in every shape the reader accepts and expects the same nodes and
// pods, in the same order, with the same notes, from each.
func TestEveryShapeReadsTheSame(t *testing.T) {
	dir := t.TempDir()
	items := exportedItems(t)
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
	yamlList := mustYAML(t, list)

	var jsonStream, yamlDocs bytes.Buffer
	for i, item := range items {
		jsonStream.Write(mustJSON(t, item))
		jsonStream.WriteByte('\n')
		if i > 0 {
			yamlDocs.WriteString("---\n")
		}
		yamlDocs.Write(mustYAML(t, item))
	}
	// The same List with its sequence indented under "items:" (as yq and
	// hand-written manifests indent it) and comments between the items.
	var indented bytes.Buffer
	inItems := false
	for _, line := range strings.SplitAfter(string(yamlList), "\n") {
		switch {
		case line == "items:\n":
			inItems = true
			indented.WriteString(line)
			continue
		case inItems && line != "" && line[0] != ' ' && line[0] != '-':
			inItems = false
		}
		if inItems {
			if strings.HasPrefix(line, "- ") {
				indented.WriteString("  # an item\n")
			}
			line = "  " + line
		}
		indented.WriteString(line)
	}
	nodes, pods := untypedList(items, "Node"), untypedList(items, "Pod")
	// JSON: kind first, as kubectl cluster-info dump writes it, or last, as
	// jq -S sorts keys; YAML: kind first, or last as sigs.k8s.io/yaml sorts.
	typedJSON := func(kindLast bool) []byte {
		var b bytes.Buffer
		for _, l := range []struct {
			kind  string
			items any
		}{{"NodeList", nodes["items"]}, {"PodList", pods["items"]}} {
			if kindLast {
				fmt.Fprintf(&b, `{"apiVersion":"v1","items":%s,"kind":%q}`+"\n", mustJSON(t, l.items), l.kind)
			} else {
				fmt.Fprintf(&b, `{"kind":%q,"apiVersion":"v1","items":%s}`+"\n", l.kind, mustJSON(t, l.items))
			}
		}
		return b.Bytes()
	}
	typedYAML := func(kindLast bool) []byte {
		if kindLast {
			return []byte(string(mustYAML(t, nodes)) + "kind: NodeList\n---\n" + string(mustYAML(t, pods)) + "kind: PodList\n")
		}
		return []byte("kind: NodeList\n" + string(mustYAML(t, nodes)) + "---\nkind: PodList\n" + string(mustYAML(t, pods)))
	}

	shapes := map[string][]byte{
		"JSON List (kubectl get -o json)":           mustJSON(t, list),
		"YAML List (kubectl get -o yaml)":           yamlList,
		"YAML List, indented sequence and comments": indented.Bytes(),
		"JSON stream":                            jsonStream.Bytes(),
		"YAML documents":                         yamlDocs.Bytes(),
		"bare JSON array (support bundle)":       mustJSON(t, items),
		"top-level YAML sequence":                mustYAML(t, items),
		"NodeList and PodList, untyped items":    typedJSON(false),
		"NodeList and PodList, kind after items": typedJSON(true),
		"YAML typed Lists, untyped items":        typedYAML(false),
		"YAML typed Lists, kind after items":     typedYAML(true),
		"YAML List in flow style (one document)": []byte("---\n" + string(mustJSON(t, list))),
	}
	want := readBytes(t, dir, "want.json", mustJSON(t, list))
	if len(want.cluster.Nodes) == 0 || len(want.cluster.Pods) == 0 {
		t.Fatal("the export has no nodes or pods: the test tests nothing")
	}
	for name, data := range shapes {
		t.Run(name, func(t *testing.T) {
			ext := ".json"
			if !json.Valid(bytes.TrimSpace(data)) {
				ext = ".yaml"
			}
			got := readBytes(t, dir, strings.NewReplacer(" ", "-", "(", "", ")", "", ",", "").Replace(name)+ext, data)
			if diff := cmp.Diff(want.cluster.Nodes, got.cluster.Nodes); diff != "" {
				t.Errorf("nodes (-List,+%s):\n%s", name, diff)
			}
			if diff := cmp.Diff(want.cluster.Pods, got.cluster.Pods); diff != "" {
				t.Errorf("pods (-List,+%s):\n%s", name, diff)
			}
			if want.warnings != got.warnings {
				t.Errorf("warnings:\n got %q\nwant %q", got.warnings, want.warnings)
			}
		})
	}
	t.Run("stdin", func(t *testing.T) {
		var w bytes.Buffer
		c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: bytes.NewReader(yamlList)}, &w)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.cluster.Pods, c.Pods); diff != "" {
			t.Errorf("pods (-file,+stdin):\n%s", diff)
		}
	})
}

type readResult struct {
	cluster  *Cluster
	warnings string
}

// readBytes writes data to dir/name and reads it with ReadFiles.
func readBytes(t *testing.T, dir, name string, data []byte) readResult {
	t.Helper()
	path := writeFile(t, dir, name, data)
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{path}}, &w)
	if err != nil {
		t.Fatalf("ReadFiles(%s): %v", name, err)
	}
	return readResult{c, w.String()}
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReadLarge reads gen-cluster's export as JSON and as YAML: the same
// objects, in order.
func TestReadLarge(t *testing.T) {
	dir := t.TempDir()
	path := loadtest.GenCluster(t, dir, 20, 600)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list any
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	fromJSON := readBytes(t, dir, "c.json", data)
	fromYAML := readBytes(t, dir, "c.yaml", mustYAML(t, list))
	if len(fromJSON.cluster.Pods) < 500 {
		t.Fatalf("%d pods", len(fromJSON.cluster.Pods))
	}
	if diff := cmp.Diff(fromJSON.cluster, fromYAML.cluster, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Source" }, cmp.Ignore())); diff != "" {
		t.Errorf("(-JSON,+YAML):\n%s", diff)
	}
}

const testPod = `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}`

// TestReadErrors checks that malformed input is an error naming the file,
// the document, the item and the object, in JSON and YAML.
func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, ext, input, wantErr string
	}{
		{"truncated List", ".json", `{"apiVersion": "v1", "kind": "List", "items": [` + testPod + `, {"kind": "Pod"`,
			`F: document 1: item 2: unexpected end of JSON input`},
		{"malformed second item", ".json", `{"items": [` + testPod + `, {"kind": "Pod",]}`,
			`F: document 1: item 2: json: offset 91: invalid character ']' looking for beginning of object key string`},
		{"malformed List field after the items", ".json", `{"items": [` + testPod + `], "kind": "List" "metadata": {}}`,
			`F: document 1: json: offset 92: invalid character '"' after object key:value pair`},
		{"field of the wrong type, named by item and object", ".json",
			`{"kind": "List", "apiVersion": "v1", "items": [` + testPod + `, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "q"}, "spec": {"containers": "x"}}]}`,
			`F: document 1: item 2: Pod "q": json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`},
		{"item without kind in a List", ".json", `{"kind": "List", "apiVersion": "v1", "items": [{"metadata": {"name": "p"}}]}`,
			`F: document 1: item 1: the object has no "kind"`},
		{"pod without a name", ".json", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {}}]}`,
			`F: document 1: item 1: Pod without metadata.name`},
		{"a document that is not an object", ".json", testPod + "\n[1]", `F: document 2: item 1: not an object but a number`},
		{"a key twice in a List", ".json", `{"items": [` + testPod + `], "kind": "List", "items": []}`, `F: document 1: duplicate key "items"`},
		{"a key twice in an item", ".json", `{"items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "name": "q"}}]}`,
			`F: document 1: item 1: duplicate key "name"`},
		{"a key twice deep in a document", ".json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "1", "b": {"c": 1, "a": 2}, "a": "3"}}}`,
			`F: document 1: duplicate key "a"`},
		{"the same key in sibling objects is fine", ".json", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {"a": "1"}}, "status": {"a": 1, "b": [{"a": 1}, {"a": 2}]}}, {"a": {"x": 1}, "b": {"x": 1}}]}`,
			`F: document 1: item 2: the object has no "kind"`},
		{"YAML: a key twice", ".yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\n",
			`F: document 1: line 4: duplicate key "metadata"`},
		{"YAML: items twice", ".yaml", "apiVersion: v1\nkind: List\nitems:\n- " + testPod + "\nitems: []\n",
			`F: document 1: line 5: duplicate key "items"`},
		{"YAML: items twice in block style", ".yaml", "kind: List\nitems:\n- " + testPod + "\nmetadata: {}\nitems:\n- " + testPod + "\n",
			`F: document 1: line 5: duplicate key "items"`},
		{"YAML: malformed item, named by its line in the file", ".yaml", "apiVersion: v1\nkind: List\nitems:\n- " + testPod + "\n- apiVersion: v1\n  kind: [Pod\n",
			`F: document 1: item 2: line 6: did not find expected ',' or ']'`},
		{"YAML: wrong type in an item", ".yaml", "kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: q}\n  spec: {containers: x}\n",
			`F: document 1: item 1: Pod "q": json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`},
		{"YAML: bad separator", ".yaml", "kind: Pod\n--- x\n", `F: document 1: line 2: invalid document separator "--- x"`},
		{"binary data named", ".json", "\x00\x01\x02", `F: binary data, not YAML or JSON`},
		{"YAML that is not objects, named", ".yaml", "- op: assume\n  pod: a/b\n", `F: document 1: item 1: the object has no "kind"`},
		{"control characters are escaped", ".json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x` + "\\u001b[31m\\u009b" + `"}, "spec": 5}`,
			`F: document 1: Pod "x\x1b[31m\u009b": json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec`},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, fmt.Sprintf("f%d%s", i, tc.ext), []byte(tc.input))
			_, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
			if err == nil {
				t.Fatalf("no error, want %q", tc.wantErr)
			}
			if want := strings.Replace(tc.wantErr, "F", path, 1); err.Error() != want {
				t.Errorf("error:\n got %q\nwant %q", err, want)
			}
			if k := KindOf(err); k != InvalidInput {
				t.Errorf("KindOf = %v, want InvalidInput", k)
			}
		})
	}
}

// TestDuplicateKeySameEverywhere feeds the same bytes, a List with "items"
// twice, through every way in: the same error each time.
func TestDuplicateKeySameEverywhere(t *testing.T) {
	data := []byte(`{"kind": "List", "items": [` + testPod + `], "items": [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}]}`)
	dir := t.TempDir()
	var errs []string
	for _, name := range []string{"a.json", "a.yaml", "a.yml", "noext"} {
		path := writeFile(t, dir, name, data)
		_, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
		errs = append(errs, strings.TrimPrefix(fmt.Sprint(err), path))
	}
	_, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: bytes.NewReader(data)}, nil)
	errs = append(errs, strings.TrimPrefix(fmt.Sprint(err), StdinSource))
	srv := serve(t, data)
	_, err = ReadFiles(FileOptions{Filenames: []string{srv + "/list"}}, nil)
	errs = append(errs, strings.TrimPrefix(fmt.Sprint(err), srv+"/list"))
	for _, e := range errs {
		if e != `: document 1: duplicate key "items"` {
			t.Errorf("errors differ by the way in: %q", errs)
			break
		}
	}
}

// TestReadStopsOnError checks that an error in an early item stops the
// reading, so that a bad item in a huge List fails fast (and the cutting
// goroutine does not outlive ReadFiles: -race and -count runs would see it).
func TestReadStopsOnError(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {}}`)
	for i := range 50 * batchSize {
		fmt.Fprintf(&b, `, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p%d"}}`, i)
	}
	b.WriteString(`]}`)
	read := countingReader{r: strings.NewReader(b.String()), n: new(atomic.Int64)}
	_, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: read}, nil)
	if err == nil || !strings.Contains(err.Error(), "item 1: Pod without metadata.name") {
		t.Fatalf("err = %v, want the first item's", err)
	}
	if read.n.Load() == int64(b.Len()) {
		t.Errorf("read all %d bytes after an error in the first item", read.n.Load())
	}
}

// serve serves data at every path of a local HTTP server and returns its URL.
func serve(t *testing.T, data []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(data) }))
	t.Cleanup(srv.Close)
	return srv.URL
}
