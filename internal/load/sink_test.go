package load

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	testingclock "k8s.io/utils/clock/testing"
)

// recordingSink records what a load hands it.
type recordingSink struct {
	got       []string // "node NAME" / "pod NAME", in order
	discarded bool
}

func (s *recordingSink) AddNode(n *corev1.Node) { s.got = append(s.got, "node "+n.Name) }
func (s *recordingSink) AddPod(p *corev1.Pod)   { s.got = append(s.got, "pod "+p.Name) }
func (s *recordingSink) Discard()               { s.discarded = true }

// sinkOrder lists cluster's nodes then pods as recordingSink does.
func sinkOrder(c *Cluster) []string {
	var out []string
	for _, n := range c.Nodes {
		out = append(out, "node "+n.Name)
	}
	for _, p := range c.Pods {
		out = append(out, "pod "+p.Name)
	}
	return out
}

func doc(kind, name, extra string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":%q,"metadata":{"name":%q,"namespace":"ns"}%s}`, kind, name, extra)
}

// TestReadFilesSink: the sink gets every node, then every pod, exactly as
// the Cluster holds them (a terminal pod skipped), or is discarded when the
// input gives a node after a pod or an object twice.
func TestReadFilesSink(t *testing.T) {
	terminal := `,"status":{"phase":"Succeeded"}`
	for _, tc := range []struct {
		name, input string
		discarded   bool
	}{
		{"nodes first", strings.Join([]string{doc("Node", "n1", ""), doc("Node", "n2", ""), doc("Pod", "a", ""), doc("Pod", "done", terminal), doc("Pod", "b", "")}, "\n"), false},
		{"a List", `{"apiVersion":"v1","kind":"List","items":[` + doc("Node", "n1", "") + "," + doc("Pod", "a", "") + `]}`, false},
		{"pods only", doc("Pod", "a", "") + doc("Pod", "b", ""), false},
		{"a node after a pod", doc("Node", "n1", "") + doc("Pod", "a", "") + doc("Node", "n2", ""), true},
		{"a pod twice", doc("Node", "n1", "") + doc("Pod", "a", "") + doc("Pod", "a", `,"spec":{"nodeName":"n1"}`), true},
		{"a pod made terminal", doc("Pod", "a", "") + doc("Pod", "b", "") + doc("Pod", "a", terminal), true},
		{"a node twice", doc("Node", "n1", "") + doc("Node", "n1", ""), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sink := &recordingSink{}
			c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(tc.input), Sink: sink}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sink.discarded != tc.discarded {
				t.Fatalf("discarded %v, want %v (got %v)", sink.discarded, tc.discarded, sink.got)
			}
			if want := sinkOrder(c); !tc.discarded && strings.Join(sink.got, ",") != strings.Join(want, ",") {
				t.Errorf("sink got %v, cluster %v", sink.got, want)
			}
		})
	}
}

// TestReadFilesSinkBatches: over several of the reader's batches, whose
// calls the sink gets from a goroutine of its own (sinkFeed.goAsync), the
// sink has every call in order, none overlapping, by the time ReadFiles
// returns; a node after the pods discards it after the pods it was given.
func TestReadFilesSinkBatches(t *testing.T) {
	in, want := nodeAndPods(3*batchSize + 7)
	for _, late := range []bool{false, true} {
		input := in
		if late {
			input += doc("Node", "n2", "")
		}
		sink := &overlapSink{}
		if _, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(input), Sink: sink}, nil); err != nil {
			t.Fatal(err)
		}
		if sink.overlapped.Load() {
			t.Error("the sink's calls overlapped")
		}
		if sink.discarded != late || strings.Join(sink.got, ",") != strings.Join(want, ",") {
			t.Errorf("late node %v: sink got %d calls (discarded %v), want %d", late, len(sink.got), sink.discarded, len(want))
		}
	}
}

// nodeAndPods is an input of one node, n1, then pods p0..p(pods-1), and
// the calls a sink gets for it.
func nodeAndPods(pods int) (string, []string) {
	var in strings.Builder
	in.WriteString(doc("Node", "n1", ""))
	want := []string{"node n1"}
	for i := range pods {
		in.WriteString(doc("Pod", fmt.Sprintf("p%d", i), ""))
		want = append(want, fmt.Sprintf("pod p%d", i))
	}
	return in.String(), want
}

// overlapSink is a recordingSink that notes calls made while another runs.
type overlapSink struct {
	recordingSink
	running, overlapped atomic.Bool
}

func (s *overlapSink) enter() {
	if s.running.Swap(true) {
		s.overlapped.Store(true)
	}
}

func (s *overlapSink) AddNode(n *corev1.Node) {
	s.enter()
	defer s.running.Store(false)
	s.recordingSink.AddNode(n)
}

