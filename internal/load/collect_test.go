package load

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func podDoc(name, node, phase string) string {
	return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": %q, "uid": "uid-%s"}, "spec": {"nodeName": %q}, "status": {"phase": %q}}`, name, name, node, phase)
}

func nodeDoc(name, cpu string) string {
	return fmt.Sprintf(`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": %q}, "status": {"allocatable": {"cpu": %q}}}`, name, cpu)
}

// TestLaterObjectReplacesEarlier: as an informer would see an update, a
// later object with the same kind and namespace/name replaces the earlier
// one, in its place, with a warning naming both places; a pod updated to a
// terminal phase leaves; nothing else changes.
func TestLaterObjectReplacesEarlier(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.json", []byte(nodeDoc("n1", "1")+"\n"+nodeDoc("n2", "2")+"\n"+
		podDoc("p1", "n1", "Running")+"\n"+podDoc("p2", "n1", "Running")+"\n"+podDoc("p3", "n2", "Running")))
	b := writeFile(t, dir, "b.yaml", []byte(`apiVersion: v1
kind: List
items:
- `+nodeDoc("n1", "8")+`
- `+podDoc("p1", "n2", "Running")+`
- `+podDoc("p2", "n1", "Succeeded")+`
- `+podDoc("p4", "n2", "Running")+`
`))
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{a, b}}, &w)
	if err != nil {
		t.Fatal(err)
	}
	nodes, pods := names(c)
	if diff := cmp.Diff([]string{"n1", "n2"}, nodes); diff != "" {
		t.Errorf("nodes (-want,+got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"default/p1", "default/p3", "default/p4"}, pods); diff != "" {
		t.Errorf("pods (-want,+got):\n%s", diff)
	}
	if cpu := c.Nodes[0].Status.Allocatable.Cpu().String(); cpu != "8" {
		t.Errorf("n1 has %s CPU, want the later object's 8", cpu)
	}
	if node := c.Pods[0].Spec.NodeName; node != "n2" {
		t.Errorf("p1 is on %s, want the later object's n2", node)
	}
	want := `warning: node "n1" in B document 1 item 1 replaces the one in A document 1, as an update would
warning: pod "default/p1" in B document 1 item 2 replaces the one in A document 3, as an update would
warning: pod "default/p2" in B document 1 item 3 replaces the one in A document 4, as an update would
note: skipped 1 terminal pod (Succeeded/Failed), as the scheduler does
`
	want = strings.NewReplacer("A ", a+" ", "B ", b+" ").Replace(want)
	if diff := cmp.Diff(want, w.String()); diff != "" {
		t.Errorf("warnings (-want,+got):\n%s", diff)
	}
}

func TestManyReplacementsAreCounted(t *testing.T) {
	var in strings.Builder
	for range 2 {
		for i := range maxReplacedLines + 5 {
			in.WriteString(podDoc(fmt.Sprintf("p%d", i), "n", "Running") + "\n")
		}
	}
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in.String())}, &w)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pods) != maxReplacedLines+5 {
		t.Errorf("%d pods, want %d", len(c.Pods), maxReplacedLines+5)
	}
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(lines) != maxReplacedLines+1 || lines[maxReplacedLines] != "warning: 5 more objects replaced by a later object with the same name" {
		t.Errorf("warnings:\n%s", w.String())
	}
}

