package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// stdinPod is a hand-written pod fed through "-".
const stdinPod = `apiVersion: v1
kind: Pod
metadata: {name: from-stdin, uid: 6f1d2c1e-0000-4000-8000-000000000003}
spec:
  containers: [{name: c, image: busybox:1.36}]
`

const terminalNote = "note: skipped 1 terminal pod (Succeeded/Failed), as the scheduler does\n"

func TestReadFiles(t *testing.T) {
	exportedPods := []string{"batch/pod-level", "batch/pod-limits-only", "default/sidecar", "default/web-0", "kube-system/agent"}
	tests := []struct {
		name         string
		opts         FileOptions
		wantNodes    []string
		wantPods     []string // namespace/name
		wantWarnings string
		wantSource   string
	}{
		{
			name:      "hand-written multi-document YAML",
			opts:      FileOptions{Filenames: []string{"testdata/handwritten.yaml"}},
			wantNodes: []string{"node-a", "node-b"},
			wantPods:  []string{"default/web-0", "kube-system/agent", "batch/pod-level", "batch/pod-limits-only", "default/sidecar"},
			wantWarnings: terminalNote +
				"warning: 5 pods without metadata.uid got a UID derived from namespace/name (e.g. default/web-0: 0c372a9a-bc2c-5d59-923a-e36c1691be6c)\n",
			wantSource: "file testdata/handwritten.yaml",
		},
		{
			name:         "kubectl get nodes,pods -A -o yaml (a v1 List)",
			opts:         FileOptions{Filenames: []string{"testdata/exported.yaml"}},
			wantNodes:    []string{"node-a", "node-b"},
			wantPods:     exportedPods,
			wantWarnings: terminalNote,
			wantSource:   "file testdata/exported.yaml",
		},
		{
			name:         "kubectl get nodes,pods -A -o json",
			opts:         FileOptions{Filenames: []string{"testdata/exported.json"}},
			wantNodes:    []string{"node-a", "node-b"},
			wantPods:     exportedPods,
			wantWarnings: terminalNote,
			wantSource:   "file testdata/exported.json",
		},
		{
			name:         "a PodList as the API serves it (items without kind)",
			opts:         FileOptions{Filenames: []string{"testdata/podlist.json"}},
			wantPods:     []string{"batch/pod-level", "batch/pod-limits-only"},
			wantWarnings: terminalNote,
			wantSource:   "file testdata/podlist.json",
		},
		{
			name:       "other kinds, top level and in a List, skipped silently",
			opts:       FileOptions{Filenames: []string{"testdata/kinds.yaml"}},
			wantNodes:  []string{"node-k"},
			wantSource: "file testdata/kinds.yaml",
		},
		{
			// Issue 37 (4d): a workload manifest given with -f was dropped
			// without a word; testdata/manifests.yaml's header lists them.
			name:      "workload manifests without uid named as not part of the cluster",
			opts:      FileOptions{Filenames: []string{"testdata/manifests.yaml"}, Namespace: "team", Objects: true},
			wantNodes: []string{"node-m"},
			wantWarnings: "note: Deployment team/web (testdata/manifests.yaml document 2) is a manifest (no metadata.uid), not part of the cluster: --pod-file testdata/manifests.yaml places its replicas\n" +
				"note: Job shop/backup (testdata/manifests.yaml document 5) is a manifest (no metadata.uid), not part of the cluster: --pod-file testdata/manifests.yaml places its replicas\n" +
				"note: StatefulSet shop/db (testdata/manifests.yaml document 6) is a manifest (no metadata.uid), not part of the cluster: --pod-file testdata/manifests.yaml places its replicas\n" +
				"note: 2 more workload manifests without metadata.uid are not part of the cluster either\n",
			wantSource: "file testdata/manifests.yaml",
		},
		{
			name:       "workload manifests of a --pod-file (Hypothetical): no note",
			opts:       FileOptions{Filenames: []string{"testdata/manifests.yaml"}, Hypothetical: true},
			wantNodes:  []string{"node-m"},
			wantSource: "file testdata/manifests.yaml",
		},
		{
			name:       "stdin",
			opts:       FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(stdinPod)},
			wantPods:   []string{"default/from-stdin"},
			wantSource: "stdin",
		},
		{
			name:       "files and stdin, in the order given",
			opts:       FileOptions{Filenames: []string{"testdata/dir/sub/pods.yml", "-", "testdata/dir/nodes.yaml"}, Stdin: strings.NewReader(stdinPod)},
			wantNodes:  []string{"node-d"},
			wantPods:   []string{"default/p-yml", "default/from-stdin"},
			wantSource: "files testdata/dir/sub/pods.yml, stdin, testdata/dir/nodes.yaml",
		},
		{
			name:         "directory: its manifests only, and a note on its subdirectories",
			opts:         FileOptions{Filenames: []string{"testdata/dir"}},
			wantNodes:    []string{"node-d"},
			wantWarnings: "note: directory testdata/dir has subdirectories with Kubernetes objects (e.g. testdata/dir/sub/more.json) that are not read without -R\n",
			wantSource:   "directory testdata/dir",
		},
		{
			name:       "directory with -R: subdirectories too, lexical order, other extensions ignored",
			opts:       FileOptions{Filenames: []string{"testdata/dir"}, Recursive: true},
			wantNodes:  []string{"node-d"},
			wantPods:   []string{"default/p-json", "default/p-yml"},
			wantSource: "directory testdata/dir",
		},
		{
			name:       "glob",
			opts:       FileOptions{Filenames: []string{"testdata/dir/sub/*.json"}},
			wantPods:   []string{"default/p-json"},
			wantSource: "file testdata/dir/sub/*.json",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warnings bytes.Buffer
			c, err := ReadFiles(tc.opts, &warnings)
			if err != nil {
				t.Fatalf("ReadFiles: %v", err)
			}
			nodes, pods := names(c)
			if diff := cmp.Diff(tc.wantNodes, nodes); diff != "" {
				t.Errorf("nodes (-want,+got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPods, pods); diff != "" {
				t.Errorf("pods (-want,+got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantWarnings, warnings.String()); diff != "" {
				t.Errorf("warnings (-want,+got):\n%s", diff)
			}
			if c.Source != tc.wantSource {
				t.Errorf("Source = %q, want %q", c.Source, tc.wantSource)
			}
			for _, p := range c.Pods {
				if p.ManagedFields != nil || p.UID == "" || p.Namespace == "" {
					t.Errorf("pod %s/%s: managedFields %v, uid %q", p.Namespace, p.Name, p.ManagedFields, p.UID)
				}
			}
			for _, n := range c.Nodes {
				if n.ManagedFields != nil {
					t.Errorf("node %s kept its managedFields", n.Name)
				}
			}
		})
	}
}

