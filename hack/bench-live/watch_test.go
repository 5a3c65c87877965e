//go:build benchlive

package benchlive

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

var (
	flagWatchRate     = flag.Int("watch-rate", 100, "API operations per second while --watch runs: pod creations (bound to a node) and deletions, alternating")
	flagWatchDuration = flag.Duration("watch-duration", 60*time.Second, "how long the operations go on")
	flagWatchMaxLag   = flag.Duration("watch-max-lag", 2*time.Second, "fail when the 99th percentile of the lag exceeds this")
	flagWatchGCTrace  = flag.Bool("watch-gctrace", true, "run the plugin with GODEBUG=gctrace=1 and report its largest heap after a collection (the live heap) and before one")
)

const watchNamespace = "bench-watch"

// watchOp is one API operation; the plugin reader records when it was shown.
type watchOp struct {
	key  string // "added NAME" or "removed NAME"
	done time.Time
}

// TestBenchWatch loads -nodes/-pods into a real kube-apiserver, runs
// "kubectl-schedcache dump --watch -o json" as the reader, then creates
// (bound) and deletes pods at -watch-rate operations per second for
// -watch-duration, and measures for every operation the lag from the API
// call's return to the batch naming it ("pod NS/NAME added|removed"), the
// plugin's CPU and peak memory. It fails when an operation is never shown,
// the lag's 99th percentile exceeds -watch-max-lag, or the lag grows
// (falling behind): the median of the last third of the run more than
// twice that of the first third plus one batch interval.
func TestBenchWatch(t *testing.T) {
	root, err := framework.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	plugin, _ := binaries(t, root)
	nodes, pods := clusterObjects(t)
	c := framework.Start(t, framework.Options{})
	ctx := t.Context()
	cs := c.AdminClient()
	if err := prerequisites(ctx, cs); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := framework.LoadObjects(ctx, cs, nodes, pods, *flagWorkers); err != nil {
		t.Fatal(err)
	}
	t.Logf("bench-watch: loaded %d nodes and %d pods in %v", len(nodes), len(pods), time.Since(began).Round(time.Millisecond))
	nodeNames := make([]string, len(nodes))
	for i, n := range nodes {
		nodeNames[i] = n.Name
	}
	debug.FreeOSMemory() // nothing below reads nodes or pods: the collector sees them dead
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: watchNamespace}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	p := startWatchPlugin(t, plugin, c.Kubeconfig(framework.UserReader))
	select {
	case <-p.synced:
		t.Logf("bench-watch: the plugin synced (Initial printed) %v after start", p.syncedAt.Sub(p.started).Round(time.Millisecond))
	case <-time.After(5 * time.Minute):
		t.Fatal("bench-watch: the plugin did not print its initial view")
	}
	cpuBefore := procCPU(t, p.cmd.Process.Pid)

	ops := drive(ctx, t, cs.CoreV1().Pods(watchNamespace), nodeNames)
	// Wait (bounded) until every operation was shown.
	deadline := time.Now().Add(30 * time.Second)
	for p.missing(ops) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond) // polling the reader, not timing the plugin
	}
	cpu := procCPU(t, p.cmd.Process.Pid) - cpuBefore
	rss := procHWM(t, p.cmd.Process.Pid)
	code := p.interrupt()
	reportWatch(t, p, ops, cpu, rss, code)
}

