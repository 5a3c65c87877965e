//go:build hostile

// Package hostile feeds hostile input to the real plugin binary: devices,
// pipes without a writer, gigabyte lines, nesting millions of levels deep,
// random bytes, duplicate keys and terminal escape sequences. Every shape is
// generated at test time (nothing large is committed) and must end within
// a time bound with the expected exit code, a one-line error without raw
// control bytes, and a peak RSS under HOSTILE_MAX_RSS (default 1 GiB),
// measured by the kernel (rusage) with the plugin's own garbage-collector
// settings. Run with `make hostile`.
package hostile

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// timeLimit bounds each run: every hostile input ends well within it.
	timeLimit = 20 * time.Second
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

// nested returns depth opening brackets (or `{"a":`), then as many closing.
func nested(open, close string, depth int) io.Reader {
	return io.MultiReader(times(open, depth), times(close, depth))
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
		{name: "/dev/zero as -f", args: []string{"dump", "-f", "/dev/zero"}, wantCode: 1,
			wantErr: "/dev/zero: not a regular file (a character device); use - to read standard input"},
		{name: "/dev/zero on stdin", args: []string{"dump", "-f", "-"}, stdinFile: "/dev/zero", wantCode: 1,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "/dev/urandom on stdin", args: []string{"dump", "-f", "-"}, stdinFile: "/dev/urandom", wantCode: 1,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "1 GB of random bytes on stdin", args: []string{"dump", "-f", "-"}, stdin: io.LimitReader(rand.Reader, gib), wantCode: 1,
			wantErr: "stdin: binary data, not YAML or JSON"},
		{name: "a pipe without a writer as -f", setup: mkfifo("pipe.yaml"), args: []string{"dump", "-f", "D/pipe.yaml"}, wantCode: 1,
			wantErr: "D/pipe.yaml: not a regular file (a named pipe); use - to read standard input"},
		{name: "a pipe without a writer in a -f directory", setup: both(mkfifo("pipe.yaml"), write("pod.json", validPod)),
			args: []string{"dump", "-f", "D/"}, wantCode: 0, wantWarning: "warning: skipped D/pipe.yaml: not a regular file (a named pipe)"},
		{name: "a pipe as --script", setup: both(mkfifo("script"), write("pod.json", validPod)),
			args: []string{"simulate", "-f", "D/pod.json", "--script", "D/script"}, wantCode: 1,
			wantErr: "reading --script: D/script: not a regular file (a named pipe); use - to read standard input"},
		{name: "/dev/zero as --pod-file", setup: write("pod.json", validPod),
			args: []string{"simulate", "-f", "D/pod.json", "--pod-file", "/dev/zero"}, wantCode: 1,
			wantErr: "/dev/zero: not a regular file (a character device)"},
		{name: "a 2 GB JSON line", args: []string{"dump", "-f", "-"}, stdin: stream(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "`, 'x', 2*gib), wantCode: 1,
			wantErr: "stdin: document 1: larger than 256Mi (raise the limit with --max-document-size)"},
		{name: "a 2 GB YAML line", args: []string{"dump", "-f", "-"}, stdin: stream("kind: Pod\nmetadata: {name: ", 'x', 2*gib), wantCode: 1,
			wantErr: "stdin: document 1: line 2: larger than 256Mi (raise the limit with --max-document-size)"},
		{name: "2 GB of spaces", args: []string{"dump", "-f", "-"}, stdin: stream("", ' ', 2*gib), wantCode: 1,
			wantErr: "no nodes or pods found in stdin"},
		{name: "2 GB of newlines", args: []string{"dump", "-f", "-"}, stdin: stream("", '\n', 2*gib), wantCode: 1,
			wantErr: "no nodes or pods found in stdin"},
		{name: "10M-deep JSON arrays", args: []string{"dump", "-f", "-"}, stdin: nested("[", "]", 10_000_000), wantCode: 1,
			wantErr: "stdin: document 1: item 1: nested deeper than 10000 levels"},
		{name: "10M-deep JSON objects", args: []string{"dump", "-f", "-"}, stdin: nested(`{"a":`, "}", 10_000_000), wantCode: 1,
			wantErr: "stdin: document 1: nested deeper than 10000 levels"},
		{name: "10M-deep YAML flow sequences", args: []string{"dump", "-f", "-"}, stdin: io.MultiReader(strings.NewReader("a: "), nested("[", "]", 10_000_000)), wantCode: 1,
			wantErr: "stdin: document 1: exceeded max depth of 10000"},
		{name: "10M empty YAML documents", args: []string{"dump", "-f", "-"}, stdin: io.MultiReader(strings.NewReader("kind: x\n"), times("---\n", 10_000_000)), wantCode: 1,
			wantErr: "no nodes or pods found in stdin"},
		{name: "items twice", args: []string{"dump", "-f", "-"},
			stdin: strings.NewReader(`{"kind": "List", "items": [` + validPod + `], "items": []}`), wantCode: 1,
			wantErr: `stdin: document 1: duplicate key "items"`},
		{name: "escape sequences in an object name", args: []string{"dump", "-f", "-"},
			stdin: strings.NewReader(`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ` + jsonString(escapes) + `}, "spec": 5}`), wantCode: 1,
			wantErr: `stdin: document 1: Pod "\x1b]52;c;aGVsbG8=\a\x1b[2J\x1b]0;title\a\u009b31m\r\nforged line": json: cannot unmarshal number`},
		{name: "escape sequences in a file name", setup: write("x"+escapes+".yaml", "\x00binary"), args: []string{"dump", "-f", "D/"}, wantCode: 1,
			wantWarning: `warning: skipped D/x^[]52;c;aGVsbG8=\x07^[[2J^[]0;title\x07\x9b31m forged line.yaml: binary data, not YAML or JSON`,
			wantErr:     "no nodes or pods found in directory D/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			var args []string
			for _, a := range tc.args {
				args = append(args, strings.ReplaceAll(a, "D/", dir+"/"))
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeLimit)
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
				t.Fatalf("still running after %v (killed): stderr %q", timeLimit, stderr.String())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024
			t.Logf("exit %d in %v, peak RSS %d MiB", code, elapsed.Round(time.Millisecond), rss>>20)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.wantCode, stderr.String())
			}
			if rss > limit {
				t.Errorf("peak RSS %d MiB, over the %d MiB bound", rss>>20, limit>>20)
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			for _, line := range lines {
				if i := strings.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
					t.Errorf("a raw control byte %q in stderr line %q", line[i], line)
				}
			}
			wantWarning := strings.ReplaceAll(tc.wantWarning, "D/", dir+"/")
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
			wantErr := strings.ReplaceAll(tc.wantErr, "D/", dir+"/")
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
