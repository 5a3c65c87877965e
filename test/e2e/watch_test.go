//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// watchTimeout bounds each wait for a line of watch output.
const watchTimeout = 60 * time.Second

// watching is a plugin running with --watch, its output read line by line.
type watching struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []string
	stdout strings.Builder // everything, to check nothing is half-printed
	stderr strings.Builder
	next   int // the first line waitLine has not consumed
	done   chan struct{}
}

// startWatching starts the plugin with args; it is interrupted at the end
// of the test if still running.
func startWatching(t *testing.T, args ...string) *watching {
	t.Helper()
	w := &watching{cmd: exec.Command(pluginBinary(t), args...), done: make(chan struct{})}
	w.cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var readers sync.WaitGroup
	readers.Go(func() {
		br := bufio.NewReader(out)
		for {
			line, err := br.ReadString('\n')
			w.mu.Lock()
			w.stdout.WriteString(line)
			if strings.HasSuffix(line, "\n") {
				w.lines = append(w.lines, strings.TrimSuffix(line, "\n"))
			}
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	readers.Go(func() { // as it comes: notes are waited on while it runs
		buf := make([]byte, 4096)
		for {
			n, err := errPipe.Read(buf)
			w.mu.Lock()
			w.stderr.Write(buf[:n])
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	})
	go func() {
		readers.Wait()
		close(w.done)
	}()
	t.Cleanup(func() {
		_ = w.cmd.Process.Signal(syscall.SIGINT)
		_ = w.cmd.Wait()
	})
	return w
}

// waitLine returns the first unconsumed line matching re (and consumes up
// to it), failing the test after watchTimeout.
func (w *watching) waitLine(t *testing.T, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(watchTimeout)
	for {
		w.mu.Lock()
		for i := w.next; i < len(w.lines); i++ {
			if rx.MatchString(w.lines[i]) {
				w.next = i + 1
				line := w.lines[i]
				w.mu.Unlock()
				return line
			}
		}
		all, errs := w.stdout.String(), w.stderr.String()
		w.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no line matching %q within %v; stdout:\n%s\nstderr:\n%s", re, watchTimeout, all, errs)
		}
		time.Sleep(20 * time.Millisecond) // polling output, not timing the code
	}
}

// interrupt sends SIGINT and returns the exit code, stdout and stderr.
func (w *watching) interrupt(t *testing.T) (int, string, string) {
	t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.done:
	case <-time.After(watchTimeout):
		t.Fatal("the plugin did not exit after SIGINT")
	}
	err := w.cmd.Wait()
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return code, w.stdout.String(), w.stderr.String()
}

// TestWatchWithRealScheduler follows the cluster with dump --watch and
// snapshot --watch -o json while pods are created, bound by the real
// scheduler, resized… and deleted, and checks each printed delta: the node,
// the reason, the generation moving and the changed row; then Ctrl-C.
func TestWatchWithRealScheduler(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{AuditLog: true})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout+3*watchTimeout)
	defer cancel()
	cs := c.AdminClient()
	r := framework.Resources
	alloc := r("cpu", "4", "memory", "8Gi", "pods", "110")
	if err := framework.LoadObjects(ctx, cs, []*corev1.Node{framework.NewNode("w-1", alloc), framework.NewNode("w-2", alloc)}, nil, 2); err != nil {
		t.Fatal(err)
	}
	framework.StartScheduler(t, c)
	kc := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)
	dump := startWatching(t, "dump", "--watch", kc)
	snap := startWatching(t, "snapshot", "--watch", "-o", "json", kc)
	dump.waitLine(t, `^2 nodes, 0 pods, 0 assumed, 0 pending$`)

	// A pod bound by hand.
	if err := framework.LoadObjects(ctx, cs, nil, []*corev1.Pod{framework.NewPod("wt", "a", "w-1", r("cpu", "1", "memory", "1Gi"))}, 1); err != nil {
		t.Fatal(err)
	}
	delta := dump.waitLine(t, `^# generation \d+ -> \d+, .*w-1: .*pod wt/a added`)
	checkGenerationMoved(t, delta)
	dump.waitLine(t, `^w-1 +<none> +1/110 +1/4 \(25%\) +1Gi/8Gi \(12%\)$`)

	// A pending pod the real scheduler binds (only w-2 has room for it).
	if err := framework.LoadObjects(ctx, cs, nil, []*corev1.Pod{framework.NewPod("wt", "b", "", r("cpu", "3500m"))}, 1); err != nil {
		t.Fatal(err)
	}
	dump.waitLine(t, `^# generation .*w-2: .*pod wt/b bound`)
	dump.waitLine(t, `^w-2 +<none> +1/110 +3500m/4 \(87%\)`)

	// Deleted (grace period 0: no kubelet).
	if err := cs.CoreV1().Pods("wt").Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	dump.waitLine(t, `^# generation .*w-1: .*pod wt/a removed`)
	dump.waitLine(t, `^w-1 +<none> +0/110 +0/4 \(0%\)`)

	// A node deleted while its pod remains: the NodeInfo stays, a ghost.
	if err := cs.CoreV1().Nodes().Delete(ctx, "w-2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	dump.waitLine(t, `^# generation .*w-2: node removed$`)
	dump.waitLine(t, `^w-2 +<ghost> +1/110 +3500m/4`) // a ghost keeps its last Allocatable

	code, out, errOut := dump.interrupt(t)
	if code != 130 || !strings.HasSuffix(out, "\n") || strings.TrimSpace(errOut) != "interrupted" {
		t.Errorf("dump --watch after SIGINT: exit %d, stderr %q, output ends %q", code, errOut, out[max(0, len(out)-40):])
	}

	// The JSON stream: Initial, then Changed events whose snapshot holds
	// only the changed nodes; the last batch removed w-2 from the snapshot.
	snap.waitLine(t, `"node removed"`)
	code, out, _ = snap.interrupt(t)
	if code != 130 {
		t.Errorf("snapshot --watch -o json: exit %d", code)
	}
	events := decodeWatchEvents(t, out)
	// How many Changed batches there are depends on timing: under load the
	// watcher gathers the pod updates, removal and binding into one batch.
	if len(events) < 2 || events[0].Type != "Initial" || len(events[0].Snapshot.Nodes) != 2 {
		t.Fatalf("events: %+v", events)
	}
	// Under load the watcher may batch the pod's removal from w-1 with
	// the node's: the last batch names w-2 "node removed" (and perhaps
	// w-1), and w-2 is no longer in the snapshot.
	last := events[len(events)-1]
	w2Removed, w2InSnapshot := false, false
	for _, c := range last.Changes {
		w2Removed = w2Removed || (c.Node == "w-2" && slices.Contains(c.Reasons, "node removed"))
	}
	for _, n := range last.Snapshot.Nodes {
		w2InSnapshot = w2InSnapshot || n.Name == "w-2"
	}
	if last.Type != "Changed" || !w2Removed || w2InSnapshot || len(last.Snapshot.Nodes) > 1 {
		t.Errorf("last event %+v, snapshot nodes %+v", last, last.Snapshot.Nodes)
	}
	for i, ev := range events[1:] {
		if ev.Sequence != i+1 || ev.Generation.From != events[i].Generation.To {
			t.Errorf("event %d: sequence %d, generation %+v after %+v", i+1, ev.Sequence, ev.Generation, events[i].Generation)
		}
	}
	checkWatchReadOnly(t, c)
}

