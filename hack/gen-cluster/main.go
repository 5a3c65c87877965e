// Command gen-cluster writes a synthetic cluster (internal/gencluster) of N
// nodes and M pods as the v1 List that `kubectl get nodes,pods -A -o json`
// prints. The same flags always produce the same bytes.
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

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
)

func main() {
	cfg, output, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-cluster:", err)
		os.Exit(2)
	}
	if output != "" {
		err = gencluster.WriteFile(output, cfg)
	} else {
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		if err = gencluster.Generate(w, cfg); err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-cluster:", err)
		os.Exit(1)
	}
}

// parseFlags returns the Config and the output file ("" for stdout).
func parseFlags(args []string, stderr io.Writer) (gencluster.Config, string, error) {
	cfg := gencluster.Default()
	var output string
	fs := flag.NewFlagSet("gen-cluster", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.Nodes, "nodes", cfg.Nodes, "number of nodes")
	fs.IntVar(&cfg.Pods, "pods", cfg.Pods, "number of pods (DaemonSet, workload, pending and terminal pods together)")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed; the same flags always produce the same output")
	fs.IntVar(&cfg.Zones, "zones", cfg.Zones, "number of zones in the region")
	fs.Float64Var(&cfg.PendingFraction, "pending-fraction", cfg.PendingFraction, "fraction of workload pods left unscheduled (no nodeName)")
	fs.Float64Var(&cfg.TerminalFraction, "terminal-fraction", cfg.TerminalFraction, "fraction of workload pods that are Succeeded or Failed")
	fs.BoolVar(&cfg.Indent, "indent", cfg.Indent, "indent the JSON like kubectl -o json (4 spaces); about twice the size")
	fs.StringVar((*string)(&cfg.Shape), "shape", string(cfg.Shape), `pod shape: "" (default), "labels" (long label sets, many annotations), "templates" (a template per workload, 1-2 replicas), "status" (large status sections), "small" (only what the scheduler reads, ~600 bytes a pod)`)
	fs.StringVar(&output, "o", "", "output file (default stdout)")
	if err := fs.Parse(args); err != nil {
		return cfg, "", err
	}
	if fs.NArg() > 0 {
		return cfg, "", fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return cfg, output, cfg.Validate()
}
