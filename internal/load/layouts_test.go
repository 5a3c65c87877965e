package load

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The layouts of the folders users collect, generated from small objects:
// `-f` reads them as they are, skipping what is not Kubernetes objects with
// one warning line per file.

func layoutNode(name string) map[string]any {
	return map[string]any{"metadata": map[string]any{"name": name}, "status": map[string]any{"allocatable": map[string]any{"cpu": "4"}}}
}

func layoutPod(ns, name, node string) map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": name, "namespace": ns, "uid": "uid-" + ns + "-" + name},
		"spec":     map[string]any{"nodeName": node, "containers": []any{map[string]any{"name": "c", "image": "i"}}},
	}
}

// typed gives obj the kind and apiVersion an exported item carries.
func typed(kind string, obj map[string]any) map[string]any {
	c := map[string]any{"kind": kind, "apiVersion": "v1"}
	for k, v := range obj {
		c[k] = v
	}
	return c
}

func typedList(kind string, items ...map[string]any) map[string]any {
	list := make([]any, len(items))
	for i, item := range items {
		list[i] = item
	}
	return map[string]any{"kind": kind, "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": "42"}, "items": list}
}

func jsonIndent(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type layoutCase struct {
	name         string
	filenames    []string
	recursive    bool
	wantNodes    []string
	wantPods     []string
	wantWarnings string
}

func checkLayout(t *testing.T, dir string, tc layoutCase) {
	t.Helper()
	t.Run(tc.name, func(t *testing.T) {
		var paths []string
		for _, f := range tc.filenames {
			paths = append(paths, filepath.Join(dir, f))
		}
		var w bytes.Buffer
		c, err := ReadFiles(FileOptions{Filenames: paths, Recursive: tc.recursive}, &w)
		if err != nil {
			t.Fatal(err)
		}
		nodes, pods := names(c)
		if diff := cmp.Diff(tc.wantNodes, nodes); diff != "" {
			t.Errorf("nodes (-want,+got):\n%s", diff)
		}
		if diff := cmp.Diff(tc.wantPods, pods); diff != "" {
			t.Errorf("pods (-want,+got):\n%s", diff)
		}
		if diff := cmp.Diff(strings.NewReplacer("D/", dir+"/", "D ", dir+" ").Replace(tc.wantWarnings), w.String()); diff != "" {
			t.Errorf("warnings (-want,+got):\n%s", diff)
		}
	})
}

// TestClusterInfoDumpLayout: `kubectl cluster-info dump --output-directory`
// writes typed Lists (items without kind) as nodes.json at the top and
// <namespace>/pods.json (and events, services…) below, with each pod's
// logs in <namespace>/<pod>/logs.txt.
func TestClusterInfoDumpLayout(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "nodes.json", jsonIndent(t, typedList("NodeList", layoutNode("n1"), layoutNode("n2"))))
	for _, ns := range []string{"default", "kube-system"} {
		writeFile(t, dir, ns+"/pods.json", jsonIndent(t, typedList("PodList", layoutPod(ns, "a", "n1"), layoutPod(ns, "b", "n2"))))
		writeFile(t, dir, ns+"/events.json", jsonIndent(t, typedList("EventList", map[string]any{"metadata": map[string]any{"name": "e"}})))
		writeFile(t, dir, ns+"/services.json", jsonIndent(t, typedList("ServiceList")))
		writeFile(t, dir, ns+"/a/logs.txt", []byte("==== START logs for container c of pod a ====\n"))
	}
	checkLayout(t, dir, layoutCase{
		name: "without -R: the nodes, and a note", filenames: []string{"."},
		wantNodes:    []string{"n1", "n2"},
		wantWarnings: "note: directory D has subdirectories with Kubernetes objects (e.g. D/default/events.json) that are not read without -R\n",
	})
	checkLayout(t, dir, layoutCase{
		name: "with -R: everything", filenames: []string{"."}, recursive: true,
		wantNodes: []string{"n1", "n2"},
		wantPods:  []string{"default/a", "default/b", "kube-system/a", "kube-system/b"},
	})
}