func TestReadFilesErrors(t *testing.T) {
	tests := []struct {
		name         string
		opts         FileOptions
		wantErr      string
		wantWarnings string
	}{
		{
			name:    "malformed YAML names the file and the document",
			opts:    FileOptions{Filenames: []string{"testdata/bad.yaml"}},
			wantErr: `testdata/bad.yaml: document 3: line 16: did not find expected ',' or ']'`,
		},
		{
			name:    "malformed first document of a later file",
			opts:    FileOptions{Filenames: []string{"testdata/dir/nodes.yaml", "testdata/badfirst.json"}},
			wantErr: `testdata/badfirst.json: document 1: json: offset 61: invalid character ']' after object key:value pair`,
		},
		{
			name:    "malformed stdin",
			opts:    FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(stdinPod + "---\nmetadata: [\n")},
			wantErr: `stdin: document 2: line 7: did not find expected node content`,
		},
		{
			name:    "document without kind",
			opts:    FileOptions{Filenames: []string{"testdata/nokind.yaml"}},
			wantErr: `testdata/nokind.yaml: document 2: the object has no "kind"`,
		},
		{
			name:    "pod without name",
			opts:    FileOptions{Filenames: []string{"testdata/noname.yaml"}},
			wantErr: `testdata/noname.yaml: document 1: Pod without metadata.name`,
		},
		{
			name:    "field of the wrong type",
			opts:    FileOptions{Filenames: []string{"testdata/badfield.yaml"}},
			wantErr: `testdata/badfield.yaml: document 1: Pod "p": json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`,
		},
		{
			name:    "missing file",
			opts:    FileOptions{Filenames: []string{"testdata/nope.yaml"}},
			wantErr: `the path "testdata/nope.yaml" does not exist`,
		},
		{
			name:    "empty input",
			opts:    FileOptions{Filenames: []string{"testdata/empty.yaml"}},
			wantErr: "no nodes or pods found in file testdata/empty.yaml",
		},
		{
			name:    "only other kinds",
			opts:    FileOptions{Filenames: []string{"testdata/only-others.yaml", "-"}, Stdin: strings.NewReader("")},
			wantErr: "no nodes or pods found in files testdata/only-others.yaml, stdin (1 object of another kind)",
		},
		{
			name:    "stdin twice",
			opts:    FileOptions{Filenames: []string{"-", "-"}, Stdin: strings.NewReader(stdinPod)},
			wantErr: `"-" is given more than once`,
		},
		{
			name:    "stdin without a reader",
			opts:    FileOptions{Filenames: []string{"-"}},
			wantErr: `cannot read "-": no standard input`,
		},
		{
			name:    "no files",
			opts:    FileOptions{},
			wantErr: "no files to read",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var warnings bytes.Buffer
			c, err := ReadFiles(tc.opts, &warnings)
			if err == nil {
				t.Fatalf("ReadFiles returned %d nodes and %d pods, want error %q", len(c.Nodes), len(c.Pods), tc.wantErr)
			}
			if got := err.Error(); got != tc.wantErr {
				t.Errorf("error:\n got %q\nwant %q", got, tc.wantErr)
			}
			if k := KindOf(err); k != InvalidInput {
				t.Errorf("KindOf = %v, want InvalidInput", k)
			}
			if diff := cmp.Diff(tc.wantWarnings, warnings.String()); diff != "" {
				t.Errorf("warnings (-want,+got):\n%s", diff)
			}
		})
	}
}

