package main

import (
	"bytes"
	"encoding/json"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func genBytes(t *testing.T, cfg config) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := generate(&buf, cfg); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func smallConfig(seed uint64) config {
	return config{nodes: 20, pods: 400, seed: seed, zones: 3, pendingFraction: 0.03, terminalFraction: 0.03}
}

// TestDeterministic: the same flags must give the same bytes, so generated
// files can be regenerated instead of committed; another seed must differ.
func TestDeterministic(t *testing.T) {
	for _, indent := range []bool{false, true} {
		cfg := smallConfig(7)
		cfg.indent = indent
		a, b := genBytes(t, cfg), genBytes(t, cfg)
		if !bytes.Equal(a, b) {
			t.Fatalf("indent=%v: two runs with the same seed differ", indent)
		}
		cfg.seed = 8
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
		cfg.indent = indent
		nodes, pods := decodeList(t, genBytes(t, cfg))
		if len(nodes) != cfg.nodes || len(pods) != cfg.pods {
			t.Fatalf("got %d nodes and %d pods, want %d and %d", len(nodes), len(pods), cfg.nodes, cfg.pods)
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

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := config{nodes: 1000, pods: 30000, seed: 1, zones: 3, pendingFraction: 0.01, terminalFraction: 0.01}
	if cfg != want {
		t.Fatalf("defaults = %+v, want %+v", cfg, want)
	}
	for _, args := range [][]string{{"-zones", "0"}, {"-pending-fraction", "0.7", "-terminal-fraction", "0.7"}, {"-nodes", "-1"}, {"extra"}} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseFlags(%v) succeeded, want an error", args)
		}
	}
}

// TestEdgeSizes: degenerate sizes still produce a valid List.
func TestEdgeSizes(t *testing.T) {
	for _, c := range []struct{ nodes, pods int }{{0, 0}, {0, 5}, {3, 0}, {1, 3}, {40, 10}} {
		cfg := config{nodes: c.nodes, pods: c.pods, seed: 1, zones: 2}
		nodes, pods := decodeList(t, genBytes(t, cfg))
		if len(nodes) != c.nodes || len(pods) != c.pods {
			t.Fatalf("%+v: got %d nodes and %d pods", c, len(nodes), len(pods))
		}
	}
}
