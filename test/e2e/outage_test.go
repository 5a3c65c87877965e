//go:build e2e

package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// waitNote returns the first stderr line after the first skip lines that
// matches re, and the number of stderr lines so far, failing the test
// after timeout.
func (w *watching) waitNote(t *testing.T, re string, skip int, timeout time.Duration) (string, int) {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(timeout)
	for {
		w.mu.Lock()
		lines := strings.SplitAfter(w.stderr.String(), "\n")
		w.mu.Unlock()
		for i := skip; i < len(lines); i++ {
			if line, whole := strings.CutSuffix(lines[i], "\n"); whole && rx.MatchString(line) {
				return line, i + 1
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stderr line matching %q within %v; stderr:\n%s", re, timeout, strings.Join(lines, ""))
		}
		time.Sleep(20 * time.Millisecond) // polling output, not timing the code
	}
}

// stderrLines is the stderr so far, one element per line.
func (w *watching) stderrLines() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Split(strings.TrimRight(w.stderr.String(), "\n"), "\n")
}

// TestWatchThroughAPIServerOutages stops the real kube-apiserver under a
// running dump --watch, for 8 s and then for 40 s, and starts it again
// each time: the loss is said once, with its cause and time, while it
// lasts; the reconnection with its length and the changes caught up; a
// node created while away and one created after it appear; Ctrl-C ends it
// at once.
func TestWatchThroughAPIServerOutages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout+6*watchTimeout)
	defer cancel()
	cs := c.AdminClient()
	alloc := framework.Resources("cpu", "4", "memory", "8Gi", "pods", "110")
	if err := framework.LoadObjects(ctx, cs, []*corev1.Node{framework.NewNode("o-1", alloc)}, nil, 1); err != nil {
		t.Fatal(err)
	}
	dump := startWatching(t, "dump", "--watch", "--kubeconfig="+c.Kubeconfig(framework.UserReader))
	dump.waitLine(t, `^1 nodes?, 0 pods, 0 assumed, 0 pending$`)

	seen := 0
	for i, down := range []time.Duration{8 * time.Second, 40 * time.Second} {
		c.StopAPIServer(t)
		stopped := time.Now()
		lost, n := dump.waitNote(t, `^note: \d\d:\d\d:\d\d: .*retrying with backoff \(Ctrl-C to stop\)$`, seen, watchTimeout)
		t.Logf("outage %d: %s", i+1, lost)
		// The outage itself lasts down; nothing else is timed.
		time.Sleep(down - time.Since(stopped))
		if extra := countMatching(dump.stderrLines()[n:], `retrying|reconnected`); extra != 0 {
			t.Errorf("outage %d: %d more outage notes while it lasted:\n%s", i+1, extra, strings.Join(dump.stderrLines(), "\n"))
		}
		c.RestartAPIServer(t)
		name := []string{"o-2", "o-3"}[i]
		if _, err := c.CreateNode(ctx, framework.NewNode(name, alloc)); err != nil {
			t.Fatal(err)
		}
		// client-go's reflectors retry with a jittered backoff of up to
		// 2×30 s: the reconnection may come that long after the restart.
		back, m := dump.waitNote(t, `^note: \d\d:\d\d:\d\d: reconnected after [0-9hms.]+; \d+ changes? while away$`, n, 2*watchTimeout)
		t.Logf("reconnection %d: %s", i+1, back)
		away := regexp.MustCompile(`after ([0-9hms.]+);`).FindStringSubmatch(back)[1]
		if got, err := time.ParseDuration(away); err != nil || got < down {
			t.Errorf("reconnection %d: %q, want at least the %v the server was down", i+1, back, down)
		}
		dump.waitLine(t, `^`+name+` +<none> +0/110 `)
		seen = m
	}
	began := time.Now()
	code, _, errOut := dump.interrupt(t)
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("dump --watch took %v to end after SIGINT", took)
	}
	if code != 130 {
		t.Errorf("dump --watch after SIGINT: exit %d, stderr %q", code, errOut)
	}
}

func countMatching(lines []string, re string) int {
	rx := regexp.MustCompile(re)
	n := 0
	for _, l := range lines {
		if rx.MatchString(l) {
			n++
		}
	}
	return n
}
