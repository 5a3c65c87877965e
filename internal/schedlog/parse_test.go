package schedlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func pod(name, ns, uid, phase, nominated string) Pod {
	return Pod{Name: name, Namespace: ns, UID: uid, Phase: phase, NominatedNode: nominated}
}

var preemptor = pod("preemptor", "default", "ea04c715-7db7-4f13-8719-edfd049b6af3", "Pending", "node-b")

// scenarioNodes is the cache of testdata/README.md's scenario, written by
// hand from that description; every vector must parse to it.
var scenarioNodes = []Node{
	{
		Name: "gone", Deleted: true,
		Requested: Resource{MilliCPU: 100, Memory: 64 << 20},
		Pods:      []Pod{pod("orphan", "default", "80cf40c7-d410-494c-b5b9-ac83ed305b8c", "Pending", "")},
	},
	{
		Name:        "node-a",
		Requested:   Resource{MilliCPU: 600, Memory: 320 << 20, ScalarResources: map[string]int64{"example.com/widget": 1}},
		Allocatable: Resource{MilliCPU: 2000, Memory: 4 << 30, EphemeralStorage: 10 << 30, AllowedPodNumber: 10, ScalarResources: map[string]int64{"example.com/widget": 4, "hugepages-2Mi": 0}},
		Pods: []Pod{
			pod("web-1", "default", "afe676ca-01d7-4ac8-8daf-59206c685e41", "Running", ""),
			pod("batch-1", "team-x", "63298c89-8777-485e-a003-f3abfde1b762", "Pending", ""),
		},
	},
	{
		Name:          "node-b",
		Requested:     Resource{MilliCPU: 800},
		Allocatable:   Resource{MilliCPU: 1000, Memory: 2 << 30, AllowedPodNumber: 5},
		Pods:          []Pod{pod("victim", "default", "d2d71e97-42de-4039-92f9-f4ab41271b2e", "Pending", "")},
		NominatedPods: []Pod{preemptor},
	},
}

// layoutOf is the layout each release writes, from its dumper.go (see the
// package documentation).
func layoutOf(minor int) Layout {
	switch {
	case minor == 18:
		return LayoutV118
	case minor <= 22:
		return LayoutV119
	case minor == 23:
		return LayoutV123
	case minor <= 25:
		return LayoutV124
	}
	return LayoutV126
}

var ignoreLines = cmpopts.IgnoreFields(Node{}, "Line")

func readVector(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestVersionVectors parses the log each release v1.18–v1.36 writes for the
// same cache (testdata/README.md), in the text format and, for one release
// of each JSON shape, with --logging-format=json.
func TestVersionVectors(t *testing.T) {
	files, err := filepath.Glob("testdata/v1.*.log")
	if err != nil || len(files) < 19+5 {
		t.Fatalf("vectors: %v, %v", files, err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			version := strings.TrimSuffix(strings.TrimSuffix(name, ".log"), ".json")
			m, _ := minor(version)
			d, err := Parse(bytes.NewReader(readVector(t, name)))
			if err != nil {
				t.Fatal(err)
			}
			enc := Text
			if strings.HasSuffix(name, ".json.log") {
				enc = JSON
			}
			if d.Version != version || d.Layout != layoutOf(m) || d.Encoding != enc || d.Dumps != 1 {
				t.Errorf("version %q layout %q encoding %q dumps %d; want %q %q %q 1", d.Version, d.Layout, d.Encoding, d.Dumps, version, layoutOf(m), enc)
			}
			if diff := cmp.Diff(scenarioNodes, d.Nodes, ignoreLines); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
			wantQueue := Queue{Pods: []Pod{preemptor}}
			if m >= 26 {
				wantQueue.HasSummary, wantQueue.Unschedulable = true, 1
			}
			if diff := cmp.Diff(wantQueue, d.Queue); diff != "" {
				t.Errorf("queue (-want +got):\n%s", diff)
			}
			if d.Mismatch == nil || !cmp.Equal(d.Mismatch.RedundantNodes, []string{"gone"}) || len(d.Mismatch.MissedNodes) != 0 {
				t.Errorf("mismatch %+v, want redundant node gone", d.Mismatch)
			}
			if enc == Text && (d.Time != "1122 02:33:37.773684" || d.StartLine == 0 || d.EndLine < d.StartLine) {
				t.Errorf("time %q lines %d–%d", d.Time, d.StartLine, d.EndLine)
			}
			if m <= 23 && enc == Text && len(d.Warnings) != 0 {
				t.Errorf("warnings %q: the queue record is followed by another record", d.Warnings)
			}
		})
	}
}

