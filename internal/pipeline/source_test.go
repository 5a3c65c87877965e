package pipeline

import (
	"os"
	"path/filepath"
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
