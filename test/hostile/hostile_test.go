//go:build hostile

// Package hostile feeds hostile input to the real plugin binary: devices,
// pipes without a writer, gigabyte lines, nesting millions of levels deep,
// random bytes, duplicate keys and terminal escape sequences. Every shape is
// generated at test time (nothing large is committed) and must end within
// a CPU-time bound with the expected exit code, a one-line error without
// raw control bytes, and a peak RSS under HOSTILE_MAX_RSS (default 1 GiB),
// both measured by the kernel (rusage) with the plugin's own
// garbage-collector settings; a run still going after hangLimit is killed
// and fails. Run with `make hostile`.
package hostile

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
)

const (
	// cpuLimit bounds the CPU time (user and system, from rusage) of each
	// run: every hostile input ends well within it. CPU time, unlike the
	// wall clock, does not grow when other processes load the machine.
	cpuLimit = 20 * time.Second
	// hangLimit is the wall-clock time after which a run is killed and
	// failed as a hang: generous, so that a loaded machine does not make it
	// flake; the silent server's cases wait for its 15 s timeout.
	hangLimit = 60 * time.Second
	gib       = 1 << 30
)

// plugin is the binary under test: SCHEDCACHE_PLUGIN (make hostile builds
// it), else one built here.
func plugin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SCHEDCACHE_PLUGIN"); p != "" {
		return p
	}
	bin := filepath.Join(t.TempDir(), "kubectl-schedcache")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/schedcache/kubectl-schedcache/cmd/kubectl-schedcache")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func maxRSS(t *testing.T) int64 {
	if s := os.Getenv("HOSTILE_MAX_RSS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("HOSTILE_MAX_RSS: %v", err)
		}
		return n
	}
	return gib
}

// stream returns a reader of n bytes: prefix, then fill repeated.
func stream(prefix string, fill byte, n int64) io.Reader {
	return io.MultiReader(strings.NewReader(prefix), io.LimitReader(repeat(fill), n-int64(len(prefix))))
}

type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	if len(p) > 0 {
		p[0] = byte(r)
		for n := 1; n < len(p); n *= 2 {
			copy(p[n:], p[:n])
		}
	}
	return len(p), nil
}

// deep is how many brackets nested opens: far beyond any parser's limit.
const deep = 10_000_000

// nested returns deep opening brackets (or `{"a":`), then as many closing.
func nested(open, close string) io.Reader {
	return io.MultiReader(times(open, deep), times(close, deep))
}

// times streams s n times, without holding the result: the test process
// stays small, so that the child's peak RSS (which counts the parent's
// pages while it is forked) measures the plugin.
func times(s string, n int) io.Reader {
	return io.LimitReader(&cycle{s: s}, int64(len(s))*int64(n))
}

type cycle struct {
	s   string
	off int
}

func (c *cycle) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], c.s[c.off:])
		n += k
		c.off = (c.off + k) % len(c.s)
	}
	return n, nil
}

const validPod = `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns", "uid": "u"}, "spec": {"nodeName": "n"}}`

const validNode = `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`

// silentServer listens on a port of 127.0.0.1, accepts connections and
// never answers, and writes D/kubeconfig for it; D/host holds its address.
func silentServer(t *testing.T, dir string) {
	writeKubeconfig(t, dir, fakeapi.NewSilent(t).URL)
}

// frozenTLSServer is silentServer at an https:// address: the TLS
// handshake never completes.
func frozenTLSServer(t *testing.T, dir string) {
	writeKubeconfig(t, dir, fakeapi.NewSilent(t).TLSURL)
}

// writeKubeconfig writes D/kubeconfig for the server at host, and D/host.
func writeKubeconfig(t *testing.T, dir, host string) {
	kubeconfig := `apiVersion: v1
kind: Config
clusters: [{name: silent, cluster: {server: "` + host + `"}}]
users: [{name: u, user: {}}]
contexts: [{name: silent, context: {cluster: silent, user: u}}]
current-context: silent
`
	if err := os.WriteFile(filepath.Join(dir, "kubeconfig"), []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "host"), []byte(host), 0o600); err != nil {
		t.Fatal(err)
	}
}

type hostileCase struct {
	name  string
	args  []string  // after the plugin; "D/" is the case's directory
	stdin io.Reader // nil: none
	// stdinFile opens a file as stdin (e.g. /dev/zero).
	stdinFile string
	setup     func(t *testing.T, dir string)
	wantCode  int
	// wantErr is what the one error line must contain; "" for success.
	wantErr string
	// wantWarning, when set, must be among the stderr lines.
	wantWarning string
}

