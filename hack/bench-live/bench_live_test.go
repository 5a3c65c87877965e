//go:build benchlive

package benchlive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/hack/bench-live/internal/jsonlist"
	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

var (
	flagNodes          = flag.Int("nodes", 1000, "nodes of the generated cluster")
	flagPods           = flag.Int("pods", 30000, "pods of the generated cluster (all loaded; the plugin and the floor list the ~99% non-terminal ones)")
	flagSeed           = flag.Uint64("seed", 1, "gen-cluster seed")
	flagInput          = flag.String("input", "", "a gen-cluster file to load instead of generating one")
	flagRuns           = flag.Int("runs", 5, "timed runs of each command, alternating, after one warm-up round")
	flagWorkers        = flag.Int("workers", 64, "concurrent create requests of the loader")
	flagPlugin         = flag.String("plugin", "", "kubectl-schedcache binary (default: bin/kubectl-schedcache of the repository)")
	flagKubectl        = flag.String("kubectl", "", "kubectl binary (default: kubectl next to the control-plane binaries, else kubectl on PATH)")
	flagKubectlMaxPods = flag.Int("kubectl-max-pods", 60000, "time kubectl (b) only up to this many pods: `kubectl get pods -A -o json` holds about 160 KB per pod")
	flagTTY            = flag.Bool("tty", true, "also run the plugin on a pseudo-terminal: progress line and ^C mid-listing")
	flagTTYChunkSize   = flag.Int("tty-chunk-size", 0, "--chunk-size of the plugin on the terminal (0: its default); smaller pages make a small cluster's listing last long enough (over 1s) to show progress")
	flagInterruptLimit = flag.Duration("interrupt-limit", 2*time.Second, "fail when the plugin takes longer than this to exit after ^C")
	flagMaxGap         = flag.Duration("max-gap", time.Second, "fail when the progress line stands still longer than this between two updates (it is redrawn every 100ms while counts change)")
	flagOut            = flag.String("out", "", "also write the results as JSON to this file")
	flagHold           = flag.Duration("hold", 0, "keep the loaded cluster up this long after the measurements, for profiling by hand (its kubeconfig is printed; Ctrl-C ends it)")
)

// results is what the bench reports (and writes with -out).
type results struct {
	Nodes        int
	Pods         int // loaded
	Listed       int // non-terminal pods: what the plugin and the floor list
	Kubectl      string
	Machine      string
	Phases       []phase
	Runs         map[string][]sample
	Medians      map[string]sample
	RSSBias      sample // /bin/true through the rusage helper: the least peak RSS any command can show
	ControlPlane struct {
		Loaded, End []procMem
	}
	LoadAvgBefore, LoadAvgAfter string
	Progress                    *progressReport  `json:",omitempty"`
	Interrupt                   *interruptReport `json:",omitempty"`
}

type phase struct {
	Name string
	Took time.Duration
}

func (r *results) phase(name string, began time.Time) {
	r.Phases = append(r.Phases, phase{name, time.Since(began)})
}

