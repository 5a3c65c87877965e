package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

const (
	capturedLog   = "../../internal/schedlog/testdata/captured-v1.36.3.log"
	compareAgree  = "testdata/compare/cluster.yaml"
	compareChange = "testdata/compare/cluster-changed.yaml"
)

// TestCompareGolden compares the real v1.36.3 dump with the cluster it was
// taken of (they agree, exit 0) and with that cluster changed (exit 3).
func TestCompareGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
		code   int
	}{
		{"compare-agree.txt", []string{"compare", "--log", capturedLog, "-f", compareAgree}, ExitOK},
		{"compare-differ.txt", []string{"compare", "--log", capturedLog, "-f", compareChange}, ExitDiffer},
		{"compare-differ-wide.txt", []string{"compare", "--log", capturedLog, "-f", compareChange, "-o", "wide"}, ExitDiffer},
		{"compare-differ.json", []string{"compare", "--log", capturedLog, "-f", compareChange, "-o", "json"}, ExitDiffer},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			r := run(t, "", tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			checkGolden(t, tc.golden, r.stdout)
		})
	}
}

// TestCompareStdin reads the log from stdin, and reports differences with
// exit code 3 and nothing on stderr but the loader's note.
func TestCompareStdin(t *testing.T) {
	log, err := os.ReadFile(capturedLog)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	root := NewCmdSchedCache(genericiooptions.IOStreams{In: bytes.NewReader(log), Out: &out, ErrOut: &errOut})
	root.SetArgs([]string{"compare", "--log", "-", "-f", compareChange, "-o", "json"})
	err = root.ExecuteContext(context.Background())
	msg, code := Outcome(context.Background(), err)
	if code != ExitDiffer || msg != "" {
		t.Fatalf("exit %d, message %q; want 3 and none", code, msg)
	}
	c := decode[v1alpha1.CacheComparison](t, out.Bytes())
	if c.Agree || c.Summary.Differences != 8 || c.Scheduler.Log != "stdin" {
		t.Errorf("agree %v, %d differences, log %q", c.Agree, c.Summary.Differences, c.Scheduler.Log)
	}
}

func decode[T any](t *testing.T, data []byte) *T {
	t.Helper()
	out := new(T)
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return out
}

func TestCompareBadLogs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	full, err := os.ReadFile(capturedLog)
	if err != nil {
		t.Fatal(err)
	}
	// Cut after the line naming node-b (line 24 of the log).
	cut := bytes.Index(full, []byte("\tNode name: node-b\n")) + len("\tNode name: node-b\n")
	truncated := string(full[:cut])
	for _, tc := range []struct {
		name, log string
		want      []string
	}{
		{"no dump", "I1122 02:33:37.639549   14990 server.go:178] \"Starting Kubernetes Scheduler\" version=\"v1.36.3\"\n", []string{"no cache dump", "SIGUSR2", "kill -USR2"}},
		{"truncated", truncated, []string{"line 25", "the log ends inside the dump"}},
		{"interleaved", strings.Replace(string(full), "\tDeleted: false\n", "\tDeleted: false\nW1122 02:33:37.773700   14990 reflector.go:1] \"watch closed\"\n", 1), []string{"line 17", "another log record"}},
		{"old", strings.Replace(string(full), `version="v1.36.3"`, `version="v1.17.2"`, 1), []string{"v1.17.2", "v1.18 through v1.36"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", "compare", "--log", write(tc.name, tc.log), "-f", compareAgree)
			if r.code != ExitError || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q; want 1 and nothing", r.code, r.stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

func TestCompareUsage(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "-f", compareAgree},
		{"compare", "--log", capturedLog, "--from-pod", "x", "-f", compareAgree},
		{"compare", "--log", capturedLog, "--since", "1m", "-f", compareAgree},
		{"compare", "--log", "-", "-f", "-"},
		{"compare", "--from-pod", "a/b/c", "-f", compareAgree},
	} {
		if r := run(t, "", args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2; stderr %s", args, r.code, r.stderr)
		}
	}
}

// fakeAPI serves the pod and its log the way kube-apiserver does, recording
// the log requests' query strings.
type fakeAPI struct {
	pod     *corev1.Pod
	log     []byte
	status  int // of the log request; 0 = 200
	queries []string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "/api/v1/namespaces/" + f.pod.Namespace + "/pods/" + f.pod.Name
	switch r.URL.Path {
	case base:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(f.pod)
	case base + "/log":
		f.queries = append(f.queries, r.URL.RawQuery)
		if f.status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(f.status)
			_ = json.NewEncoder(w).Encode(&metav1.Status{
				TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure, Code: int32(f.status),
				Reason:  metav1.StatusReasonForbidden,
				Message: `pods "` + f.pod.Name + `" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "` + f.pod.Namespace + `"`,
			})
			return
		}
		_, _ = w.Write(f.log)
	default:
		http.NotFound(w, r)
	}
}