// TestReadFilesDefaultsLikeTheAPIServer checks that the hand-written pods and
// nodes, once read, carry the same scheduling-relevant fields as the same
// objects stored by a v1.36.3 API server.
func TestReadFilesDefaultsLikeTheAPIServer(t *testing.T) {
	handwritten := readFixture(t, "testdata/handwritten.yaml")
	exported := readFixture(t, "testdata/exported.yaml")

	// schedulingView is what DefaultPod and DefaultNode promise to default.
	type container struct {
		Name      string
		Resources corev1.ResourceRequirements
		Ports     []corev1.ContainerPort
	}
	type podView struct {
		SchedulerName              string
		Containers, InitContainers []container
		Resources                  *corev1.ResourceRequirements
		Overhead                   corev1.ResourceList
	}
	view := func(c *Cluster) (map[string]podView, map[string]corev1.NodeStatus) {
		pods := map[string]podView{}
		for _, p := range c.Pods {
			v := podView{SchedulerName: p.Spec.SchedulerName, Resources: p.Spec.Resources, Overhead: p.Spec.Overhead}
			for _, c := range p.Spec.Containers {
				v.Containers = append(v.Containers, container{c.Name, c.Resources, c.Ports})
			}
			for _, c := range p.Spec.InitContainers {
				v.InitContainers = append(v.InitContainers, container{c.Name, c.Resources, c.Ports})
			}
			pods[p.Namespace+"/"+p.Name] = v
		}
		nodes := map[string]corev1.NodeStatus{}
		for _, n := range c.Nodes {
			nodes[n.Name] = corev1.NodeStatus{Capacity: n.Status.Capacity, Allocatable: n.Status.Allocatable}
		}
		return pods, nodes
	}
	wantPods, wantNodes := view(exported)
	gotPods, gotNodes := view(handwritten)
	if diff := cmp.Diff(wantPods, gotPods); diff != "" {
		t.Errorf("pods read from testdata/handwritten.yaml differ from the stored ones (-stored,+read):\n%s", diff)
	}
	if diff := cmp.Diff(wantNodes, gotNodes); diff != "" {
		t.Errorf("nodes read from testdata/handwritten.yaml differ from the stored ones (-stored,+read):\n%s", diff)
	}
}

// TestReadFilesKeepsStoredObjects checks that objects exported from a cluster
// come out exactly as stored, but for managedFields, apiVersion and kind, the
// fields slimPod drops (TestSlimPod), and terminal pods.
func TestReadFilesKeepsStoredObjects(t *testing.T) {
	for _, file := range []string{"testdata/exported.yaml", "testdata/exported.json"} {
		t.Run(file, func(t *testing.T) {
			wantNodes, wantPods := decodeStored(t, file)
			if len(wantNodes) == 0 || len(wantPods) == 0 {
				t.Fatalf("%s: no nodes or pods decoded", file)
			}
			for _, n := range wantNodes {
				if n.ManagedFields == nil {
					t.Fatalf("%s: node %s has no managedFields: the fixture no longer tests dropping them", file, n.Name)
				}
				n.TypeMeta, n.ManagedFields = metav1.TypeMeta{}, nil
			}
			var running []*corev1.Pod
			for _, p := range wantPods {
				p.TypeMeta, p.ManagedFields = metav1.TypeMeta{}, nil
				slimPod(p)
				if !terminal(p) {
					running = append(running, p)
				}
			}
			c := readFixture(t, file)
			if diff := cmp.Diff(wantNodes, c.Nodes); diff != "" {
				t.Errorf("nodes (-stored,+read):\n%s", diff)
			}
			if diff := cmp.Diff(running, c.Pods); diff != "" {
				t.Errorf("pods (-stored,+read):\n%s", diff)
			}
		})
	}
}