func TestBenchLive(t *testing.T) {
	root, err := framework.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	plugin, kubectl := binaries(t, root)
	res := &results{Runs: map[string][]sample{}, Medians: map[string]sample{}, Machine: machine(), Kubectl: kubectlVersion(kubectl)}

	began := time.Now()
	nodes, pods := clusterObjects(t)
	res.Nodes, res.Pods = len(nodes), len(pods)
	for _, p := range pods {
		if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			res.Listed++
		}
	}
	floor, helper := buildHelpers(t, root)
	res.phase("generate the cluster, build the helpers", began)

	began = time.Now()
	c := framework.Start(t, framework.Options{})
	res.phase("start etcd and kube-apiserver", began)

	began = time.Now()
	ctx := t.Context()
	if err := prerequisites(ctx, c.AdminClient()); err != nil {
		t.Fatal(err)
	}
	if err := framework.LoadObjects(ctx, c.AdminClient(), nodes, pods, *flagWorkers); err != nil {
		t.Fatal(err)
	}
	res.phase(fmt.Sprintf("load %d nodes and %d pods (%d workers)", res.Nodes, res.Pods, *flagWorkers), began)
	res.ControlPlane.Loaded = controlPlaneMem(t)
	// The objects are in the apiserver now and nothing below reads them
	// (so the collector sees them dead): give their memory back to the
	// machine for the commands measured next.
	debug.FreeOSMemory()

	// Everything runs as the read-only user, with kubectl's discovery cache
	// in a temporary directory rather than ~/.kube/cache.
	kubeconfig := c.Kubeconfig(framework.UserReader)
	r := runner{helper: helper, env: []string{"KUBECACHEDIR=" + t.TempDir()}}
	checkPluginDump(t, r, plugin, kubeconfig, res.Nodes, res.Listed)
	if res.RSSBias, err = r.run(nil, "/bin/true"); err != nil {
		t.Fatal(err)
	}

	cmds := []command{
		{Key: "a", Label: "(a) kubectl-schedcache dump -o json", Run: func() (sample, error) {
			return r.run(nil, plugin, "dump", "-o", "json", "--kubeconfig", kubeconfig)
		}},
		{Key: "b", Label: "(b) kubectl get pods -A -o json + get nodes -o json", Run: func() (sample, error) {
			p, err := r.run(nil, kubectl, "get", "pods", "-A", "-o", "json", "--kubeconfig", kubeconfig)
			if err != nil {
				return p, err
			}
			n, err := r.run(nil, kubectl, "get", "nodes", "-o", "json", "--kubeconfig", kubeconfig)
			return sample{Wall: p.Wall + n.Wall, MaxRSS: max(p.MaxRSS, n.MaxRSS), CPU: p.CPU + n.CPU}, err
		}},
		{Key: "c", Label: "(c) client-go protobuf paged list (floor)", Run: func() (sample, error) {
			var out bytes.Buffer
			s, err := r.run(&out, floor, "-kubeconfig", kubeconfig,
				"-page-size", strconv.Itoa(load.DefaultPageSize), "-pod-field-selector", load.PodFieldSelector)
			want := fmt.Sprintf("floor: %d nodes, %d pods,", res.Nodes, res.Listed)
			if err == nil && !strings.HasPrefix(out.String(), want) {
				err = fmt.Errorf("floor listed something else: %s", out.String())
			}
			return s, err
		}},
	}
	if res.Pods > *flagKubectlMaxPods {
		t.Logf("bench-live: %d pods > -kubectl-max-pods=%d: kubectl (b) is not timed", res.Pods, *flagKubectlMaxPods)
		cmds = []command{cmds[0], cmds[2]}
	}

	began = time.Now()
	res.LoadAvgBefore = loadAvg()
	res.Runs = measure(t, cmds, *flagRuns)
	res.LoadAvgAfter = loadAvg()
	for k, ss := range res.Runs {
		res.Medians[k] = median(ss)
	}
	res.phase(fmt.Sprintf("time %d+1 rounds", *flagRuns), began)

	if *flagTTY {
		began = time.Now()
		args := []string{"dump", "-o", "json", "--kubeconfig", kubeconfig}
		if *flagTTYChunkSize > 0 {
			args = append(args, "--chunk-size", strconv.Itoa(*flagTTYChunkSize))
		}
		res.Progress = checkProgress(t, plugin, args, res.Nodes, res.Listed)
		res.Interrupt = checkInterrupt(t, plugin, args, res.Listed)
		res.phase("terminal checks", began)
		checkTerminal(t, res.Progress, res.Interrupt)
	}
	res.ControlPlane.End = controlPlaneMem(t)

	report(t, cmds, res)
	if *flagHold > 0 {
		// Ctrl-C ends the hold early and still runs the cleanups (stopping
		// the control plane, removing etcd's data from /dev/shm).
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		fmt.Printf("bench-live: holding the cluster for %v (Ctrl-C ends it): --kubeconfig %s (admin: %s)\n", *flagHold, kubeconfig, c.Kubeconfig(framework.UserAdmin))
		select {
		case <-time.After(*flagHold):
		case <-ctx.Done():
		}
	}
}

// binaries returns the plugin and kubectl to time.
func binaries(t *testing.T, root string) (plugin, kubectl string) {
	plugin, kubectl = *flagPlugin, *flagKubectl
	if plugin == "" {
		plugin = filepath.Join(root, "bin", "kubectl-schedcache")
	}
	if kubectl == "" {
		// The one of the apiserver's release (make bench-live builds it),
		// else whatever is on PATH.
		kubectl = filepath.Join(filepath.Dir(framework.LocateBinaries(t).KubeAPIServer), "kubectl")
		if _, err := os.Stat(kubectl); err != nil {
			if kubectl, err = exec.LookPath("kubectl"); err != nil {
				t.Fatal("bench-live: no kubectl: pass -kubectl")
			}
		}
	}
	for _, bin := range []string{plugin, kubectl} {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("bench-live: %v (make build builds the plugin)", err)
		}
	}
	return plugin, kubectl
}

