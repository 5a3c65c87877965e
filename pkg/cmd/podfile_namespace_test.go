package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

const noNamespaceDeployment = "testdata/pods/deployment-nons.yaml"

// TestPodFileNamespace: a --pod-file object without metadata.namespace is
// in -n, else the context's namespace, else default (kubectl apply -f);
// replica names, the summary and --bind-for agree.
func TestPodFileNamespace(t *testing.T) {
	replicaNames := func(t *testing.T, args ...string) (names []string, workload string) {
		t.Helper()
		r := run(t, "", append([]string{"why", "-f", replicasFixture, "--pod-file", noNamespaceDeployment, "-o", "json"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
		var rep v1alpha1.SchedulingReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Pods {
			names = append(names, p.Pod)
		}
		return names, rep.Replicas.Workload
	}
	for _, tc := range []struct {
		name, kubeNS string
		args         []string
		want         string
	}{
		{"no -n, no context namespace", "", nil, "default"},
		{"-n", "", []string{"-n", "team-a"}, "team-a"},
		{"context namespace", "ctx-ns", nil, "ctx-ns"},
		{"-n over the context's", "ctx-ns", []string{"-n", "team-a"}, "team-a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.kubeNS == "" {
				noKubeconfig(t)
			} else {
				withKubeconfig(t, tc.kubeNS)
			}
			names, workload := replicaNames(t, tc.args...)
			if workload != "Deployment "+tc.want+"/checkout" {
				t.Errorf("workload %q, want Deployment %s/checkout", workload, tc.want)
			}
			if len(names) != 2 {
				t.Fatalf("replicas %v, want 2", names)
			}
			for _, n := range names {
				if !strings.HasPrefix(n, tc.want+"/checkout-") {
					t.Errorf("replica %q not in namespace %s", n, tc.want)
				}
			}
		})
	}

	// simulate --bind-for names a replica in the namespace it was given.
	noKubeconfig(t)
	names, _ := replicaNames(t, "-n", "team-a")
	r := run(t, "", "simulate", "-f", replicasFixture, "--pod-file", noNamespaceDeployment, "-n", "team-a", "--bind-for", names[0]+"=lost", "-o", "json")
	if r.code != 0 {
		t.Errorf("simulate --bind-for %s: exit %d\n%s", names[0], r.code, r.stderr)
	}
}

// TestPodFileNamespaceConflict: -n contradicting an object's own namespace
// is refused in kubectl's words; without -n the object's own is kept.
func TestPodFileNamespaceConflict(t *testing.T) {
	noKubeconfig(t)
	want := `the namespace from the provided object "shop" does not match the namespace "team-a". You must pass '--namespace=shop' to perform this operation.`
	for _, args := range [][]string{
		{"why", "--pod-file", "testdata/pods/deployment.yaml"},
		{"requested", "--pod-file", "testdata/pods/deployment.yaml"},
		{"simulate", "--pod-file", "testdata/pods/deployment.yaml"},
	} {
		r := run(t, "", append(args, "-f", replicasFixture, "-n", "team-a")...)
		if r.code != 2 || !strings.Contains(r.stderr, want) {
			t.Errorf("%v -n team-a: exit %d, stderr %q; want exit 2 and %q", args, r.code, r.stderr, want)
		}
	}
	withKubeconfig(t, "team-a")
	r := run(t, "", "why", "-f", replicasFixture, "--pod-file", "testdata/pods/deployment.yaml", "--replicas", "1")
	if r.code != 0 || !strings.Contains(r.stderr, "Deployment shop/api: 1 of 1 replica fits") {
		t.Errorf("context namespace team-a, object in shop: exit %d\n%s", r.code, r.stderr)
	}
}

// TestFileNamespace: pods and claims of -f without a namespace are in -n,
// else the context's namespace, else default; the claim is found by the
// pod that names it.
func TestFileNamespace(t *testing.T) {
	cluster := `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "2", memory: 8Gi, pods: "10"}}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web}
  spec:
    containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]
    volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: data}
  spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: ""}
`
	noKubeconfig(t)
	r := run(t, cluster, "why", "-f", "-", "-n", "team-a", "web")
	if !strings.HasPrefix(r.stdout, "Pod:        team-a/web\n") {
		t.Fatalf("exit %d, want team-a/web:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// The claim is in team-a too: VolumeBinding finds it unbound, where a
	// claim left without a namespace is "not found".
	if !strings.Contains(r.stdout, "VolumeBinding: pod has unbound immediate PersistentVolumeClaims") || strings.Contains(r.stdout, `"data" not found`) {
		t.Errorf("the claim was not found in team-a:\n%s", r.stdout)
	}
	withKubeconfig(t, "ctx-ns")
	r = run(t, cluster, "why", "-f", "-", "web")
	if !strings.HasPrefix(r.stdout, "Pod:        ctx-ns/web\n") {
		t.Errorf("context namespace: the pod is not in ctx-ns:\n%s\n%s", r.stdout, r.stderr)
	}
}
