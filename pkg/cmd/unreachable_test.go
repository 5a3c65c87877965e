package cmd

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/fakeapi"
)

// refusedURL returns an http:// address where nothing listens: every
// connection is refused.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	_ = l.Close()
	return url
}

// liveCommands are every command that reads a live cluster, with the
// arguments each needs to get to the listing.
var liveCommands = [][]string{
	{"dump"},
	{"dump", "--watch"},
	{"requested"},
	{"requested", "--watch"},
	{"requested", "--pod-file", "testdata/pods/small.yaml"},
	{"snapshot"},
	{"snapshot", "--watch"},
	{"next-nodes"},
	{"why", "-A"},
	{"simulate", "--pending"},
	{"drain", "node-a"},
	{"report", "-o", "OUT/report.html"},
	{"compare", "--from-pod", "kube-scheduler-cp-1"},
}

// TestUnreachableExitCode: a cluster that cannot be reached exits
// ExitUnreachable in every command, --watch included (its first listing
// fails as the plain command's does, instead of retrying), with the
// listing's one error line.
func TestUnreachableExitCode(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	url := refusedURL(t)
	for _, args := range liveCommands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			args = withOut(t, args)
			r := run(t, "", append(args, "--server", url)...)
			if r.code != ExitUnreachable {
				t.Errorf("exit code %d, want %d (stderr %q)", r.code, ExitUnreachable, r.stderr)
			}
			if want := "cannot reach the API server at " + url + ": "; !strings.Contains(r.stderr, want) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, want)
			}
			if strings.Contains(r.stderr, "retrying") {
				t.Errorf("stderr %q: the first listing retried", r.stderr)
			}
		})
	}
}

// TestNoKubeconfig: without a kubeconfig (KUBECONFIG naming files that do
// not exist) and without --server, a live command says so, where it
// looked, and that -f reads files, instead of failing to reach
// localhost:8080; exit code ExitUnreachable, in every command.
func TestNoKubeconfig(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	t.Setenv("KUBECONFIG", missing)
	t.Setenv("KUBERNETES_SERVICE_HOST", "") // not in a pod
	for _, args := range liveCommands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := run(t, "", withOut(t, args)...)
			want := "error: no kubeconfig found (looked at KUBECONFIG=" + missing + ") and no --server: there is no cluster to connect to; " +
				"give --kubeconfig or --server, or read a cluster from files with -f FILE\n"
			if r.stderr != want || r.code != ExitUnreachable {
				t.Errorf("stderr %q, exit %d; want %q, %d", r.stderr, r.code, want, ExitUnreachable)
			}
		})
	}
}

// withOut replaces OUT/ in args with a temporary directory.
func withOut(t *testing.T, args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Replace(a, "OUT/", t.TempDir()+string(os.PathSeparator), 1)
	}
	return out
}

// TestUserAgent: every request names the plugin and its own version (the
// one "version" prints), not client-go's unstamped v0.0.0.
func TestUserAgent(t *testing.T) {
	srv := fakeapi.New(t, fakeClusterFrom(t, "testdata/clusters/edge.yaml").Tracker(), "v1.36.3")
	o := NewDumpOptions(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	if err := runLive(o, srv); err != nil {
		t.Fatal(err)
	}
	want := "kubectl-schedcache/" + BuildVersion().GitVersion + " (" + runtime.GOOS + "/" + runtime.GOARCH + ")"
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no requests")
	}
	for _, r := range reqs {
		if r.UserAgent != want {
			t.Errorf("%s %s: User-Agent %q, want %q", r.Method, r.Path, r.UserAgent, want)
		}
	}
}

// TestExitCodesHelpUnreachable: the one exit-code table (--help) has the
// unreachable code.
func TestExitCodesHelpUnreachable(t *testing.T) {
	want := fmt.Sprintf("\n  %-5dcannot reach the cluster", ExitUnreachable)
	if got := ExitCodesHelp(); !strings.Contains(got, want) {
		t.Errorf("ExitCodesHelp() = %q, want it to contain %q", got, want)
	}
}

// TestRequestTimeoutHelp: --help says what --request-timeout's default
// is, not cli-runtime's `(default "0")` and "zero means don't timeout",
// which the default bound contradicts.
func TestRequestTimeoutHelp(t *testing.T) {
	r := run(t, "", "dump", "--help")
	// The help wraps at 120 columns: read the flag's text as one line,
	// from its name to the next flag.
	help := strings.Join(strings.Fields(r.stdout), " ")
	_, line, ok := strings.Cut(help, "--request-timeout")
	if !ok {
		t.Fatalf("no --request-timeout in dump --help:\n%s", r.stdout)
	}
	line, _, _ = strings.Cut(line, " --s")
	if !strings.Contains(line, "default: 15s for each answer to start") || strings.Contains(line, `(default "0")`) || strings.Contains(line, "don't timeout") {
		t.Errorf("--request-timeout help %q", line)
	}
}

// TestCtrlCWhileConnecting: Ctrl-C while a server holds the TLS handshake
// (GET /version, then the listing) ends the command at once, as an
// interruption (exit 130), in the plain commands and with --watch.
func TestCtrlCWhileConnecting(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	for _, args := range [][]string{{"dump"}, {"why", "-A"}, {"dump", "--watch"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			srv := fakeapi.NewSilent(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-srv.Accepted() // Ctrl-C once the server holds a connection
				cancel()
			}()
			root := NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
			root.SetArgs(append(args, "--server", srv.TLSURL))
			start := time.Now()
			err := root.ExecuteContext(ctx)
			took := time.Since(start)
			if msg, code := Outcome(ctx, err); msg != "interrupted" || code != ExitInterrupted {
				t.Errorf("Outcome = %q, %d; want interrupted, %d (error %v)", msg, code, ExitInterrupted, err)
			}
			if took > 2*time.Second {
				t.Errorf("returned %s after the start, want at once after Ctrl-C", took)
			}
		})
	}
}

// TestSilentServerWatchFailsLikePlain: against a server that accepts and
// never answers, dump --watch fails as dump does: within the one bound
// (--request-timeout here), with the same error and exit code, instead of
// waiting for ever.
func TestSilentServerWatchFailsLikePlain(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "none"))
	const bound = 300 * time.Millisecond
	for _, args := range [][]string{{"dump"}, {"dump", "--watch"}, {"requested", "--watch"}} {
		srv := fakeapi.NewSilent(t)
		start := time.Now()
		r := run(t, "", append(args, "--server", srv.URL, "--request-timeout", bound.String())...)
		if took := time.Since(start); took > bound+700*time.Millisecond {
			t.Errorf("%v: took %s, want about %s", args, took, bound)
		}
		want := "error: cannot reach the API server at " + srv.URL + " in time: it accepted the connection, then sent no answer within --request-timeout (300ms)\n"
		if r.stderr != want || r.code != ExitUnreachable {
			t.Errorf("%v: stderr %q, exit %d; want %q, %d", args, r.stderr, r.code, want, ExitUnreachable)
		}
	}
}