// runAgainst runs compare with --server server, as a user would, with an
// empty kubeconfig.
func runAgainst(t *testing.T, server string, args ...string) (string, string, int) {
	t.Helper()
	noKubeconfig(t)
	var out, errOut bytes.Buffer
	cmd := NewCmdCompare(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &out, ErrOut: &errOut})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(append([]string{"--server", server}, args...))
	err := cmd.ExecuteContext(context.Background())
	msg, code := Outcome(context.Background(), err)
	return out.String(), errOut.String() + msg, code
}

// TestCompareFromPod reads the dump through the pods/log subresource of a
// fake API server: the container is found from the pod, --since becomes
// sinceSeconds, and a refused request names the permission to grant.
func TestCompareFromPod(t *testing.T) {
	log, err := os.ReadFile(capturedLog)
	if err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-scheduler-cp"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "kube-scheduler"}}},
	}
	api := &fakeAPI{pod: pod, log: log}
	srv := httptest.NewServer(api)
	defer srv.Close()

	out, stderr, code := runAgainst(t, srv.URL, "--from-pod", "kube-scheduler-cp", "--since", "90s", "-f", compareAgree)
	if code != ExitOK || !strings.Contains(out, "pod kube-system/kube-scheduler-cp lines 6-35") || !strings.Contains(out, "They agree.") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	if len(api.queries) != 1 || api.queries[0] != "container=kube-scheduler&sinceSeconds=90" {
		t.Errorf("log queries %q", api.queries)
	}

	api.status = http.StatusForbidden
	_, stderr, code = runAgainst(t, srv.URL, "--from-pod", "kube-system/kube-scheduler-cp", "-f", compareAgree)
	for _, want := range []string{"cannot get pods/log of pod kube-system/kube-scheduler-cp", `resources: ["pods/log"]`, "namespace kube-system"} {
		if code != ExitError || !strings.Contains(stderr, want) {
			t.Errorf("forbidden: exit %d, stderr lacks %q:\n%s", code, want, stderr)
		}
	}

	api.status = 0
	pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: "sidecar"})
	if _, stderr, code = runAgainst(t, srv.URL, "--from-pod", "kube-system/kube-scheduler-cp", "-f", compareAgree); code != ExitUsage || !strings.Contains(stderr, "choose one with -c") {
		t.Errorf("two containers: exit %d, %s", code, stderr)
	}
	pod.Annotations = map[string]string{defaultContainerAnnotation: "kube-scheduler"}
	if _, stderr, code = runAgainst(t, srv.URL, "--from-pod", "kube-system/kube-scheduler-cp", "-f", compareAgree); code != ExitOK {
		t.Errorf("default container: exit %d, %s", code, stderr)
	}
	if _, stderr, code = runAgainst(t, srv.URL, "--from-pod", "kube-system/nope", "-f", compareAgree); code != ExitError || !strings.Contains(stderr, "not found") {
		t.Errorf("missing pod: exit %d, %s", code, stderr)
	}
}

// TestCompareEveryRelease compares the dump each release v1.18–v1.36 logs
// for the test cluster (internal/schedlog/testdata) with that cluster, modelled
// as the release the log names: they agree.
func TestCompareEveryRelease(t *testing.T) {
	logs, err := filepath.Glob("../../internal/schedlog/testdata/v1.*.log")
	if err != nil || len(logs) < 19 {
		t.Fatalf("%v %v", logs, err)
	}
	for _, log := range logs {
		version := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(log), ".log"), ".json")
		minor := strings.Join(strings.Split(version, ".")[:2], ".")
		r := run(t, "", "compare", "--log", log, "-f", compareAgree)
		if r.code != ExitOK || !strings.Contains(r.stdout, "They agree.") || !strings.Contains(r.stderr, "modelling kube-scheduler "+minor) {
			t.Errorf("%s: exit %d\n%s%s", log, r.code, r.stdout, r.stderr)
		}
	}
}
