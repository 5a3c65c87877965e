// Command gen-cluster writes a synthetic but realistic cluster of N nodes and
// M pods as the v1 List that `kubectl get nodes,pods -A -o json` prints, for
// load and performance tests of kubectl-schedcache.
//
// The output is a pure function of the flags: all randomness comes from one
// math/rand/v2 PCG source seeded with -seed, and all timestamps are relative
// to a fixed instant, so the same flags always produce the same bytes.
//
// Objects are encoded one at a time inside the List envelope and never held
// together in memory, so 5,000 nodes / 150,000 pods need only a few MB of
// state (per-node free resources and the workload plan).
//
//	go run ./hack/gen-cluster -nodes 5000 -pods 150000 -o /tmp/cluster.json
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// config holds the command-line flags.
type config struct {
	nodes            int
	pods             int
	seed             uint64
	zones            int
	pendingFraction  float64
	terminalFraction float64
	indent           bool
	output           string
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "gen-cluster:", err)
		os.Exit(2)
	}
	if err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "gen-cluster:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("gen-cluster", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.nodes, "nodes", 1000, "number of nodes")
	fs.IntVar(&cfg.pods, "pods", 30000, "number of pods (DaemonSet, workload, pending and terminal pods together)")
	fs.Uint64Var(&cfg.seed, "seed", 1, "random seed; the same flags always produce the same output")
	fs.IntVar(&cfg.zones, "zones", 3, "number of zones in the region")
	fs.Float64Var(&cfg.pendingFraction, "pending-fraction", 0.01, "fraction of workload pods left unscheduled (no nodeName)")
	fs.Float64Var(&cfg.terminalFraction, "terminal-fraction", 0.01, "fraction of workload pods that are Succeeded or Failed")
	fs.BoolVar(&cfg.indent, "indent", false, "indent the JSON like kubectl -o json (4 spaces); about twice the size")
	fs.StringVar(&cfg.output, "o", "", "output file (default stdout)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return cfg, cfg.validate()
}

func (c config) validate() error {
	switch {
	case c.nodes < 0 || c.pods < 0:
		return errors.New("-nodes and -pods must not be negative")
	case c.zones < 1:
		return errors.New("-zones must be at least 1")
	case c.pendingFraction < 0 || c.terminalFraction < 0 || c.pendingFraction+c.terminalFraction > 1:
		return errors.New("-pending-fraction and -terminal-fraction must be >= 0 and add up to at most 1")
	}
	return nil
}

// run writes the cluster to cfg.output, or to stdout when it is empty. A
// partially written file is removed on error so that a failed run never
// leaves a truncated List behind.
func run(cfg config) (err error) {
	if cfg.output == "" {
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		if err := generate(w, cfg); err != nil {
			return err
		}
		return w.Flush()
	}
	f, err := os.Create(cfg.output)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(cfg.output)
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	if err := generate(w, cfg); err != nil {
		return err
	}
	return w.Flush()
}