// drive runs the operations at -watch-rate for -watch-duration: even ones
// create a pod bound to the next node (round robin), odd ones delete the
// oldest pod created. Each runs in its own goroutine so that a slow request
// does not delay the schedule.
func drive(ctx context.Context, t *testing.T, pods podClient, nodes []string) []*watchOp {
	interval := time.Second / time.Duration(*flagWatchRate)
	total := int(flagWatchDuration.Seconds() * float64(*flagWatchRate))
	ops := make([]*watchOp, total)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		created []string
		errs    int
	)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	zero := int64(0)
	for i := 0; i < total; i++ {
		<-tick.C
		op := &watchOp{}
		ops[i] = op
		if i%2 == 0 {
			name := fmt.Sprintf("w-%06d", i/2)
			op.key = "added " + name
			pod := watchPod(name, nodes[(i/2)%len(nodes)])
			wg.Go(func() {
				_, err := pods.Create(ctx, pod, metav1.CreateOptions{})
				mu.Lock()
				defer mu.Unlock()
				op.done = time.Now()
				if err != nil {
					errs++
					return
				}
				created = append(created, pod.Name)
			})
			continue
		}
		mu.Lock()
		var name string
		if len(created) > 0 {
			name, created = created[0], created[1:]
		}
		mu.Unlock()
		if name == "" {
			op.key = "" // nothing to delete yet
			continue
		}
		op.key = "removed " + name
		wg.Go(func() {
			err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
			mu.Lock()
			defer mu.Unlock()
			op.done = time.Now()
			if err != nil {
				errs++
			}
		})
	}
	wg.Wait()
	if errs > 0 {
		t.Errorf("bench-watch: %d API operations failed", errs)
	}
	var out []*watchOp
	for _, op := range ops {
		if op.key != "" {
			out = append(out, op)
		}
	}
	return out
}

type podClient interface {
	Create(context.Context, *corev1.Pod, metav1.CreateOptions) (*corev1.Pod, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
}

func watchPod(name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: watchNamespace, Name: name},
		Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{
			Name: "app", Image: "registry.k8s.io/pause:3.10",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
				corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("16Mi")}},
		}}},
	}
}

// watchPlugin is the plugin running "dump --watch -o json".
type watchPlugin struct {
	cmd               *exec.Cmd
	started, syncedAt time.Time
	synced            chan struct{}
	done              chan struct{}

	mu      sync.Mutex
	seen    map[string]time.Time // "added NAME" → when first shown
	batches int
	bytes   int64
	// heapLive and heapPeak are the largest heap after and before a
	// collection, in MB, from the plugin's gctrace lines.
	heapLive, heapPeak int
}