// TestFileGivenTwice: a file reached by a directory and by name is read
// once, with a note; the same name twice is a mistake.
func TestFileGivenTwice(t *testing.T) {
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{"testdata/dir", "testdata/dir/sub/more.json"}, Recursive: true}, &w)
	if err != nil {
		t.Fatal(err)
	}
	if _, pods := names(c); len(pods) != 2 {
		t.Errorf("pods %v", pods)
	}
	if want := "note: testdata/dir/sub/more.json is read once, although given more than once\n"; w.String() != want {
		t.Errorf("warnings %q, want %q", w.String(), want)
	}
	_, err = ReadFiles(FileOptions{Filenames: []string{"testdata/dir/nodes.yaml", "testdata/dir/nodes.yaml"}}, nil)
	if want := `"testdata/dir/nodes.yaml" is given more than once`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestOtherAPIVersionOfNodeOrPod(t *testing.T) {
	in := nodeDoc("n", "1") + "\n" + `{"apiVersion": "v2", "kind": "Pod", "metadata": {"name": "p"}}` + "\n" +
		`{"apiVersion": "example.com/v1", "kind": "Node", "metadata": {"name": "x"}}`
	var w bytes.Buffer
	c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)}, &w)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Nodes) != 1 || len(c.Pods) != 0 {
		t.Errorf("%d nodes, %d pods", len(c.Nodes), len(c.Pods))
	}
	want := `warning: stdin: document 2: skipped Pod "p": apiVersion "v2" is not one the scheduler reads (v1)
warning: stdin: document 3: skipped Node "x": apiVersion "example.com/v1" is not one the scheduler reads (v1)
`
	if diff := cmp.Diff(want, w.String()); diff != "" {
		t.Errorf("warnings (-want,+got):\n%s", diff)
	}
}

// TestObjects: with FileOptions.Objects the scheduling kinds are kept, typed,
// in input order (one per kind and name, the later winning); without, they
// are skipped like any other kind.
func TestObjects(t *testing.T) {
	in := `apiVersion: v1
kind: List
items:
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata: {name: fast}
  provisioner: csi.example.com
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: data, namespace: db, managedFields: [{manager: kubectl}]}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cfg}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata: {name: web-1, namespace: shop}
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: {name: pdb, namespace: shop}
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata: {name: fast}
  provisioner: csi.other.com
- ` + nodeDoc("n", "1") + `
`
	c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in), Objects: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range c.Objects {
		got = append(got, fmt.Sprintf("%T", o))
	}
	want := []string{"*v1.StorageClass", "*v1.PersistentVolumeClaim", "*v1.ReplicaSet", "*v1.PodDisruptionBudget"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("objects (-want,+got):\n%s", diff)
	}
	if sc := c.Objects[0].(*storagev1.StorageClass); sc.Provisioner != "csi.other.com" {
		t.Errorf("storage class %q, want the later one", sc.Provisioner)
	}
	pvc := c.Objects[1].(*corev1.PersistentVolumeClaim)
	if pvc.Namespace != "db" || pvc.ManagedFields != nil || pvc.Kind != "" {
		t.Errorf("PVC %s/%s, managedFields %v, kind %q: want them dropped, as the informer delivers it", pvc.Namespace, pvc.Name, pvc.ManagedFields, pvc.Kind)
	}
	_ = c.Objects[2].(*appsv1.ReplicaSet)
	_ = c.Objects[3].(*policyv1.PodDisruptionBudget)

	c, err = ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in)}, nil)
	if err != nil || c.Objects != nil {
		t.Errorf("without Objects: %v, %v", c.Objects, err)
	}
}

// TestDecodeStepIsSwappable: the decode step is one function; a
// replacement sees every wanted object (and only those).
func TestDecodeStepIsSwappable(t *testing.T) {
	var (
		mu    sync.Mutex
		kinds []string
	)
	decode := func(data []byte, gvk schema.GroupVersionKind) (runtime.Object, error) {
		mu.Lock()
		kinds = append(kinds, gvk.Kind)
		mu.Unlock()
		return decodeTyped(data, gvk)
	}
	c, err := ReadFiles(FileOptions{Filenames: []string{"testdata/kinds.yaml"}, decode: decode}, nil)
	if err != nil || len(c.Nodes) != 1 {
		t.Fatal(err)
	}
	// The Services, the Deployment and the Widget are never decoded.
	if diff := cmp.Diff([]string{"Node"}, kinds); diff != "" {
		t.Errorf("decoded kinds (-want,+got):\n%s", diff)
	}
}