// TestCapturedV136 parses the complete log of a real kube-scheduler v1.36.3
// that received one SIGUSR2 (testdata/README.md).
func TestCapturedV136(t *testing.T) {
	d, err := Parse(bytes.NewReader(readVector(t, "captured-v1.36.3.log")))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scenarioNodes, d.Nodes, ignoreLines); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
	if d.StartLine != 6 || d.EndLine != 35 || d.Nodes[1].Line != 15 || d.Version != "v1.36.3" || d.Layout != LayoutV126 {
		t.Errorf("lines %d–%d, node-a at %d, version %q, layout %q", d.StartLine, d.EndLine, d.Nodes[1].Line, d.Version, d.Layout)
	}
	if !d.Queue.HasSummary || d.Queue.Unschedulable != 1 || len(d.Queue.Pods) != 1 {
		t.Errorf("queue %+v", d.Queue)
	}
}

// TestWriteRoundTrip writes the scenario in every layout and encoding and
// reads it back.
func TestWriteRoundTrip(t *testing.T) {
	in := &Dump{Nodes: scenarioNodes, Queue: Queue{HasSummary: true, ActiveQ: 3, BackoffQ: 2, Unschedulable: 1, Pods: []Pod{preemptor}}}
	for _, layout := range []Layout{LayoutV118, LayoutV119, LayoutV123, LayoutV124, LayoutV126} {
		for _, enc := range []Encoding{Text, JSON} {
			if layout == LayoutV118 && enc == JSON {
				continue // --logging-format arrived in v1.19
			}
			var buf bytes.Buffer
			if err := Write(&buf, in, WriteOptions{Layout: layout, Encoding: enc}); err != nil {
				t.Fatal(err)
			}
			d, err := Parse(&buf)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", layout, enc, err, buf.String())
			}
			if d.Layout != layout || d.Encoding != enc {
				t.Errorf("%s %s: read as %s %s", layout, enc, d.Layout, d.Encoding)
			}
			if diff := cmp.Diff(in.Nodes, d.Nodes, ignoreLines); diff != "" {
				t.Errorf("%s %s: nodes (-want +got):\n%s", layout, enc, diff)
			}
			if want := len(in.Queue.Pods); len(d.Queue.Pods) != want || d.Queue.HasSummary != (layout == LayoutV126) {
				t.Errorf("%s %s: queue %+v", layout, enc, d.Queue)
			}
		}
	}
}

// TestEmptyCache: a value without line breaks is quoted (`nodes=""`).
func TestEmptyCache(t *testing.T) {
	log := `I0101 00:00:00.000000       1 dumper.go:52] "Dump of cached NodeInfo" nodes=""
I0101 00:00:00.000001       1 dumper.go:62] "Dump of scheduling queue" summary="activeQ:0; backoffQ:0; unschedulablePods:0" pods=""
`
	d, err := Parse(strings.NewReader(log))
	if err != nil || len(d.Nodes) != 0 || len(d.Queue.Pods) != 0 || d.EndLine != 2 {
		t.Fatalf("got %+v, %v", d, err)
	}
}

