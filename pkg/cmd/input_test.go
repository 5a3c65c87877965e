package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeInput(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const inputNode = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
`

// TestLoadingLikeTheInformers: the commands load files as the scheduler's
// informers and cache would see them: the same pod twice is an update (the
// later wins, with a warning), and a second pod with the UID of one in the
// cache is refused with the cache's AddPod error as a warning, the first
// kept and the command going on (exit 0).
func TestLoadingLikeTheInformers(t *testing.T) {
	pod := func(name, uid, cpu string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ns, uid: " + uid + "}\n" +
			"spec: {nodeName: n1, containers: [{name: c, image: i, resources: {requests: {cpu: " + cpu + "}}}]}\n"
	}
	path := writeInput(t, "cluster.yaml", inputNode+pod("a", "u1", "1")+pod("a", "u1", "2")+pod("b", "u1", "500m"))
	r := run(t, "", "dump", "-f", path, "-o", "jsonpath={.nodes[0].requested.milliCPU}")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != "2000" {
		t.Errorf("requested %s milliCPU, want 2000: the later a, without b", r.stdout)
	}
	want := `warning: pod "ns/a" in ` + path + ` document 3 replaces the one in ` + path + ` document 2, as an update would
warning: Scheduler cache AddPod failed for pod "ns/b": pod u1(ns/b) was already in added state; the pod is left out, as kube-scheduler does
`
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
}

// TestWhyReadsObjectsFromFiles: why takes the objects its plugins read from
// the same -f list; a claim the files lack is named, one the files hold is
// not.
func TestWhyReadsObjectsFromFiles(t *testing.T) {
	pod := writeInput(t, "pod.yaml", inputNode+`---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, uid: u}
spec:
  containers: [{name: c, image: i}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]
`)
	pvc := writeInput(t, "pvc.yaml", `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ns}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`)
	without := run(t, "", "why", "-f", pod, "-n", "ns", "p")
	if !strings.Contains(without.stderr, "warning: the input has no PersistentVolumeClaim ns/data (used by pod ns/p)") {
		t.Errorf("without the PVC, stderr does not name it:\n%s", without.stderr)
	}
	with := run(t, "", "why", "-f", pod, "-f", pvc, "-n", "ns", "p")
	if strings.Contains(with.stderr, "the input has no") {
		t.Errorf("with the PVC in the files, stderr still says it is missing:\n%s", with.stderr)
	}
	if with.stdout == without.stdout {
		t.Errorf("the PVC changes nothing in the verdict:\n%s", with.stdout)
	}
}

func TestMaxDocumentSize(t *testing.T) {
	path := writeInput(t, "cluster.yaml", inputNode)
	if r := run(t, "", "dump", "-f", path, "--max-document-size", "lots"); r.code != 2 || !strings.Contains(r.stderr, `--max-document-size: "lots" is not a size`) {
		t.Errorf("a bad size: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, "", "dump", "-f", path, "--max-document-size", "64"); r.code != 2 ||
		r.stderr != "error: "+path+": document 1: larger than 64 (raise the limit with --max-document-size)\n" {
		t.Errorf("a tiny limit: exit %d, %q", r.code, r.stderr)
	}
	if r := run(t, "", "dump", "-f", path, "--max-document-size", "1Ki"); r.code != 0 {
		t.Errorf("1Ki: exit %d, %q", r.code, r.stderr)
	}
}

// TestScriptFromStdin: --script reads through the same bounded reader, so
// "-" is standard input.
func TestScriptFromStdin(t *testing.T) {
	path := writeInput(t, "cluster.yaml", inputNode)
	r := run(t, "- op: cleanup\n", "simulate", "-f", path, "--script", "-")
	if r.code != 0 {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}