// checkWatchReadOnly proves from the audit log that the watching plugins
// (the only clients of the reader user here) only got, listed and watched
// nodes and pods, and did watch both.
func checkWatchReadOnly(t *testing.T, c *framework.Cluster) {
	t.Helper()
	events, err := framework.ReadAuditLog(c.AuditLogPath)
	if err != nil {
		t.Fatal(err)
	}
	watched := map[string]bool{}
	var bad []string
	for _, e := range events {
		if e.User.Username != framework.UserReader {
			continue
		}
		if !readOnlyRequest(e) {
			bad = append(bad, e.String())
		}
		if e.Verb == "watch" && e.ObjectRef != nil {
			watched[e.ObjectRef.Resource] = true
		}
	}
	if len(bad) > 0 || !watched["nodes"] || !watched["pods"] {
		t.Errorf("--watch requests: watched %v; not reads of nodes or pods:\n%s", watched, strings.Join(bad, "\n"))
	}
}

// checkGenerationMoved requires "# generation A -> B" with B > A.
func checkGenerationMoved(t *testing.T, line string) {
	t.Helper()
	var from, to int64
	if _, err := fmt.Sscanf(line, "# generation %d -> %d", &from, &to); err != nil || to <= from {
		t.Errorf("delta line %q: generation did not move (%v)", line, err)
	}
}

func decodeWatchEvents(t *testing.T, out string) []v1alpha1.CacheWatchEvent {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var events []v1alpha1.CacheWatchEvent
	for dec.More() {
		var ev v1alpha1.CacheWatchEvent
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		events = append(events, ev)
	}
	return events
}