// TestTruncatedAtEveryLine cuts every vector after each of its lines and
// after a few bytes into each line: the result is an error, never a dump
// with fewer nodes or pods, except where the format cannot tell (the ≤ v1.23
// queue record has no end marker), which is flagged with a warning.
func TestTruncatedAtEveryLine(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.log")
	for _, f := range files {
		data := readVector(t, filepath.Base(f))
		full, err := Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var cuts []int
		for i := range data {
			if data[i] == '\n' {
				cuts = append(cuts, i+1, i+1+7) // after the line, and 7 bytes into the next
			}
		}
		for _, cut := range cuts {
			if cut >= len(data) {
				continue
			}
			d, err := Parse(bytes.NewReader(data[:cut]))
			lines := bytes.Count(data[:cut], []byte("\n"))
			switch {
			case err != nil:
				if !IsNoDump(err) && !isFormatError(err) {
					t.Errorf("%s cut at byte %d: unexpected error type %T: %v", f, cut, err, err)
				}
				if lines >= full.EndLine && data[cut-1] == '\n' {
					t.Errorf("%s cut after line %d, after the dump: %v", f, lines, err)
				}
			case lines < full.EndLine && len(d.Warnings) == 0:
				t.Errorf("%s cut at byte %d (line %d of a dump ending at %d): no error, %d nodes", f, cut, lines, full.EndLine, len(d.Nodes))
			case !cmp.Equal(full.Nodes, d.Nodes):
				t.Errorf("%s cut at byte %d: nodes differ", f, cut)
			}
		}
	}
}

func isFormatError(err error) bool {
	var fe *FormatError
	return errors.As(err, &fe)
}

// TestInterleaved puts a line of another record inside a dump.
func TestInterleaved(t *testing.T) {
	foreign := `I1122 02:33:37.773690   14990 eventhandlers.go:118] "Add event for unscheduled pod" pod="default/late"`
	for _, tc := range []struct {
		vector string
		after  string // insert the foreign line after the first line with this text
		line   int    // the line the error must name
	}{
		// v1.24+: any line that does not start with a tab inside nodes=<.
		{"v1.36.3.log", "name: web-1", 19},
		{"v1.24.17.log", "Deleted: false", 15},
		// ≤ v1.23: a record that starts before a node's counted pods are all there.
		{"v1.23.17.log", "name: web-1", 20},
		{"v1.18.20.log", "name: web-1", 20},
		// ≤ v1.23: a stray line that is not a klog record.
		{"v1.20.15.log", "Scheduled Pods(number: 2):", 19},
	} {
		t.Run(tc.vector, func(t *testing.T) {
			line := foreign
			if strings.HasPrefix(tc.vector, "v1.20") {
				line = "panic: something else entirely"
			}
			lines := strings.Split(string(readVector(t, tc.vector)), "\n")
			for i, l := range lines {
				if strings.Contains(l, tc.after) {
					lines = append(lines[:i+1], append([]string{line}, lines[i+1:]...)...)
					break
				}
			}
			_, err := Parse(strings.NewReader(strings.Join(lines, "\n")))
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line != tc.line {
				t.Fatalf("got %v; want a FormatError at line %d", err, tc.line)
			}
			t.Log(err)
		})
	}
}

// TestBetweenNodeRecords: before v1.24 each node is its own record, so other
// goroutines' records may come between them (the vectors have one).
func TestBetweenNodeRecords(t *testing.T) {
	d, err := Parse(bytes.NewReader(readVector(t, "v1.22.17.log")))
	if err != nil || len(d.Nodes) != 3 {
		t.Fatalf("got %v, %v", d, err)
	}
}

func TestNoDump(t *testing.T) {
	for name, log := range map[string]string{
		"empty":      "",
		"no dump":    "I1122 02:33:37.639549   14990 server.go:178] \"Starting Kubernetes Scheduler\" version=\"v1.36.3\"\nI1122 02:33:37.660420   14990 server.go:299] \"Handlers synced\"\n",
		"not a klog": "hello\nworld\n",
	} {
		_, err := Parse(strings.NewReader(log))
		var nd *NoDumpError
		if !errors.As(err, &nd) || !strings.Contains(err.Error(), "SIGUSR2") {
			t.Errorf("%s: got %v; want a NoDumpError saying how to trigger a dump", name, err)
		}
		if name == "no dump" && (nd.Version != "v1.36.3" || nd.Lines != 2) {
			t.Errorf("%s: %+v", name, nd)
		}
	}
}