func TestReadFilesDerivedUIDsAreStable(t *testing.T) {
	first := readFixture(t, "testdata/handwritten.yaml")
	second := readFixture(t, "testdata/handwritten.yaml")
	for i, p := range first.Pods {
		if want := DerivedUID(p.Namespace, p.Name); p.UID != want {
			t.Errorf("pod %s/%s: UID %q, want DerivedUID %q", p.Namespace, p.Name, p.UID, want)
		}
		if q := second.Pods[i]; q.UID != p.UID {
			t.Errorf("pod %s/%s: UID %q on the first read, %q on the second", p.Namespace, p.Name, p.UID, q.UID)
		}
	}
}

func TestReadFilesNilWarnings(t *testing.T) {
	if _, err := ReadFiles(FileOptions{Filenames: []string{"testdata/kinds.yaml"}}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestKindOf(t *testing.T) {
	wrapped := errors.Join(errors.New("context"), &Error{Kind: Unreachable, Msg: "x"})
	tests := []struct {
		err  error
		want ErrorKind
	}{
		{nil, Other},
		{errors.New("plain"), Other},
		{&Error{Kind: Forbidden}, Forbidden},
		{wrapped, Unreachable},
	}
	for _, tc := range tests {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func names(c *Cluster) (nodes, pods []string) {
	for _, n := range c.Nodes {
		nodes = append(nodes, n.Name)
	}
	for _, p := range c.Pods {
		pods = append(pods, p.Namespace+"/"+p.Name)
	}
	return nodes, pods
}

func readFixture(t *testing.T, file string) *Cluster {
	t.Helper()
	c, err := ReadFiles(FileOptions{Filenames: []string{file}}, io.Discard)
	if err != nil {
		t.Fatalf("ReadFiles(%s): %v", file, err)
	}
	return c
}

// decodeStored decodes a `kubectl get -o yaml|json` List without any of
// ReadFiles' processing.
func decodeStored(t *testing.T, file string) ([]*corev1.Node, []*corev1.Pod) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list corev1.List
	if err := utilyaml.NewYAMLOrJSONDecoder(f, 4096).Decode(&list); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var nodes []*corev1.Node
	var pods []*corev1.Pod
	for _, item := range list.Items {
		var tm metav1.TypeMeta
		if err := json.Unmarshal(item.Raw, &tm); err != nil {
			t.Fatal(err)
		}
		switch tm.Kind {
		case "Node":
			n := &corev1.Node{}
			if err := json.Unmarshal(item.Raw, n); err != nil {
				t.Fatal(err)
			}
			nodes = append(nodes, n)
		case "Pod":
			p := &corev1.Pod{}
			if err := json.Unmarshal(item.Raw, p); err != nil {
				t.Fatal(err)
			}
			pods = append(pods, p)
		}
	}
	return nodes, pods
}

// Ctrl-C (a done FileOptions.Context) stops the reading: ReadFiles returns
// the context's error, whatever was read.
func TestReadFilesStopsWhenTheContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReadFiles(FileOptions{Context: ctx, Filenames: []string{"testdata/handwritten.yaml"}}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadFiles with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := ReadFiles(FileOptions{Filenames: []string{"testdata/handwritten.yaml"}}, nil); err != nil {
		t.Fatalf("ReadFiles without a context: %v", err)
	}
}

// OnNodes hears of the nodes read at every nodesStep (500): 1,200 nodes
// make two calls, at 500 and 1,000, whatever the pods after them.
func TestOnNodes(t *testing.T) {
	path := loadtest.GenCluster(t, t.TempDir(), 1200, 30)
	var got []int64
	if _, err := ReadFiles(FileOptions{Filenames: []string{path}, OnNodes: func(n int64) { got = append(got, n) }}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int64{500, 1000}) {
		t.Errorf("OnNodes called with %v, want [500 1000]", got)
	}
}