func (s *overlapSink) AddPod(p *corev1.Pod) {
	s.enter()
	defer s.running.Store(false)
	s.recordingSink.AddPod(p)
}

func (s *overlapSink) Discard() {
	s.enter()
	defer s.running.Store(false)
	s.recordingSink.Discard()
}

// TestListSink: a live listing hands the sink every node, then every pod,
// in list order, although nodes and pods are listed at the same time.
func TestListSink(t *testing.T) {
	var s server
	sink := &recordingSink{}
	c, err := List(context.Background(), newClient(s.nodes(testNodes), s.pods(testPods)), ListOptions{PageSize: 2, Sink: sink})
	if err != nil {
		t.Fatal(err)
	}
	want := sinkOrder(c)
	if sink.discarded || strings.Join(sink.got, ",") != strings.Join(want, ",") || len(want) != len(testNodes)+len(testPods) {
		t.Errorf("sink got %v (discarded %v), want %v", sink.got, sink.discarded, want)
	}
}

// TestReadFilesProgress: reading files on a terminal shows what was read
// and what the sink was given, ending with the totals.
func TestReadFilesProgress(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	out := &syncWriter{writes: make(chan struct{}, 1)}
	input := doc("Node", "n1", "") + doc("Pod", "a", "") + doc("Pod", "b", "")
	r, w := io.Pipe()
	done := make(chan error)
	go func() {
		_, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: r, Sink: &recordingSink{}, Progress: out, clock: clk}, nil)
		done <- err
	}()
	if _, err := w.Write([]byte(input[:40])); err != nil {
		t.Fatal(err)
	}
	clk.Step(1500 * time.Millisecond)
	<-out.writes
	if _, err := w.Write([]byte(input[40:])); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^\rread 0 MB, [0-9] nodes?, [0-9] pods?; modelled [0-9] nodes?, [0-9] pods? *\rread 0 MB, 1 node, 2 pods; modelled 1 node, 2 pods *\n$`)
	if got := out.String(); !want.MatchString(got) {
		t.Errorf("progress = %q, want it to match %s", got, want)
	}
}

func TestReadProgressLine(t *testing.T) {
	r := &readCount{total: 742_273_236}
	r.bytes.Store(312_400_000)
	r.nodes.Store(5000)
	r.pods.Store(41_000)
	feed := &sinkFeed{sink: &recordingSink{}}
	feed.nodes.Store(5000)
	feed.pods.Store(40_500)
	p := &progress{read: r, feed: feed}
	if got, want := p.line(), "read 312 of 742 MB, 5,000 nodes, 41,000 pods; modelled 5,000 nodes, 40,500 pods"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	r.bytes.Store(r.total)
	p.feed = nil
	if got, want := p.line(), "read 742 MB, 5,000 nodes, 41,000 pods"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}

// TestReadFilesSinkBacklog: a sink that stalls (as the model does while it
// adds every node at the first pod) does not stall the reading: the whole
// input is read, cut, decoded and collected while the sink's first AddPod
// waits, its calls queued (sinkBacklog), and the sink then gets them all,
// in order.
func TestReadFilesSinkBacklog(t *testing.T) {
	pods := 20*batchSize + 3
	in, want := nodeAndPods(pods)
	input := &eofReader{r: strings.NewReader(in), eof: make(chan struct{})}
	sink := &stallingSink{release: make(chan struct{})}
	type result struct {
		c   *Cluster
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: input, Sink: sink}, nil)
		done <- result{c, err}
	}()
	select {
	case <-input.eof:
		close(sink.release)
	case <-time.After(time.Minute):
		close(sink.release)
		t.Fatalf("the input was not read to its end while the sink stalled (%d calls made)", sink.calls.Load())
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.c.Pods) != pods || strings.Join(sink.got, ",") != strings.Join(want, ",") {
		t.Errorf("sink got %d calls, cluster %d pods; want %d calls", len(sink.got), len(r.c.Pods), len(want))
	}
}

// eofReader closes eof once its reader has returned io.EOF.
type eofReader struct {
	r    io.Reader
	eof  chan struct{}
	seen bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF && !e.seen {
		e.seen = true
		close(e.eof)
	}
	return n, err
}

// stallingSink is a recordingSink whose first AddPod waits for release.
type stallingSink struct {
	recordingSink
	release chan struct{}
	calls   atomic.Int64
}

func (s *stallingSink) AddNode(n *corev1.Node) {
	s.calls.Add(1)
	s.recordingSink.AddNode(n)
}

func (s *stallingSink) AddPod(p *corev1.Pod) {
	if s.calls.Add(1) == 2 {
		<-s.release
	}
	s.recordingSink.AddPod(p)
}
