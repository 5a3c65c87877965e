package cmd

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestHelpWidth: every command's --help (descriptions, examples, flags)
// fits in helpWidth (120) columns.
func TestHelpWidth(t *testing.T) {
	root := NewCmdSchedCache(genericiooptions.NewTestIOStreamsDiscard())
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(root, nil)
	if len(paths) < 12 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, path := range paths {
		r := run(t, "", append(path, "--help")...)
		if r.code != 0 || r.stdout == "" {
			t.Errorf("%v --help: exit %d, %s", path, r.code, r.stderr)
			continue
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("%v --help: a line of %d columns:\n%s", path, n, line)
			}
		}
	}
}

// TestReplicasHelp: --replicas says its default once.
func TestReplicasHelp(t *testing.T) {
	for _, cmd := range []string{"why", "simulate"} {
		r := run(t, "", cmd, "--help")
		i := strings.Index(r.stdout, "--replicas int")
		if i < 0 {
			t.Fatalf("%s --help: no --replicas", cmd)
		}
		usage := r.stdout[i:]
		if end := strings.Index(usage, "\n      --"); end >= 0 {
			usage = usage[:end]
		}
		if strings.Count(usage, "default") != 1 {
			t.Errorf("%s --replicas: %q says default more than once", cmd, usage)
		}
	}
}
