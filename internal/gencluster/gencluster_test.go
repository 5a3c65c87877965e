package gencluster

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func genBytes(t *testing.T, cfg Config) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Generate(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func smallConfig(seed uint64) Config {
	return Config{Nodes: 20, Pods: 400, Seed: seed, Zones: 3, PendingFraction: 0.03, TerminalFraction: 0.03}
}

// TestDeterministic: the same flags must give the same bytes, so generated
// files can be regenerated instead of committed; another seed must differ.
func TestDeterministic(t *testing.T) {
	for _, indent := range []bool{false, true} {
		cfg := smallConfig(7)
		cfg.Indent = indent
		a, b := genBytes(t, cfg), genBytes(t, cfg)
		if !bytes.Equal(a, b) {
			t.Fatalf("indent=%v: two runs with the same seed differ", indent)
		}
		cfg.Seed = 8
		if bytes.Equal(a, genBytes(t, cfg)) {
			t.Fatalf("indent=%v: seeds 7 and 8 gave identical output", indent)
		}
	}
}

// TestOutputIsAList decodes the output as a v1 List whose items are Nodes
// and Pods (unknown fields rejected), and checks what consumers rely on:
// counts, unique UIDs and names, kubectl's sort order, and that bound pods
// name existing nodes without exceeding any node's pod limit.
func TestOutputIsAList(t *testing.T) {
	for _, indent := range []bool{false, true} {
		cfg := smallConfig(3)
		cfg.Indent = indent
		nodes, pods := decodeList(t, genBytes(t, cfg))
		if len(nodes) != cfg.Nodes || len(pods) != cfg.Pods {
			t.Fatalf("got %d nodes and %d pods, want %d and %d", len(nodes), len(pods), cfg.Nodes, cfg.Pods)
		}
		checkUniqueAndSorted(t, nodes, pods)
		checkPlacement(t, nodes, pods)
	}
}

func decodeList(t *testing.T, data []byte) ([]*v1.Node, []*v1.Pod) {
	t.Helper()
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   map[string]string `json:"metadata"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := strictUnmarshal(data, &list); err != nil {
		t.Fatalf("output is not a List: %v", err)
	}
	if list.APIVersion != "v1" || list.Kind != "List" {
		t.Fatalf("envelope is %s/%s, want v1/List", list.APIVersion, list.Kind)
	}
	var nodes []*v1.Node
	var pods []*v1.Pod
	for i, raw := range list.Items {
		var tm struct{ APIVersion, Kind string }
		if err := json.Unmarshal(raw, &tm); err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if tm.APIVersion != "v1" {
			t.Fatalf("item %d: apiVersion %q", i, tm.APIVersion)
		}
		switch tm.Kind {
		case "Node":
			n := &v1.Node{}
			if err := strictUnmarshal(raw, n); err != nil {
				t.Fatalf("item %d: not a Node: %v", i, err)
			}
			nodes = append(nodes, n)
		case "Pod":
			p := &v1.Pod{}
			if err := strictUnmarshal(raw, p); err != nil {
				t.Fatalf("item %d: not a Pod: %v", i, err)
			}
			pods = append(pods, p)
		default:
			t.Fatalf("item %d: unexpected kind %q", i, tm.Kind)
		}
	}
	return nodes, pods
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func checkUniqueAndSorted(t *testing.T, nodes []*v1.Node, pods []*v1.Pod) {
	t.Helper()
	uids := map[string]bool{}
	seenUID := func(u string) {
		if u == "" || uids[u] {
			t.Fatalf("empty or duplicate UID %q", u)
		}
		uids[u] = true
	}
	for i, n := range nodes {
		seenUID(string(n.UID))
		if i > 0 && nodes[i-1].Name >= n.Name {
			t.Fatalf("nodes not sorted or not unique: %q then %q", nodes[i-1].Name, n.Name)
		}
	}
	for i, p := range pods {
		seenUID(string(p.UID))
		if i == 0 {
			continue
		}
		prev := pods[i-1]
		if prev.Namespace > p.Namespace || prev.Namespace == p.Namespace && prev.Name >= p.Name {
			t.Fatalf("pods not sorted or not unique: %s/%s then %s/%s", prev.Namespace, prev.Name, p.Namespace, p.Name)
		}
	}
}

func checkPlacement(t *testing.T, nodes []*v1.Node, pods []*v1.Pod) {
	t.Helper()
	allowed := map[string]int64{}
	for _, n := range nodes {
		allowed[n.Name] = n.Status.Allocatable.Pods().Value()
	}
	count := map[string]int64{}
	phases := map[v1.PodPhase]int{}
	for _, p := range pods {
		phases[p.Status.Phase]++
		if p.Spec.NodeName == "" {
			if p.Status.Phase != v1.PodPending {
				t.Fatalf("%s/%s has no node but phase %s", p.Namespace, p.Name, p.Status.Phase)
			}
			continue
		}
		if _, ok := allowed[p.Spec.NodeName]; !ok {
			t.Fatalf("%s/%s is bound to unknown node %q", p.Namespace, p.Name, p.Spec.NodeName)
		}
		if p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed {
			count[p.Spec.NodeName]++
		}
	}
	for n, c := range count {
		if c > allowed[n] {
			t.Fatalf("node %s has %d active pods, allows %d", n, c, allowed[n])
		}
	}
	for _, ph := range []v1.PodPhase{v1.PodRunning, v1.PodPending} {
		if phases[ph] == 0 {
			t.Fatalf("no %s pods in %v", ph, phases)
		}
	}
	if phases[v1.PodSucceeded]+phases[v1.PodFailed] == 0 {
		t.Fatalf("no terminal pods in %v", phases)
	}
}

// TestDefaultAndValidate: the defaults are the documented ones and valid;
// each out-of-range value is rejected.
func TestDefaultAndValidate(t *testing.T) {
	want := Config{Nodes: 1000, Pods: 30000, Seed: 1, Zones: 3, PendingFraction: 0.01, TerminalFraction: 0.01}
	if got := Default(); got != want {
		t.Fatalf("Default() = %+v, want %+v", got, want)
	}
	if err := want.Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
	for _, bad := range []func(*Config){
		func(c *Config) { c.Zones = 0 },
		func(c *Config) { c.PendingFraction, c.TerminalFraction = 0.7, 0.7 },
		func(c *Config) { c.Nodes = -1 },
		func(c *Config) { c.Pods = -1 },
		func(c *Config) { c.TerminalFraction = -0.1 },
	} {
		c := Default()
		bad(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: Validate succeeded, want an error", c)
		}
		if err := Generate(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%+v: Generate succeeded, want an error", c)
		}
	}
}

// TestWriteFile: the file holds exactly what Generate writes, and a file
// that cannot be written leaves nothing behind.
func TestWriteFile(t *testing.T) {
	cfg := smallConfig(5)
	path := filepath.Join(t.TempDir(), "cluster.json")
	if err := WriteFile(path, cfg); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, genBytes(t, cfg)) {
		t.Fatal("WriteFile wrote other bytes than Generate")
	}
	bad := cfg
	bad.Zones = 0
	path2 := filepath.Join(t.TempDir(), "bad.json")
	if err := WriteFile(path2, bad); err == nil {
		t.Fatal("WriteFile with Zones 0 succeeded")
	}
	if _, err := os.Stat(path2); !os.IsNotExist(err) {
		t.Fatalf("a failed WriteFile left %s behind (stat: %v)", path2, err)
	}
}

// TestEdgeSizes: degenerate sizes still produce a valid List.
func TestEdgeSizes(t *testing.T) {
	for _, c := range []struct{ nodes, pods int }{{0, 0}, {0, 5}, {3, 0}, {1, 3}, {40, 10}} {
		cfg := Config{Nodes: c.nodes, Pods: c.pods, Seed: 1, Zones: 2}
		nodes, pods := decodeList(t, genBytes(t, cfg))
		if len(nodes) != c.nodes || len(pods) != c.pods {
			t.Fatalf("%+v: got %d nodes and %d pods", c, len(nodes), len(pods))
		}
	}
}