// TestNewestDump: of two dumps the newer is returned; a broken newer dump is
// an error even when an older one is complete.
func TestNewestDump(t *testing.T) {
	one := string(readVector(t, "v1.36.3.log"))
	second := strings.Replace(one, "MilliCPU:600", "MilliCPU:700", 1)
	d, err := Parse(strings.NewReader(one + second))
	if err != nil || d.Dumps != 2 || d.Nodes[1].Requested.MilliCPU != 700 || d.StartLine != strings.Count(one, "\n")+4 {
		t.Fatalf("got %+v, %v", d, err)
	}
	before, _, _ := strings.Cut(second, "Scheduled Pods(number: 2)")
	cut := one + before
	_, err = Parse(strings.NewReader(cut))
	if err == nil || !strings.Contains(err.Error(), "earlier complete dump is at lines 4–33") {
		t.Fatalf("got %v; want an error naming the earlier dump", err)
	}
}

func TestVersions(t *testing.T) {
	old := strings.Replace(string(readVector(t, "v1.18.20.log")), "version v1.18.20", "version v1.17.5", 1)
	var uv *UnsupportedVersionError
	if _, err := Parse(strings.NewReader(old)); !errors.As(err, &uv) || uv.Version != "v1.17.5" {
		t.Errorf("v1.17: got %v", err)
	}
	newer := strings.Replace(string(readVector(t, "v1.36.3.log")), `version="v1.36.3"`, `version="v1.37.0"`, 1)
	d, err := Parse(strings.NewReader(newer))
	if err != nil || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "newer than v1.36") {
		t.Errorf("v1.37: got %v, %v", d, err)
	}
	wrong := strings.Replace(string(readVector(t, "v1.24.17.log")), `version="v1.24.17"`, `version="v1.30.1"`, 1)
	if d, err := Parse(strings.NewReader(wrong)); err != nil || len(d.Warnings) != 1 {
		t.Errorf("layout/version mismatch: got %v, %v", d, err)
	}
}

// TestTimestampsAndStrippedBlanks: `kubectl logs --timestamps` output, and a
// log whose trailing blanks an editor removed.
func TestTimestampsAndStrippedBlanks(t *testing.T) {
	for _, name := range []string{"v1.36.3.log", "v1.21.14.log"} {
		var stamped, stripped strings.Builder
		for _, l := range strings.SplitAfter(string(readVector(t, name)), "\n") {
			if l != "" {
				stamped.WriteString("2023-11-22T02:33:37.773684123Z " + l)
			}
			stripped.WriteString(strings.TrimRight(strings.TrimSuffix(l, "\n"), " \t"))
			if strings.HasSuffix(l, "\n") {
				stripped.WriteString("\n")
			}
		}
		for what, log := range map[string]string{"timestamps": stamped.String(), "stripped": stripped.String()} {
			d, err := Parse(strings.NewReader(log))
			if err != nil {
				t.Fatalf("%s %s: %v", name, what, err)
			}
			if diff := cmp.Diff(scenarioNodes, d.Nodes, ignoreLines); diff != "" {
				t.Errorf("%s %s: nodes (-want +got):\n%s", name, what, diff)
			}
		}
	}
}

func TestBadLines(t *testing.T) {
	base := string(readVector(t, "v1.36.3.log"))
	for name, repl := range map[string][2]string{
		"count mismatch": {"Scheduled Pods(number: 2)", "Scheduled Pods(number: 3)"},
		"too many pods":  {"Scheduled Pods(number: 2)", "Scheduled Pods(number: 1)"},
		"unknown line":   {"\tDeleted: true", "\tDeleted: true\n\tColour: blue"},
		"bad resource":   {"MilliCPU:600", "MilliCPU:x"},
		"unknown field":  {"MilliCPU:600", "MilliGPU:600"},
		"truncated pod":  {", phase: Running, nominated node: ", ""},
		"bad deleted":    {"Deleted: true", "Deleted: maybe"},
		"bad summary":    {"activeQ:0;", "activeQ:x;"},
		"out of order":   {"\tDeleted: false\n\tRequested", "\tRequested"},
	} {
		log := strings.Replace(base, repl[0], repl[1], 1)
		if log == base {
			t.Fatalf("%s: replacement did not apply", name)
		}
		if d, err := Parse(strings.NewReader(log)); !isFormatError(err) {
			t.Errorf("%s: got %v, %v; want a FormatError", name, d, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
