//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// TestShippedExampleIsReal: examples/cluster.yaml is what it claims to be.
// A v1.36 API server accepts it as it stands ("kubectl create -f", which
// clears resourceVersion as it does for any exported file), and the
// cluster it makes, once each pod's status is written through the status
// subresource (a create drops it; no kubelet writes it here) and the
// terminating pod is deleted with its grace period (its finalizer holds
// it), is the file: dump, requested, snapshot and next-nodes print the
// same JSON live as from the file. Pod UIDs are the one difference, since
// the API server assigns new ones on create; they are matched by
// namespace/name.
func TestShippedExampleIsReal(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	root, err := framework.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	example := filepath.Join(root, "examples", "cluster.yaml")
	// kube-proxy and the elasticsearch init container are privileged, as in
	// every real cluster, whose API servers run with --allow-privileged
	// (kubeadm and the managed offerings set it); its default is false.
	c := framework.Start(t, framework.Options{ExtraAPIServerFlags: []string{"--allow-privileged=true"}})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, realKubectl(t), "--kubeconfig", c.Kubeconfig(framework.UserAdmin), "create", "-f", example)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl create -f examples/cluster.yaml: %v\n%s", err, out)
	}
	pods := examplePods(t, example)
	// 12 Namespaces, 1 PriorityClass, 2 RuntimeClasses, 12 Nodes, the pods.
	if got, want := strings.Count(string(out), " created\n"), 27+len(pods); got != want {
		t.Fatalf("kubectl created %d objects, want %d:\n%s", got, want, out)
	}
	restoreStatus(ctx, t, c.AdminClient(), pods)

	live := "--kubeconfig=" + c.Kubeconfig(framework.UserReader)
	pin := "--kube-version=" + framework.KubernetesVersion
	fromLive := runPlugin(t, nil, "dump", "-o", "json", live, pin)
	fromFile := runPlugin(t, nil, "dump", "-o", "json", "-f", example, pin)
	liveDump := decodeKind[v1alpha1.CacheDump](t, "CacheDump", fromLive.stdout)
	fileDump := decodeKind[v1alpha1.CacheDump](t, "CacheDump", fromFile.stdout)
	if n, want := adoptUIDs(liveDump, fileDump), countCached(pods); n != want {
		t.Errorf("matched %d cached pods by name, want %d (the bound, non-terminal pods)", n, want)
	}
	liveDump.Source, fileDump.Source = "", ""
	if diff := cmp.Diff(fileDump, liveDump); diff != "" {
		t.Errorf("dump: live differs from the file (-file +live):\n%s", diff)
		writeArtifact(t, "example-dump-live.json", fromLive.stdout)
		writeArtifact(t, "example-dump-file.json", fromFile.stdout)
	}
	for _, args := range [][]string{{"requested", "-o", "json"}, {"snapshot", "-o", "json"}, {"next-nodes", "--cycles", "2", "-o", "json"}} {
		a := runPlugin(t, nil, append(args, live, pin)...)
		b := runPlugin(t, nil, append(args, "-f", example, pin)...)
		if a.code != 0 || b.code != 0 {
			t.Fatalf("%v\n%v", a, b)
		}
		if x, y := blankSource(t, a.stdout), blankSource(t, b.stdout); x != y {
			t.Errorf("%s: live differs from the file; %s", args[0], firstDiff(x, y))
		}
	}
	// What kube-scheduler decides for the pending pods, from the objects
	// the admin may list (the reader may list nodes and pods only).
	admin := "--kubeconfig=" + c.Kubeconfig(framework.UserAdmin)
	a := runPlugin(t, nil, "why", "-A", "-o", "json", admin)
	b := runPlugin(t, nil, "why", "-A", "-o", "json", "-f", example)
	if a.code != 1 || b.code != 1 {
		t.Fatalf("why: want exit 1 (pods stay pending) from both\n%v\n%v", a, b)
	}
	if x, y := blankSource(t, a.stdout), blankSource(t, b.stdout); x != y {
		t.Errorf("why: live differs from the file; %s", firstDiff(x, y))
	}
}

// examplePods decodes the Pods of the example file.
func examplePods(t *testing.T, path string) []*corev1.Pod {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	list, ok := obj.(*corev1.List)
	if !ok {
		t.Fatalf("%s is a %T, want a v1 List", path, obj)
	}
	var pods []*corev1.Pod
	for _, item := range list.Items {
		o, _, err := scheme.Codecs.UniversalDeserializer().Decode(item.Raw, nil, nil)
		if err != nil {
			t.Fatalf("decode an item of %s: %v", path, err)
		}
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	return pods
}

// countCached counts the pods the scheduler's cache holds: bound and
// neither Succeeded nor Failed.
func countCached(pods []*corev1.Pod) int {
	n := 0
	for _, p := range pods {
		if p.Spec.NodeName != "" && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			n++
		}
	}
	return n
}

// restoreStatus writes each pod's status from the file on the created pod
// through the status subresource, as a kubelet and the scheduler would
// have, then deletes the pods the file shows terminating with their grace
// period; their finalizers keep them, with a deletionTimestamp.
func restoreStatus(ctx context.Context, t *testing.T, cs kubernetes.Interface, pods []*corev1.Pod) {
	t.Helper()
	for _, want := range pods {
		p, err := cs.CoreV1().Pods(want.Namespace).Get(ctx, want.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p.Status = *want.Status.DeepCopy()
		if _, err := cs.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("status of pod %s/%s: %v", p.Namespace, p.Name, err)
		}
		if want.DeletionTimestamp == nil {
			continue
		}
		if len(want.Finalizers) == 0 || want.DeletionGracePeriodSeconds == nil {
			t.Fatalf("%s/%s is terminating in the file without a finalizer or grace period to hold it", want.Namespace, want.Name)
		}
		opts := metav1.DeleteOptions{GracePeriodSeconds: want.DeletionGracePeriodSeconds}
		if err := cs.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, opts); err != nil {
			t.Fatalf("delete %s/%s: %v", p.Namespace, p.Name, err)
		}
	}
}

// adoptUIDs gives the live dump's pods the UIDs of the file's pods of the
// same namespace/name, and returns how many it matched.
func adoptUIDs(live, file *v1alpha1.CacheDump) int {
	uids := map[string]string{}
	for _, n := range file.Nodes {
		for _, p := range n.Pods {
			uids[p.Namespace+"/"+p.Name] = p.UID
		}
	}
	matched := 0
	for i := range live.Nodes {
		for j := range live.Nodes[i].Pods {
			p := &live.Nodes[i].Pods[j]
			if uid, ok := uids[p.Namespace+"/"+p.Name]; ok {
				p.UID = uid
				matched++
			}
		}
	}
	return matched
}
