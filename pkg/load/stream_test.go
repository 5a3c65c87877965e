package load

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/resource"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/pkg/load/loadtest"
)

// TestStreamMatchesBuilder reads JSON inputs through the stream and through
// cli-runtime's builder, and expects the same objects, in the same order,
// with the same notes and warnings.
func TestStreamMatchesBuilder(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string]string{
		"kubectl get -o json List":         "testdata/exported.json",
		"PodList, items without kind":      "testdata/podlist.json",
		"PodList, kind after the items":    kindAfterItems(t, dir, "testdata/podlist.json"),
		"JSON stream of other kinds":       yamlToJSONStream(t, dir, "testdata/kinds.yaml"),
		"JSON stream of hand-written pods": yamlToJSONStream(t, dir, "testdata/handwritten.yaml"),
		"gen-cluster 20 nodes, 600 pods":   loadtest.GenCluster(t, dir, 20, 600),
	}
	for name, path := range inputs {
		t.Run(name, func(t *testing.T) {
			if f := openJSONFile(path); f == nil {
				t.Fatalf("%s is not streamed", path)
			} else {
				f.Close()
			}
			streamed := newFileReader()
			if err := streamed.read(path, FileOptions{}); err != nil {
				t.Fatalf("stream: %v", err)
			}
			built := newFileReader()
			if err := built.build(resource.NewLocalBuilder().Unstructured().FilenameParam(false, &resource.FilenameOptions{Filenames: []string{path}})); err != nil {
				t.Fatalf("builder: %v", err)
			}
			compareReaders(t, built, streamed)
		})
	}
}

// TestStreamStdin streams JSON on stdin, named as stdin.
func TestStreamStdin(t *testing.T) {
	data, err := os.ReadFile("testdata/exported.json")
	if err != nil {
		t.Fatal(err)
	}
	streamed := newFileReader()
	if err := streamed.read("-", FileOptions{Stdin: bytes.NewReader(data)}); err != nil {
		t.Fatal(err)
	}
	if streamed.docs[StdinSource] != 1 {
		t.Errorf("documents of stdin = %d, want 1", streamed.docs[StdinSource])
	}
	built := newFileReader()
	if err := built.build(resource.NewLocalBuilder().Unstructured().Stream(bytes.NewReader(data), StdinSource)); err != nil {
		t.Fatal(err)
	}
	compareReaders(t, built, streamed)
}

func compareReaders(t *testing.T, want, got *fileReader) {
	t.Helper()
	if len(want.nodes)+len(want.pods) == 0 && len(want.skipped) == 0 {
		t.Fatal("the builder read nothing: the input tests nothing")
	}
	if diff := cmp.Diff(want.nodes, got.nodes); diff != "" {
		t.Errorf("nodes (-builder,+stream):\n%s", diff)
	}
	if diff := cmp.Diff(want.pods, got.pods); diff != "" {
		t.Errorf("pods (-builder,+stream):\n%s", diff)
	}
	var wantWarnings, gotWarnings bytes.Buffer
	want.warn(&wantWarnings)
	got.warn(&gotWarnings)
	if diff := cmp.Diff(wantWarnings.String(), gotWarnings.String()); diff != "" {
		t.Errorf("warnings (-builder,+stream):\n%s", diff)
	}
}

// kindAfterItems rewrites a List with its fields in alphabetical order, so
// that "kind" comes after "items", as in `kubectl get -o json` output.
func kindAfterItems(t *testing.T, dir, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list map[string]any
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(list) // map keys are sorted
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Index(out, []byte(`"items"`)) > bytes.Index(out, []byte(`"kind"`)) {
		t.Fatalf("kind still before items: %.80s", out)
	}
	return writeFile(t, dir, "kind-after-items.json", out)
}

// yamlToJSONStream writes the documents of a YAML file as a stream of JSON
// objects, one per line.
func yamlToJSONStream(t *testing.T, dir, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, doc := range strings.Split(string(data), "\n---") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if string(j) == "null" {
			continue // a document of comments only
		}
		out.Write(j)
		out.WriteByte('\n')
	}
	return writeFile(t, dir, filepath.Base(path)+".json", out.Bytes())
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStreamErrors(t *testing.T) {
	const pod = `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}`
	tests := []struct {
		name, input, wantErr string
	}{
		{
			name:    "truncated List",
			input:   `{"apiVersion": "v1", "kind": "List", "items": [` + pod + `, {"kind": "Pod"`,
			wantErr: `F: document 1: unexpected end of JSON input`,
		},
		{
			name:    "malformed second item",
			input:   `{"items": [` + pod + `, {"kind": "Pod",]}`,
			wantErr: `F: document 1: json: offset 91: invalid character ']' looking for beginning of object key string`,
		},
		{
			name:    "malformed List field after the items",
			input:   `{"items": [` + pod + `], "kind": "List" "metadata": {}}`,
			wantErr: `F: document 1: json: offset 92: invalid character '"' after object key:value pair`,
		},
		{
			name:    "field of the wrong type, named by item and object",
			input:   `{"kind": "List", "apiVersion": "v1", "items": [` + pod + `, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "q"}, "spec": {"containers": "x"}}]}`,
			wantErr: `F: document 1: item 2: Pod "q": json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
		},
		{
			name:    "item without kind in a List",
			input:   `{"kind": "List", "apiVersion": "v1", "items": [{"metadata": {"name": "p"}}]}`,
			wantErr: `F: document 1: item 1: the object has no "kind"`,
		},
		{
			name:    "pod without a name",
			input:   `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {}}]}`,
			wantErr: `F: document 1: item 1: Pod without metadata.name`,
		},
		{
			name:    "the same pod twice in a List",
			input:   `{"kind": "List", "items": [` + pod + `, ` + pod + `]}`,
			wantErr: `pod "default/p" appears twice: in F document 1 item 1 and in F document 1 item 2`,
		},
		{
			name:    "the same pod in two documents",
			input:   pod + "\n" + pod,
			wantErr: `pod "default/p" appears twice: in F document 1 and in F document 2`,
		},
		{
			name:    "a document that is not an object",
			input:   pod + "\n[1]",
			wantErr: `F: document 2: expected a JSON object, found [`,
		},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.Repeat("x", i+1)+".json", []byte(tc.input))
			_, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
			if err == nil {
				t.Fatalf("no error, want %q", tc.wantErr)
			}
			if want := strings.ReplaceAll(tc.wantErr, "F", path); err.Error() != want {
				t.Errorf("error:\n got %q\nwant %q", err, want)
			}
			if k := KindOf(err); k != InvalidInput {
				t.Errorf("KindOf = %v, want InvalidInput", k)
			}
		})
	}
}

// TestStreamStopsReadingOnError checks that an error in an early item stops
// the reader, so that a bad item in a huge List fails fast (and the reading
// goroutine does not outlive ReadFiles: the race detector and the -count
// runs would see it).
func TestStreamStopsReadingOnError(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", "metadata": {}}`)
	for i := range 50 * batchSize {
		b.WriteString(`, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p` + strings.Repeat("x", i%7) + `"}}`)
	}
	b.WriteString(`]}`)
	r := newFileReader()
	err := r.stream("big", strings.NewReader(b.String()))
	if err == nil || !strings.Contains(err.Error(), "item 1: Pod without metadata.name") {
		t.Fatalf("err = %v, want the first item's", err)
	}
	if len(r.pods) != 0 {
		t.Errorf("%d pods added after the error", len(r.pods))
	}
}
