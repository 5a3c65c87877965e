package printers

import (
	"bytes"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// sampleSimulation is a small script-mode Simulation: an assume, a cache
// error, a clock advance, a removed node and a placeholder.
func sampleSimulation(mode string) *v1alpha1.Simulation {
	p := &v1alpha1.PodRef{Namespace: "ns", Name: "p", UID: "u1"}
	used := &v1alpha1.NodeUsage{MilliCPU: 1500, Memory: 1 << 30, Pods: 2}
	return &v1alpha1.Simulation{
		Settings: v1alpha1.SimulationSettings{Mode: mode, TTL: "30s", End: "31s"},
		Events: []v1alpha1.SimulationEvent{
			{At: "0s", Step: 1, Event: "assume", Pod: p, Node: "n1", From: "Initial", To: "Assumed", Requested: used},
			{At: "0s", Step: 2, Event: "assume", Pod: p, Node: "n1", Requested: used, Error: "pod u1(ns/p) is in the cache, so can't be assumed"},
			{At: "31s", Step: 3, Event: "advance", Note: "clock +31s"},
		},
		Nodes: []v1alpha1.SimulatedNode{
			{Name: "n1", Allocatable: v1alpha1.NodeUsage{MilliCPU: 2000, Memory: 4 << 30, Pods: 10},
				Before: &v1alpha1.NodeUsage{MilliCPU: 1000, Memory: 512 << 20, Pods: 1}, After: used},
			{Name: "gone", Placeholder: true, After: &v1alpha1.NodeUsage{MilliCPU: 100}},
			{Name: "n2", Before: &v1alpha1.NodeUsage{}},
		},
		Pods: []v1alpha1.SimulatedPod{
			{PodRef: *p, Requested: v1alpha1.NodeUsage{MilliCPU: 500, Memory: 512 << 20, Pods: 1}, State: "Assumed", Node: "n1", Detail: "binding not finished"},
			{PodRef: v1alpha1.PodRef{Namespace: "ns", Name: "q"}, State: "Unschedulable", Detail: "0/1 nodes are available: 1 Insufficient cpu"},
		},
	}
}

func TestPrintSimulationScript(t *testing.T) {
	var out bytes.Buffer
	if err := PrintSimulation(&out, sampleSimulation("script"), TableOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `STEP   TIME   EVENT     POD    NODE   STATE             CPU     MEMORY   ERROR                                               NOTE
1      +0s    assume    ns/p   n1     Initial→Assumed   1500m   1Gi
2      +0s    assume    ns/p   n1     -                 1500m   1Gi      pod u1(ns/p) is in the cache, so can't be assumed
3      +31s   advance   -      -      -                 -       -                                                            clock +31s

NODE                 CPU-BEFORE   CPU-AFTER   MEMORY-BEFORE   MEMORY-AFTER   PODS-BEFORE   PODS-AFTER
n1                   1            1500m       512Mi           1Gi            1             2
gone <placeholder>   -            100m        -               0              -             0
n2                   0            -           0               -              0             -

POD    STATE           NODE   DETAIL
ns/p   Assumed         n1     binding not finished
ns/q   Unschedulable   -      0/1 nodes are available: 1 Insufficient cpu
2 pods simulated (1 Assumed, 1 Unschedulable), TTL 30s, virtual time +0s to +31s
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestPrintSimulationTimelineWide: no STEP column outside scripts; wide
// adds pod counts, allocatable and the pods' requests and UIDs.
func TestPrintSimulationTimelineWide(t *testing.T) {
	var out bytes.Buffer
	s := sampleSimulation("timeline")
	s.Settings.TTL = "0s"
	if err := PrintSimulation(&out, s, TableOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	for _, want := range []string{
		"TIME   EVENT     POD    NODE   STATE             CPU     MEMORY   PODS   ERROR",
		"NODE                 CPU-BEFORE   CPU-AFTER   MEMORY-BEFORE   MEMORY-AFTER   PODS-BEFORE   PODS-AFTER   CPU-ALLOCATABLE   MEMORY-ALLOCATABLE   ALLOWED-PODS",
		"n1                   1            1500m       512Mi           1Gi            1             2            2                 4Gi                  10",
		"POD    STATE           NODE   CPU    MEMORY   UID   DETAIL",
		"ns/p   Assumed         n1     500m   512Mi    u1    binding not finished",
		"2 pods simulated (1 Assumed, 1 Unschedulable), TTL 0 (never expire), virtual time +0s to +31s",
	} {
		if !containsLinePrefix(lines, want) {
			t.Errorf("no line starting with %q in:\n%s", want, out.String())
		}
	}
}

// TestPrintSimulationNoHeaders prints the timeline rows only, for pipes.
func TestPrintSimulationNoHeaders(t *testing.T) {
	var out bytes.Buffer
	if err := PrintSimulation(&out, sampleSimulation("timeline"), TableOptions{NoHeaders: true, Color: true}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Count(got, "\n") != 3 || strings.Contains(got, "TIME") || strings.Contains(got, "simulated") {
		t.Errorf("want 3 timeline rows only, got:\n%s", got)
	}
	if !strings.Contains(got, "\x1b[31mpod u1(ns/p) is in the cache, so can't be assumed\x1b[0m") {
		t.Errorf("error not red with colour:\n%q", got)
	}
}

func containsLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestPrintSimulationNoNodeChanged: when every pod stayed unschedulable no
// node was touched; one line says so instead of a header over no rows.
func TestPrintSimulationNoNodeChanged(t *testing.T) {
	s := sampleSimulation("pending")
	s.Events, s.Nodes = s.Events[2:], nil
	var out bytes.Buffer
	if err := PrintSimulation(&out, s, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "\nNo node changed.\n\nPOD ") || strings.Contains(got, "CPU-BEFORE") {
		t.Errorf("got:\n%s", got)
	}
}
