package main

import (
	"bytes"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

func TestParseFlags(t *testing.T) {
	cfg, out, err := parseFlags(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if want := gencluster.Default(); cfg != want || out != "" {
		t.Fatalf("no flags = %+v, %q; want %+v, \"\"", cfg, out, want)
	}
	cfg, out, err = parseFlags([]string{"-nodes", "7", "-pods", "9", "-seed", "3", "-zones", "2",
		"-pending-fraction", "0.1", "-terminal-fraction", "0.2", "-indent", "-o", "x.json"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := gencluster.Config{Nodes: 7, Pods: 9, Seed: 3, Zones: 2, PendingFraction: 0.1, TerminalFraction: 0.2, Indent: true}
	if cfg != want || out != "x.json" {
		t.Fatalf("got %+v, %q; want %+v, \"x.json\"", cfg, out, want)
	}
	for _, args := range [][]string{{"-zones", "0"}, {"-pending-fraction", "0.7", "-terminal-fraction", "0.7"}, {"-nodes", "-1"}, {"extra"}} {
		if _, _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("parseFlags(%v) succeeded, want an error", args)
		}
	}
}