// buildHelpers builds the floor (c) like `make build` builds the plugin, and
// the rusage helper.
func buildHelpers(t *testing.T, root string) (floor, rusage string) {
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-tags", "benchlive", "-ldflags", "-s -w", "-o", dir+"/", "./hack/bench-live/floor", "./hack/bench-live/rusage")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench-live: building the helpers: %v\n%s", err, b)
	}
	return filepath.Join(dir, "floor"), filepath.Join(dir, "rusage")
}

// clusterObjects generates (or reads) the cluster and returns its nodes and
// pods, stored-object fields (uid, resourceVersion, ...) cleared for
// creating them. The file is decoded here, not with internal/load, so that what
// is loaded is exactly what gen-cluster wrote, whatever the plugin's own file
// reader keeps. Terminal pods are loaded too, as in a real cluster: kubectl
// lists them, the plugin's field selector skips them.
func clusterObjects(t *testing.T) ([]*corev1.Node, []*corev1.Pod) {
	path := clusterFile(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var nodes []*corev1.Node
	var pods []*corev1.Pod
	err = jsonlist.Each(bufio.NewReaderSize(f, 1<<20), func(item []byte) error {
		var tm metav1.TypeMeta
		if err := json.Unmarshal(item, &tm); err != nil {
			return err
		}
		switch tm.Kind {
		case "Node":
			n := &corev1.Node{}
			if err := json.Unmarshal(item, n); err != nil {
				return err
			}
			n.ObjectMeta = metav1.ObjectMeta{Name: n.Name, Labels: n.Labels, Annotations: n.Annotations}
			// gen-cluster writes swap {capacity: 0}, which the apiserver
			// rejects ("must be greater than zero").
			if s := n.Status.NodeInfo.Swap; s != nil && (s.Capacity == nil || *s.Capacity <= 0) {
				n.Status.NodeInfo.Swap = nil
			}
			nodes = append(nodes, n)
		case "Pod":
			p := &corev1.Pod{}
			if err := json.Unmarshal(item, p); err != nil {
				return err
			}
			p.ObjectMeta = metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels, Annotations: p.Annotations,
				OwnerReferences: p.OwnerReferences, GenerateName: p.GenerateName}
			pods = append(pods, p)
		default:
			return fmt.Errorf("unexpected kind %q", tm.Kind)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("bench-live: %s: %v", path, err)
	}
	return nodes, pods
}

// clusterFile returns -input, else a file gencluster writes with -nodes,
// -pods and -seed.
func clusterFile(t *testing.T) string {
	if *flagInput != "" {
		return *flagInput
	}
	cfg := gencluster.Default()
	cfg.Nodes, cfg.Pods, cfg.Seed = *flagNodes, *flagPods, *flagSeed
	path := filepath.Join(t.TempDir(), "cluster.json")
	if err := gencluster.WriteFile(path, cfg); err != nil {
		t.Fatalf("gencluster: %v", err)
	}
	return path
}

// prerequisites creates what the generated pods refer to: the
// "high-priority" PriorityClass and the "kata" and "gvisor" RuntimeClasses
// with the pod overhead gen-cluster gives their pods.
func prerequisites(ctx context.Context, client kubernetes.Interface) error {
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high-priority"}, Value: 1000000}
	if _, err := client.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil {
		return err
	}
	for name, mem := range map[string]string{"kata": "160Mi", "gvisor": "120Mi"} {
		rc := &nodev1.RuntimeClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Handler: name,
			Overhead: &nodev1.Overhead{PodFixed: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse(mem)}}}
		if _, err := client.NodeV1().RuntimeClasses().Create(ctx, rc, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// checkPluginDump runs the plugin once and checks that its dump holds every
// loaded node and pod: what (a) times is a complete listing.
func checkPluginDump(t *testing.T, r runner, plugin, kubeconfig string, nodes, pods int) {
	var out bytes.Buffer
	if _, err := r.run(&out, plugin, "dump", "-o", "json", "--kubeconfig", kubeconfig); err != nil {
		t.Fatal(err)
	}
	var dump struct {
		Summary struct{ Nodes, Placeholders, Pods, PendingPods int }
	}
	if err := json.Unmarshal(out.Bytes(), &dump); err != nil {
		t.Fatalf("bench-live: plugin output: %v", err)
	}
	s := dump.Summary
	t.Logf("bench-live: plugin dump: %d nodes, %d pods in the cache, %d pending; %d bytes of JSON", s.Nodes, s.Pods, s.PendingPods, out.Len())
	if s.Nodes != nodes || s.Placeholders != 0 || s.Pods+s.PendingPods != pods {
		t.Fatalf("bench-live: plugin dump has %d nodes (%d placeholders) and %d+%d pods, want %d nodes and %d pods",
			s.Nodes, s.Placeholders, s.Pods, s.PendingPods, nodes, pods)
	}
}

// interruptedExit is the plugin's exit code after ^C (README "Exit codes").
const interruptedExit = 130

// checkTerminal fails the test on what the terminal runs show is broken. A
// run that did not exercise the check (the listing too short) only reports.
func checkTerminal(t *testing.T, p *progressReport, i *interruptReport) {
	if p.ExitCode != 0 {
		t.Errorf("bench-live: the plugin on a terminal exited with code %d: %q", p.ExitCode, p.Other)
	}
	if p.Updates > 0 && (!p.Monotonic || !p.Complete) {
		t.Errorf("bench-live: progress line: %v", p)
	}
	// Smooth: the counts move on a page at a time, so a long gap means the
	// plugin stalled the line (GC pauses, a blocked writer, slow pages).
	if p.Updates > 1 && p.MaxGap > *flagMaxGap {
		t.Errorf("bench-live: progress line stood still for %v (-max-gap=%v): %v", p.MaxGap, *flagMaxGap, p)
	}
	if i.Sent && (i.ExitCode != interruptedExit || i.ExitAfter > *flagInterruptLimit) {
		t.Errorf("bench-live: ^C: %v (want exit code %d within -interrupt-limit=%v)", i, interruptedExit, *flagInterruptLimit)
	}
}

func report(t *testing.T, cmds []command, res *results) {
	var b strings.Builder
	fmt.Fprintf(&b, "\nbench-live: %d nodes, %d pods (%d non-terminal, which the plugin and the floor list); kube-apiserver %s, kubectl %s\n",
		res.Nodes, res.Pods, res.Listed, framework.KubernetesVersion, res.Kubectl)
	fmt.Fprintf(&b, "%d timed rounds (a, b, c, a, b, c, ...) after one warm-up round\n", *flagRuns)
	fmt.Fprintf(&b, "machine: %s; load average before %s, after %s\n", res.Machine, res.LoadAvgBefore, res.LoadAvgAfter)
	table(&b, cmds, res.Runs, res.Medians)
	fmt.Fprintf(&b, "peak RSS is each command's own (ru_maxrss through the rusage helper); it cannot show less than %.1f MiB (/bin/true)\n", float64(res.RSSBias.MaxRSS)/1024)
	fmt.Fprintf(&b, "control plane after loading: %s; at the end: %s\n", memString(res.ControlPlane.Loaded), memString(res.ControlPlane.End))
	for _, p := range res.Phases {
		fmt.Fprintf(&b, "phase: %-50s %v\n", p.Name, p.Took.Round(10*time.Millisecond))
	}
	if res.Progress != nil {
		fmt.Fprintf(&b, "progress line: %v\n", res.Progress)
		fmt.Fprintf(&b, "Ctrl-C: %v\n", res.Interrupt)
	}
	fmt.Print(b.String())
	if *flagOut != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err == nil {
			err = os.WriteFile(*flagOut, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// kubectlVersion returns kubectl's client version, or "?".
func kubectlVersion(kubectl string) string {
	out, err := exec.Command(kubectl, "version", "--client", "-o", "json").Output()
	var v struct {
		ClientVersion struct{ GitVersion string }
	}
	if err != nil || json.Unmarshal(out, &v) != nil {
		return "?"
	}
	return v.ClientVersion.GitVersion + " (" + kubectl + ")"
}
