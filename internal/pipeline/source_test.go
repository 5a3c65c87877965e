package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/load"
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

// recordingPolicy records what a Source tells the memory policy.
type recordingPolicy struct {
	noMemoryPolicy
	input int64
	nodes []int64
}

func (p *recordingPolicy) InputBytes(n int64) { p.input = n }
func (p *recordingPolicy) Nodes(n int64)      { p.nodes = append(p.nodes, n) }

// A file read tells the policy its bytes before reading, then the nodes
// read so far as they arrive (a file of small objects holds more nodes
// than its bytes suggest).
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
	opts := (&Source{Files: []string{path}, Memory: p}).fileOptions(context.Background(), nil)
	if p.input != int64(b.Len()) {
		t.Errorf("InputBytes(%d), want the file's %d", p.input, b.Len())
	}
	if _, err := load.ReadFiles(opts, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.nodes, []int64{500, 1000}) {
		t.Errorf("Nodes called with %v, want [500 1000]", p.nodes)
	}
}