// internalList is a List as some kubectl releases of 2018-2019 wrote it in
// `cluster-info dump`: the API server's internal types in Go field names,
// metadata flattened into each item, no kind.
func internalList(items ...map[string]any) map[string]any {
	list := make([]any, len(items))
	for i, item := range items {
		list[i] = item
	}
	return map[string]any{"selfLink": "/api/v1/nodes", "resourceVersion": "4225", "Items": list}
}

// TestClusterInfoDumpInInternalForm: that form is named for what it is, in
// one error for a file given by name and in two warning lines for a whole
// directory of it (the first file's reason, then the others folded), and
// the final error counts the files skipped.
func TestClusterInfoDumpInInternalForm(t *testing.T) {
	dir := t.TempDir()
	node := map[string]any{"name": "minikube", "Spec": map[string]any{"Unschedulable": false}, "Status": map[string]any{"Allocatable": map[string]any{"cpu": "2"}}}
	pod := map[string]any{"name": "coredns", "namespace": "kube-system", "Spec": map[string]any{"NodeName": "minikube"}}
	writeFile(t, dir, "nodes.json", jsonIndent(t, internalList(node)))
	for _, ns := range []string{"default", "kube-system"} {
		writeFile(t, dir, ns+"/pods.json", jsonIndent(t, internalList(pod)))
		writeFile(t, dir, ns+"/events.json", jsonIndent(t, internalList()))
	}
	const why = `the object has no "kind": it is in Go field names ("Items", "Spec", "Status"), the internal form ` +
		`some kubectl releases of 2018-2019 wrote in "kubectl cluster-info dump"; no Kubernetes API reads it: ` +
		`dump the cluster again with a current kubectl (kubectl get nodes,pods -A -o json)`
	_, err := ReadFiles(FileOptions{Filenames: []string{filepath.Join(dir, "nodes.json")}}, nil)
	if want := filepath.Join(dir, "nodes.json") + ": document 1: " + why; err == nil || err.Error() != want {
		t.Errorf("one file: got error %v, want %s", err, want)
	}
	var w bytes.Buffer
	_, err = ReadFiles(FileOptions{Filenames: []string{dir}, Recursive: true}, &w)
	if want := "no nodes or pods found in directory " + dir + "; 5 files skipped (see the warnings above)"; err == nil || err.Error() != want {
		t.Errorf("directory: got error %v, want %s", err, want)
	}
	wantWarnings := "warning: skipped D/default/events.json: not Kubernetes objects (document 1: " + why + ")\n" +
		"warning: skipped 4 more files in the same internal form: D/default/pods.json, D/kube-system/events.json, D/kube-system/pods.json and 1 more\n"
	if diff := cmp.Diff(strings.ReplaceAll(wantWarnings, "D/", dir+"/"), w.String()); diff != "" {
		t.Errorf("warnings (-want,+got):\n%s", diff)
	}
}

// TestSupportBundleLayout: a troubleshoot.sh support bundle holds bare JSON
// arrays of objects (cluster-resources/pods/<namespace>.json) next to
// JSON that is not Kubernetes objects (analysis results, versions).
func TestSupportBundleLayout(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "cluster-resources/nodes.json", jsonIndent(t, []any{typed("Node", layoutNode("n1"))}))
	writeFile(t, dir, "cluster-resources/pods/shop.json", jsonIndent(t, []any{typed("Pod", layoutPod("shop", "web", "n1")), typed("Pod", layoutPod("shop", "db", "n1"))}))
	writeFile(t, dir, "cluster-resources/pods/empty.json", []byte("[]\n"))
	writeFile(t, dir, "cluster-resources/pods/logs/shop/web/c.log", []byte("started\n"))
	writeFile(t, dir, "cluster-resources/auth-cani-list/shop.json", jsonIndent(t, []any{map[string]any{"verbs": []any{"get"}, "apiGroups": []any{""}}}))
	writeFile(t, dir, "cluster-info/cluster_version.json", jsonIndent(t, map[string]any{"info": map[string]any{"major": "1"}, "string": "v1.36.3"}))
	writeFile(t, dir, "analysis.json", jsonIndent(t, []any{map[string]any{"name": "node-count", "severity": "debug"}}))
	writeFile(t, dir, "version.yaml", []byte("apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundleVersion\nspec:\n  versionNumber: v0.100.0\n"))
	checkLayout(t, dir, layoutCase{
		name: "with -R", filenames: []string{"."}, recursive: true,
		wantNodes: []string{"n1"},
		wantPods:  []string{"shop/web", "shop/db"},
		wantWarnings: `warning: skipped D/analysis.json: not Kubernetes objects (document 1: item 1: no "kind")
warning: skipped D/cluster-info/cluster_version.json: not Kubernetes objects (document 1: no "kind")
warning: skipped D/cluster-resources/auth-cani-list/shop.json: not Kubernetes objects (document 1: item 1: no "kind")
`,
	})
}

