// Package gencluster generates a synthetic but realistic cluster of N nodes
// and M pods as the v1 List that `kubectl get nodes,pods -A -o json` prints,
// for load and performance tests of kubectl-schedcache. Benchmarks and tests
// call WriteFile or Generate; hack/gen-cluster is the command-line front end.
//
// The output is a pure function of the Config: all randomness comes from one
// math/rand/v2 PCG source seeded with Config.Seed, and all timestamps are
// relative to a fixed instant, so the same Config always produces the same
// bytes.
//
// Objects are encoded one at a time inside the List envelope and never held
// together in memory, so 5,000 nodes / 150,000 pods need only a few MB of
// state (per-node free resources and the workload plan).
package gencluster

import (
	"bufio"
	"errors"
	"fmt"
	"os"
)

// Config says what to generate.
type Config struct {
	// Nodes and Pods are the numbers of nodes and of pods (DaemonSet,
	// workload, pending and terminal pods together).
	Nodes, Pods int
	// Seed seeds the random source; the same Config gives the same bytes.
	Seed uint64
	// Zones is the number of zones in the region (at least 1).
	Zones int
	// PendingFraction of the workload pods are left unscheduled (no
	// nodeName) and TerminalFraction are Succeeded or Failed.
	PendingFraction, TerminalFraction float64
	// Indent indents the JSON like kubectl -o json (4 spaces); about twice
	// the size.
	Indent bool
	// Shape varies the pods (see Shape); ShapeDefault for the usual ones.
	Shape Shape
}

// Default returns the Config of hack/gen-cluster without flags: 1,000 nodes,
// 30,000 pods, seed 1, 3 zones, 1% pending and 1% terminal pods.
func Default() Config {
	return Config{Nodes: 1000, Pods: 30000, Seed: 1, Zones: 3, PendingFraction: 0.01, TerminalFraction: 0.01}
}

// Validate reports a Config that cannot be generated.
func (c Config) Validate() error {
	switch {
	case c.Nodes < 0 || c.Pods < 0:
		return errors.New("nodes and pods must not be negative")
	case c.Zones < 1:
		return errors.New("zones must be at least 1")
	case c.PendingFraction < 0 || c.TerminalFraction < 0 || c.PendingFraction+c.TerminalFraction > 1:
		return errors.New("the pending and terminal fractions must be >= 0 and add up to at most 1")
	case !c.Shape.valid():
		return fmt.Errorf("unknown shape %q (want one of %q)", c.Shape, Shapes)
	}
	return nil
}

// WriteFile writes the cluster to path. A partially written file is removed
// on error, so a failed run never leaves a truncated List behind.
func WriteFile(path string, cfg Config) (err error) {
	if err := cfg.Validate(); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			_ = os.Remove(path)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := Generate(w, cfg); err != nil {
		return err
	}
	return w.Flush()
}
