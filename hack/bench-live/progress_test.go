//go:build benchlive

package benchlive

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// TestProgressFakeAPI runs the terminal checks of TestBenchLive (progress
// line, ^C mid-listing) at sizes a real kube-apiserver cannot hold on the
// project's machines (one with 150,000 pods needs ~18 GB): against fakeapi,
// which serves the nodes and non-terminal pods of a gen-cluster file (-input,
// else generated with -nodes, -pods and -seed) as protobuf list pages, as the
// apiserver does. It answers from memory, so the listing is bound by the
// client: protobuf decoding and the plugin's per-pod work. make
// bench-progress runs it at 5,000 nodes / 150,000 pods.
func TestProgressFakeAPI(t *testing.T) {
	root, err := framework.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	plugin := *flagPlugin
	if plugin == "" {
		plugin = filepath.Join(root, "bin", "kubectl-schedcache")
	}
	if _, err := os.Stat(plugin); err != nil {
		t.Fatalf("bench-live: %v (make build builds the plugin)", err)
	}
	began := time.Now()
	file := clusterFile(t)
	_, helper := buildHelpers(t, root)
	url, nodes, pods := startFakeAPI(t, root, file)
	t.Logf("bench-live: fakeapi at %s serving %d nodes, %d pods after %v", url, nodes, pods, time.Since(began).Round(time.Millisecond))

	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: fakeapi, cluster: {server: %q}}]
users: [{name: fakeapi, user: {}}]
contexts: [{name: fakeapi, context: {cluster: fakeapi, user: fakeapi}}]
current-context: fakeapi
`, url)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"dump", "-o", "json", "--kubeconfig", kubeconfig}
	if *flagTTYChunkSize > 0 {
		args = append(args, "--chunk-size", strconv.Itoa(*flagTTYChunkSize))
	}

	// A complete listing first (which also warms the page cache), then one
	// timed without a terminal for reference.
	r := runner{helper: helper}
	checkPluginDump(t, r, plugin, kubeconfig, nodes, pods)
	loadBefore := loadAvg()
	plain, err := r.run(nil, plugin, args...)
	if err != nil {
		t.Fatal(err)
	}
	progress := checkProgress(t, plugin, args, nodes, pods)
	interrupt := checkInterrupt(t, plugin, args, pods)

	var b strings.Builder
	fmt.Fprintf(&b, "\nbench-progress: %d nodes, %d non-terminal pods (%s) served by fakeapi from memory: the listing is client-bound\n",
		nodes, pods, filepath.Base(file))
	fmt.Fprintf(&b, "machine: %s; load average before %s, after %s\n", machine(), loadBefore, loadAvg())
	fmt.Fprintf(&b, "%s without a terminal: %v wall, %v CPU, %.1f MiB peak RSS\n",
		strings.Join(args[:3], " "), plain.Wall.Round(time.Millisecond), plain.CPU.Round(time.Millisecond), float64(plain.MaxRSS)/1024)
	fmt.Fprintf(&b, "progress line: %v\n", progress)
	fmt.Fprintf(&b, "Ctrl-C: %v\n", interrupt)
	fmt.Print(b.String())
	checkTerminal(t, progress, interrupt)
}

// startFakeAPI builds and starts fakeapi on file and returns its URL and the
// number of nodes and pods it serves. It runs until the test ends.
func startFakeAPI(t *testing.T, root, file string) (url string, nodes, pods int) {
	bin := filepath.Join(t.TempDir(), "fakeapi")
	build := exec.Command("go", "build", "-tags", "benchlive", "-o", bin, "./hack/bench-live/fakeapi")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bench-live: building fakeapi: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-input", file)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if _, scanErr := fmt.Sscan(line, &url, &nodes, &pods); err != nil || scanErr != nil {
		t.Fatalf("bench-live: fakeapi did not start: %v %v (%q)", err, scanErr, line)
	}
	return url, nodes, pods
}