// TestMustGatherLayout: an OpenShift must-gather folder holds typed Lists
// per namespace (namespaces/<ns>/core/pods.yaml) and one file per
// cluster-scoped object (cluster-scoped-resources/core/nodes/<name>.yaml),
// next to files without an extension and HTML.
func TestMustGatherLayout(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"n1", "n2"} {
		writeFile(t, dir, "cluster-scoped-resources/core/nodes/"+n+".yaml", mustYAML(t, typed("Node", layoutNode(n))))
	}
	writeFile(t, dir, "namespaces/shop/core/pods.yaml", mustYAML(t, typedList("PodList", typed("Pod", layoutPod("shop", "web", "n1")))))
	writeFile(t, dir, "namespaces/shop/shop.yaml", []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n"))
	writeFile(t, dir, "namespaces/shop/pods/web/web/web/logs/current.log", []byte("log\n"))
	writeFile(t, dir, "timestamp", []byte("2026-11-22 02:32:28 +0000 UTC\n"))
	writeFile(t, dir, "event-filter.html", []byte("<html></html>\n"))
	checkLayout(t, dir, layoutCase{
		name: "with -R", filenames: []string{"."}, recursive: true,
		wantNodes: []string{"n1", "n2"},
		wantPods:  []string{"shop/web"},
	})
	checkLayout(t, dir, layoutCase{
		name: "a glob", filenames: []string{"cluster-scoped-resources/core/nodes/*", "namespaces/*/core/pods.yaml"},
		wantNodes: []string{"n1", "n2"},
		wantPods:  []string{"shop/web"},
	})
}

// TestExamplesDirectory: the shipped example directory holds the cluster,
// a simulate script and a README: -f examples/ reads the cluster and says
// why the script is skipped.
func TestExamplesDirectory(t *testing.T) {
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{"../../examples/"}}, &w)
	if err != nil {
		t.Fatal(err)
	}
	example := readFixture(t, "../../examples/cluster.yaml")
	if diff := cmp.Diff(example.Pods, c.Pods); diff != "" || len(c.Nodes) != len(example.Nodes) {
		t.Errorf("pods (-cluster.yaml,+examples/):\n%s", diff)
	}
	want := `warning: skipped ../../examples/scenario.yaml: not Kubernetes objects (document 1: item 1: no "kind")
note: directory ../../examples/ has subdirectories with Kubernetes objects (e.g. ../../examples/pods/api-deployment.yaml) that are not read without -R
note: skipped 3 terminal pods (Succeeded/Failed), as the scheduler does
`
	if diff := cmp.Diff(want, w.String()); diff != "" {
		t.Errorf("warnings (-want,+got):\n%s", diff)
	}

	// With a glob the README is read too: it is not YAML.
	w.Reset()
	if _, err := ReadFiles(FileOptions{Filenames: []string{"../../examples/*"}}, &w); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.String(), "warning: skipped ../../examples/README.md: not YAML or JSON (line ") {
		t.Errorf("warnings:\n%s", w.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(w.String()), "\n") {
		if strings.Contains(line, "unstructured") || strings.Contains(line, "detector") {
			t.Errorf("a Go type name in %q", line)
		}
	}
}
