package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// inputBytes adds the sizes of the regular files named and nothing for the
// rest.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(a, make([]byte, 100), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, make([]byte, 23), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := inputBytes([]string{a, b, dir, "-", filepath.Join(dir, "*.yaml"), "https://example.com/x"}); got != 123 {
		t.Errorf("inputBytes = %d, want 123", got)
	}
}

// recordingPolicy records what a Source tells the memory policy, in order.
type recordingPolicy struct {
	noMemoryPolicy
	events []string
}

func (p *recordingPolicy) InputBytes(n int64) { p.events = append(p.events, fmt.Sprint("input ", n)) }
func (p *recordingPolicy) Nodes(n int64)      { p.events = append(p.events, fmt.Sprint("nodes ", n)) }
func (p *recordingPolicy) Reading() func() {
	p.events = append(p.events, "reading")
	return func() { p.events = append(p.events, "read") }
}

// A file read tells the policy its bytes before reading, then that it
// reads, the nodes read so far as they arrive (a file of small objects
// holds more nodes than its bytes suggest), and the end of the read.
func TestFileSourceTellsMemory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nodes.json")
	var b strings.Builder
	b.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n%d","uid":"u%d"}}`, i, i)
	}
	b.WriteString("]}")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &recordingPolicy{}
	var notes Notes
	if _, err := (&Source{Files: []string{path}, Memory: p}).Load(context.Background(), nil, &notes); err != nil {
		t.Fatal(err)
	}
	n := b.Len()
	want := []string{fmt.Sprint("input ", n), "reading", "nodes 500", "nodes 1000", "read"}
	if !slices.Equal(p.events, want) {
		t.Errorf("the policy was told %q, want %q", p.events, want)
	}
}