func TestHostileInput(t *testing.T) {
	bin := plugin(t)
	limit := maxRSS(t)
	mkfifo := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}
	}
	write := func(name, content string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	both := func(fns ...func(*testing.T, string)) func(*testing.T, string) {
		return func(t *testing.T, dir string) {
			for _, fn := range fns {
				fn(t, dir)
			}
		}
	}
	escapes := "\x1b]52;c;aGVsbG8=\x07\x1b[2J\x1b]0;title\x07\u009b31m\r\nforged line"
	cases := []hostileCase{
		{name: "/dev/zero as -f", args: []string{"dump", "-f", "/dev/zero"}, wantCode: 2,
			wantErr: "/dev/zero: not a regular file (a character device); use - to read standard input"},
		{name: "/dev/zero on stdin", args: []string{"dump", "-f", "-"}, stdinFile: "/dev/zero", wantCode: 2,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "/dev/urandom on stdin", args: []string{"dump", "-f", "-"}, stdinFile: "/dev/urandom", wantCode: 2,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "1 GB of random bytes on stdin", args: []string{"dump", "-f", "-"}, stdin: io.LimitReader(rand.Reader, gib), wantCode: 2,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "a pipe without a writer as -f", setup: mkfifo("pipe.yaml"), args: []string{"dump", "-f", "D/pipe.yaml"}, wantCode: 2,
			wantErr: "D/pipe.yaml: not a regular file (a named pipe); use - to read standard input"},
		{name: "a pipe without a writer in a -f directory", setup: both(mkfifo("pipe.yaml"), write("pod.json", validPod)),
			args: []string{"dump", "-f", "D/"}, wantCode: 0, wantWarning: "warning: skipped D/pipe.yaml: not a regular file (a named pipe)"},
		{name: "a pipe as --script", setup: both(mkfifo("script"), write("pod.json", validPod)),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script"}, wantCode: 2,
			wantErr: "reading --script: D/script: not a regular file (a named pipe); use - to read standard input"},
		{name: "/dev/zero as --pod-file", setup: write("pod.json", validPod),
			args: []string{"simulate", "-f", "D/pod.json", "--pod-file", "/dev/zero"}, wantCode: 2,
			wantErr: "/dev/zero: not a regular file (a character device)"},
		{name: "/dev/zero as --script", setup: write("pod.json", validPod),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "/dev/zero"}, wantCode: 2,
			wantErr: "reading --script: /dev/zero: not a regular file (a character device); use - to read standard input"},
		{name: "a pipe as --pod-file", setup: both(mkfifo("pipe.yaml"), write("node.json", validNode)),
			args: []string{"simulate", "-f", "D/node.json", "--pod-file", "D/pipe.yaml"}, wantCode: 2,
			wantErr: "D/pipe.yaml: not a regular file (a named pipe); use - to read standard input"},
		{name: "a 2 GB line as --script on stdin", setup: write("pod.json", validPod),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "-"}, stdin: stream("- op: ", 'x', 2*gib), wantCode: 2,
			wantErr: "stdin: script: more than the 4 MiB a script may hold (at most 50000 steps)"},
		{name: "a 1 GB JSON line as --pod-file on stdin", setup: write("node.json", validNode),
			args: []string{"simulate", "-f", "D/node.json", "--pod-file", "-"}, stdin: stream(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "`, 'x', gib), wantCode: 2,
			wantErr: "stdin: document 1: larger than 256Mi (raise the limit with --max-document-size)"},
		{name: "10M-deep JSON arrays as --pod-file on stdin", setup: write("node.json", validNode),
			args: []string{"simulate", "-f", "D/node.json", "--pod-file", "-"}, stdin: nested("[", "]"), wantCode: 2,
			wantErr: "stdin: document 1: item 1: nested deeper than 10000 levels"},
		{name: "a 2 GB JSON line", args: []string{"dump", "-f", "-"}, stdin: stream(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "`, 'x', 2*gib), wantCode: 2,
			wantErr: "stdin: document 1: larger than 256Mi (raise the limit with --max-document-size)"},
		{name: "a 2 GB YAML line", args: []string{"dump", "-f", "-"}, stdin: stream("kind: Pod\nmetadata: {name: ", 'x', 2*gib), wantCode: 2,
			wantErr: "stdin: document 1: line 2: larger than 256Mi (raise the limit with --max-document-size)"},
		{name: "1 GB of spaces", args: []string{"dump", "-f", "-"}, stdin: stream("", ' ', gib), wantCode: 2,
			wantErr: "no nodes or pods found in stdin"},
		{name: "2 GB of newlines", args: []string{"dump", "-f", "-"}, stdin: stream("", '\n', 2*gib), wantCode: 2,
			wantErr: "no nodes or pods found in stdin"},
		{name: "10M-deep JSON arrays", args: []string{"dump", "-f", "-"}, stdin: nested("[", "]"), wantCode: 2,
			wantErr: "stdin: document 1: item 1: nested deeper than 10000 levels"},
		{name: "10M-deep JSON objects", args: []string{"dump", "-f", "-"}, stdin: nested(`{"a":`, "}"), wantCode: 2,
			wantErr: "stdin: document 1: nested deeper than 10000 levels"},
		{name: "10M-deep YAML flow sequences", args: []string{"dump", "-f", "-"}, stdin: io.MultiReader(strings.NewReader("a: "), nested("[", "]")), wantCode: 2,
			wantErr: "stdin: document 1: exceeded max depth of 10000"},
		{name: "10M empty YAML documents", args: []string{"dump", "-f", "-"}, stdin: io.MultiReader(strings.NewReader("kind: x\n"), times("---\n", 10_000_000)), wantCode: 2,
			wantErr: "no nodes or pods found in stdin"},
		{name: "items twice", args: []string{"dump", "-f", "-"},
			stdin: strings.NewReader(`{"kind": "List", "items": [` + validPod + `], "items": []}`), wantCode: 2,
			wantErr: `stdin: document 1: duplicate key "items"`},
		{name: "escape sequences in an object name", args: []string{"dump", "-f", "-"},
			stdin: strings.NewReader(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ` + jsonString(escapes) + `}, "spec": 5}`), wantCode: 2,
			wantErr: `stdin: document 1: Pod "\x1b]52;c;aGVsbG8=\a\x1b[2J\x1b]0;title\a\u009b31m\r\nforged line": json: cannot unmarshal number`},
		{name: "next-nodes with a count of 10^8", setup: write("node.json", validNode), args: []string{"next-nodes", "-f", "D/node.json", "--count", "100000000"}, wantCode: 2,
			wantErr: "--count must be at most 100000, got 100000000"},
		{name: "next-nodes with 10^8 cycles", setup: write("node.json", validNode), args: []string{"next-nodes", "-f", "D/node.json", "--cycles", "100000000"}, wantCode: 2,
			wantErr: "--cycles must be at most 1000, got 100000000"},
		{name: "escape sequences in the --pod flag", setup: write("pod.json", validPod), args: []string{"requested", "-f", "D/pod.json", "--pod", "ns/" + escapes}, wantCode: 2,
			wantErr: `pod ns/^[]52;c;aGVsbG8=\x07^[[2J^[]0;title\x07\x9b31m forged line not found in the input`},
		{name: "escape sequences in a --script pod name", setup: both(write("pod.json", validPod), write("script.yaml", "- op: assume\n  pod: "+strings.ReplaceAll(jsonString("ns/"+escapes), "\u009b", `\u009b`)+"\n")),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script.yaml"}, wantCode: 2,
			wantErr: `script step 1 (assume): unknown pod ns/^[]52;c;aGVsbG8=\x07^[[2J^[]0;title\x07\x9b31m forged line: not given`},
		{name: "escape sequences in a --pod-file pod name", setup: both(write("node.json", validNode), write("pending.json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": `+jsonString(escapes)+`, "namespace": "ns"}, "spec": {"containers": [{"name": "c"}]}}`)),
			args: []string{"simulate", "-f", "D/node.json", "--pod-file", "D/pending.json"}, wantCode: 0},
		{name: "escape sequences in a bound pod checked with --pod", setup: write("pod.json", `{"apiVersion": "v1", "kind": "List", "items": [`+validNode+`, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": `+jsonString(escapes)+`, "namespace": "ns", "uid": "u"}, "spec": {"nodeName": "n", "containers": [{"name": "c"}]}}]}`),
			args: []string{"requested", "-f", "D/pod.json", "--pod", "ns/" + escapes}, wantCode: 0,
			wantWarning: `note: pod ns/^[]52;c;aGVsbG8=\x07^[[2J^[]0;title\x07\x9b31m forged line is bound to node n; it is evaluated as if it were pending, without its own requests on that node`},
		{name: "two advance steps past the largest time", setup: both(write("pod.json", validPod), write("script.yaml", "- {op: advance, duration: 2562047h}\n- {op: advance, duration: 2562047h}\n")),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script.yaml"}, wantCode: 2,
			wantErr: "script step 2 (advance): +2562047h0m0s would move the virtual clock past its largest value"},
		{name: "a 1M-step script", setup: both(write("pod.json", validPod), func(t *testing.T, dir string) {
			write("script.yaml", strings.Repeat("- op: advance\n  duration: 1s\n", 1_000_000))(t, dir)
		}), args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script.yaml"}, wantCode: 2,
			wantErr: "script.yaml: script: more than the 4 MiB a script may hold (at most 50000 steps)"},
		{name: "a 60k-step script", setup: both(write("pod.json", validPod), func(t *testing.T, dir string) {
			write("script.yaml", strings.Repeat("- {op: cleanup}\n", 60_000))(t, dir)
		}), args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script.yaml"}, wantCode: 2,
			wantErr: "script: 60000 steps, more than 50000"},
		{name: "a 50000-step script printed as a table", setup: both(write("node.json", validNode), func(t *testing.T, dir string) {
			write("script.yaml", strings.Repeat("- {op: advance, duration: 1s}\n", 50_000))(t, dir)
		}), args: []string{"simulate", "-f", "D/node.json", "--script", "D/script.yaml"}, wantCode: 0},
		{name: "4 MiB of inline pods in a script", setup: both(write("node.json", validNode), func(t *testing.T, dir string) {
			var b strings.Builder
			for i := range 30_000 {
				fmt.Fprintf(&b, "- {op: add, node: \"n\", pod: {metadata: {name: a%d, namespace: ns}, spec: {containers: [{name: c, resources: {requests: {cpu: 1m}}}]}}}\n", i)
			}
			write("script.yaml", b.String())(t, dir)
		}), args: []string{"simulate", "-f", "D/node.json", "--script", "D/script.yaml", "-o", "wide"}, wantCode: 0},
		{name: "a flow-style script of 279001 steps", setup: both(write("pod.json", validPod), func(t *testing.T, dir string) {
			write("script.yaml", "["+strings.Repeat("{op: cleanup},", 279_000)+"{op: cleanup}]")(t, dir)
		}), args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script.yaml"}, wantCode: 2,
			wantErr: "script: 279001 steps, more than 50000"},
		{name: "--ttl 9999999h", setup: write("pod.json", validPod), args: []string{"simulate", "-f", "D/pod.json", "--pending", "--ttl", "9999999h"}, wantCode: 2,
			wantErr: `invalid --ttl "9999999h": want a duration such as 30s or 0, at most 2562047h47m16.854775807s`},
		{name: "a request of 1e30 cpu", setup: write("pod.json", `{"apiVersion": "v1", "kind": "List", "items": [`+validNode+`, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns", "uid": "u"}, "spec": {"nodeName": "n", "containers": [{"name": "c", "resources": {"requests": {"cpu": "1e30"}}}]}}]}`),
			args: []string{"requested", "-f", "D/pod.json"}, wantCode: 0,
			wantWarning: "warning: pod ns/p: spec.containers[0].resources.requests.cpu is 1e30, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here"},
		{name: "a --pod-file pod without containers whose overhead is 1e30 cpu", setup: both(write("node.json", validNode), write("pod.json", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}, "spec": {"overhead": {"cpu": "1e30"}}}`)),
			args: []string{"requested", "-f", "D/node.json", "--pod-file", "D/pod.json"}, wantCode: 0,
			wantWarning: "warning: pod ns/p: spec.overhead.cpu is 1e30, beyond the int64 kube-scheduler counts in; it wraps to 0m, in kube-scheduler as here"},
		{name: "a server that accepts and never answers", setup: silentServer,
			args: []string{"dump", "--kubeconfig", "D/kubeconfig"}, wantCode: 4,
			wantWarning: "note: waiting for the API server at H (Ctrl-C to stop)",
			wantErr:     "cannot reach the API server at H in time: it accepted the connection, then sent no answer within 15s (raise it with --request-timeout)"},
		{name: "a server that accepts and never answers, with --request-timeout", setup: silentServer,
			args: []string{"dump", "--kubeconfig", "D/kubeconfig", "--request-timeout", "2s"}, wantCode: 4,
			wantErr: "cannot reach the API server at H in time: it accepted the connection, then sent no answer within --request-timeout"},
		{name: "a server that accepts and never completes the TLS handshake, with --request-timeout", setup: frozenTLSServer,
			args: []string{"dump", "--kubeconfig", "D/kubeconfig", "--request-timeout", "2s"}, wantCode: 4,
			wantErr: "cannot reach the API server at H in time: it accepted the connection, then did not complete the TLS handshake within --request-timeout (2s)"},
		{name: "a URL whose server accepts and never answers", setup: silentServer,
			args: []string{"dump", "-f", "H/cluster.yaml"}, wantCode: 2,
			wantErr: `unable to read URL "H/cluster.yaml": the server accepted the connection but sent no answer within 15s`},
		{name: "escape sequences in a file name", setup: write("x"+escapes+".yaml", "\x00binary"), args: []string{"dump", "-f", "D/"}, wantCode: 2,
			wantWarning: `warning: skipped D/x^[]52;c;aGVsbG8=\x07^[[2J^[]0;title\x07\x9b31m forged line.yaml: binary data, not YAML or JSON`,
			wantErr:     "no nodes or pods found in directory D/; 1 file skipped (see the warnings above)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			// H is the address of the case's server, if any; in args, H/
			// starts a URL on it.
			host, _ := os.ReadFile(filepath.Join(dir, "host"))
			var args []string
			for _, a := range tc.args {
				a = strings.ReplaceAll(a, "D/", dir+"/")
				if len(host) > 0 && strings.HasPrefix(a, "H/") {
					a = string(host) + a[1:]
				}
				args = append(args, a)
			}
			subst := strings.NewReplacer("D/", dir+"/", "H", string(host))
			if len(host) == 0 {
				subst = strings.NewReplacer("D/", dir+"/")
			}
			ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), "GOGC=", "GOMEMLIMIT=") // the plugin's own settings
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			switch {
			case tc.stdinFile != "":
				f, err := os.Open(tc.stdinFile)
				if err != nil {
					t.Skip(err)
				}
				defer f.Close()
				cmd.Stdin = f
			case tc.stdin != nil:
				cmd.Stdin = tc.stdin
			}
			start := time.Now()
			err := cmd.Run()
			elapsed := time.Since(start)
			if ctx.Err() != nil {
				t.Fatalf("still running after %v (killed as a hang): stderr %q", hangLimit, stderr.String())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			rss := ru.Maxrss * 1024
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			t.Logf("exit %d in %v (CPU %v), peak RSS %d MiB", code, elapsed.Round(time.Millisecond), cpu.Round(time.Millisecond), rss>>20)
			if cpu > cpuLimit {
				t.Errorf("CPU time %v, over the %v bound", cpu.Round(time.Millisecond), cpuLimit)
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.wantCode, stderr.String())
			}
			if rss > limit {
				t.Errorf("peak RSS %d MiB, over the %d MiB bound", rss>>20, limit>>20)
			}
			if i := strings.IndexFunc(stdout.String(), func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
				t.Errorf("a raw control byte %q in stdout %q", stdout.String()[i], stdout.String())
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			for _, line := range lines {
				if i := strings.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
					t.Errorf("a raw control byte %q in stderr line %q", line[i], line)
				}
			}
			wantWarning := subst.Replace(tc.wantWarning)
			if wantWarning != "" && !contains(lines, wantWarning) {
				t.Errorf("stderr lacks %q:\n%s", wantWarning, stderr.String())
			}
			var errorLines []string
			for _, line := range lines {
				if strings.HasPrefix(line, "error: ") {
					errorLines = append(errorLines, line)
				}
			}
			if tc.wantErr == "" {
				if len(errorLines) > 0 {
					t.Errorf("errors: %q", errorLines)
				}
				return
			}
			wantErr := subst.Replace(tc.wantErr)
			if len(errorLines) != 1 || lines[len(lines)-1] != errorLines[0] || !strings.Contains(errorLines[0], wantErr) {
				t.Errorf("stderr %q, want one last line, an error containing %q", stderr.String(), wantErr)
			}
		})
	}
}

func jsonString(s string) string {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(data)
}

func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}