func startWatchPlugin(t *testing.T, plugin, kubeconfig string) *watchPlugin {
	p := &watchPlugin{synced: make(chan struct{}), done: make(chan struct{}), seen: map[string]time.Time{}}
	p.cmd = exec.Command(plugin, "dump", "--watch", "-o", "json", "--kubeconfig", kubeconfig)
	if *flagWatchGCTrace {
		p.cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1")
		errPipe, err := p.cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		go p.readGCTrace(errPipe)
	} else {
		p.cmd.Stderr = os.Stderr
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.started = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	go p.read(out)
	return p
}

// read decodes the CacheWatchEvent stream, noting when each reason arrives.
func (p *watchPlugin) read(out io.Reader) {
	defer close(p.done)
	cr := &countingReader{r: bufio.NewReaderSize(out, 1<<20)}
	dec := json.NewDecoder(cr)
	prefix := "pod " + watchNamespace + "/"
	for {
		var ev v1alpha1.CacheWatchEvent
		if err := dec.Decode(&ev); err != nil {
			return
		}
		now := time.Now()
		p.mu.Lock()
		p.bytes = cr.n
		if ev.Type == "Initial" {
			p.syncedAt = now
			close(p.synced)
		} else {
			p.batches++
		}
		for _, ch := range ev.Changes {
			for _, r := range ch.Reasons {
				name, ok := strings.CutPrefix(r, prefix)
				if !ok {
					continue
				}
				// "w-000001 added" → "added w-000001"
				if n, verb, ok := strings.Cut(name, " "); ok {
					key := verb + " " + n
					if _, dup := p.seen[key]; !dup {
						p.seen[key] = now
					}
				}
			}
		}
		p.mu.Unlock()
	}
}

// readGCTrace reads "gc N @…: A->B->C MB, D MB goal, …" lines; other
// lines go to the test's stderr.
func (p *watchPlugin) readGCTrace(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		mb := strings.Index(line, " MB, ")
		if !strings.HasPrefix(line, "gc ") || mb < 0 {
			fmt.Fprintln(os.Stderr, line)
			continue
		}
		fields := strings.Fields(line[:mb])
		var before, after, live int
		if _, err := fmt.Sscanf(fields[len(fields)-1], "%d->%d->%d", &before, &after, &live); err == nil {
			p.mu.Lock()
			p.heapLive, p.heapPeak = max(p.heapLive, live), max(p.heapPeak, before)
			p.mu.Unlock()
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

func (p *watchPlugin) missing(ops []*watchOp) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, op := range ops {
		if _, ok := p.seen[op.key]; !ok {
			n++
		}
	}
	return n
}

func (p *watchPlugin) interrupt() int {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	err := p.cmd.Wait()
	<-p.done
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// procCPU is the user+system CPU time of pid so far.
func procCPU(t *testing.T, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// procHWM is the peak resident memory of pid, in KiB.
func procHWM(t *testing.T, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	return kib(statusField(data, "VmHWM"))
}

func reportWatch(t *testing.T, p *watchPlugin, ops []*watchOp, cpu time.Duration, rssKiB int64, code int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var lags []time.Duration
	missed := 0
	thirds := [3][]time.Duration{}
	for i, op := range ops {
		seen, ok := p.seen[op.key]
		if !ok || op.done.IsZero() {
			missed++
			continue
		}
		lag := max(seen.Sub(op.done), 0)
		lags = append(lags, lag)
		thirds[i*3/len(ops)] = append(thirds[i*3/len(ops)], lag)
	}
	pct := func(ls []time.Duration, q float64) time.Duration {
		if len(ls) == 0 {
			return 0
		}
		s := append([]time.Duration(nil), ls...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[min(len(s)-1, int(q*float64(len(s))))]
	}
	rate := float64(*flagWatchRate)
	var b strings.Builder
	fmt.Fprintf(&b, "\nbench-watch: %d operations at %.0f/s for %v (pods created bound, then deleted); kube-apiserver %s\n",
		len(ops), rate, *flagWatchDuration, framework.KubernetesVersion)
	fmt.Fprintf(&b, "machine: %s; load average %s\n", machine(), loadAvg())
	fmt.Fprintf(&b, "initial view after %v; %d batches, %.1f MB of JSON\n", p.syncedAt.Sub(p.started).Round(time.Millisecond), p.batches, float64(p.bytes)/1e6)
	fmt.Fprintf(&b, "lag from the API call's return to the batch naming it: p50 %v, p95 %v, p99 %v, max %v; %d never shown\n",
		pct(lags, 0.5).Round(time.Millisecond), pct(lags, 0.95).Round(time.Millisecond), pct(lags, 0.99).Round(time.Millisecond), pct(lags, 1).Round(time.Millisecond), missed)
	fmt.Fprintf(&b, "median lag by third of the run: %v, %v, %v\n",
		pct(thirds[0], 0.5).Round(time.Millisecond), pct(thirds[1], 0.5).Round(time.Millisecond), pct(thirds[2], 0.5).Round(time.Millisecond))
	fmt.Fprintf(&b, "plugin: %.1f s CPU during the operations (%.0f%% of one core), peak RSS %.0f MiB; exit code after SIGINT %d\n",
		cpu.Seconds(), 100*cpu.Seconds()/flagWatchDuration.Seconds(), float64(rssKiB)/1024, code)
	if *flagWatchGCTrace {
		fmt.Fprintf(&b, "plugin heap (gctrace): at most %d MB live after a collection, %d MB before one\n", p.heapLive, p.heapPeak)
	}
	fmt.Print(b.String())
	if missed > 0 {
		t.Errorf("bench-watch: %d operations never shown", missed)
	}
	if p99 := pct(lags, 0.99); p99 > *flagWatchMaxLag {
		t.Errorf("bench-watch: lag p99 %v > -watch-max-lag %v", p99, *flagWatchMaxLag)
	}
	if first, last := pct(thirds[0], 0.5), pct(thirds[2], 0.5); last > 2*first+200*time.Millisecond {
		t.Errorf("bench-watch: falling behind: median lag %v in the first third, %v in the last", first, last)
	}
	if code != interruptedExit {
		t.Errorf("bench-watch: exit code %d after SIGINT, want %d", code, interruptedExit)
	}
}
