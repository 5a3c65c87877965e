//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/test/e2e/framework"
)

// TestLiveSchedulingKinds lists the kinds kube-scheduler's plugins read
// from a real v1.36 API server: as admin, every kind is served and the
// objects created are listed; as the reader user, who may list nodes and
// pods only (the least-privilege role of docs/rbac.md without the `why`
// rules), each kind is one warning naming the plugins whose verdicts
// become approximate, and the listing succeeds.
func TestLiveSchedulingKinds(t *testing.T) {
	t.Parallel() // each test starts its own cluster; make e2e sets -parallel
	if testing.Short() {
		t.Skip("e2e: starts a real control plane; skipped with -short")
	}
	c := framework.Start(t, framework.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	defer cancel()
	admin := c.AdminClient()
	if _, err := c.CreateNode(ctx, framework.NewNode("node-0", framework.Resources("cpu", "4", "memory", "8Gi", "pods", "110"))); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.StorageV1().StorageClasses().Create(ctx, &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}, Provisioner: "csi.example.com"}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pvc := &corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "data"},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: framework.Resources("storage", "1Gi")},
		},
	}
	if _, err := admin.CoreV1().PersistentVolumeClaims("default").Create(ctx, pvc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	one := intstr.FromInt32(1)
	pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "pdb"}, Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: &one}}
	if _, err := admin.PolicyV1().PodDisruptionBudgets("default").Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The API server creates the default/kubernetes Service in the
	// background after it reports ready; the listing below expects it.
	if err := wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		_, err := admin.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		t.Fatalf("the API server did not create the default/kubernetes Service: %v", err)
	}

	list := func(user string) (*load.Cluster, string) {
		t.Helper()
		cfg := c.RESTConfig(user)
		load.ConfigureClient(cfg, nil)
		client, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var warnings bytes.Buffer
		cluster, err := load.List(ctx, client, load.ListOptions{Host: cfg.Host, Kinds: load.SchedulingKinds, Warnings: &warnings, PageSize: 2})
		if err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		return cluster, warnings.String()
	}

	t.Run("admin", func(t *testing.T) {
		cluster, warnings := list(framework.UserAdmin)
		if warnings != "" || cluster.Unlisted != nil {
			t.Errorf("warnings %q, unlisted %v: a v1.36 API server serves every kind", warnings, cluster.Unlisted)
		}
		got := map[string]bool{}
		for _, o := range cluster.Objects {
			m, err := meta.Accessor(o)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.GetManagedFields()) > 0 {
				t.Errorf("%T %s kept its managedFields", o, m.GetName())
			}
			got[fmt.Sprintf("%T %s/%s", o, m.GetNamespace(), m.GetName())] = true
		}
		for _, want := range []string{
			"*v1.StorageClass /fast", "*v1.PersistentVolumeClaim default/data", "*v1.PodDisruptionBudget default/pdb",
			"*v1.Namespace /kube-system", "*v1.Service default/kubernetes",
		} {
			if !got[want] {
				t.Errorf("no %s among the %d objects listed", want, len(cluster.Objects))
			}
		}
		if len(cluster.Nodes) != 1 {
			t.Errorf("%d nodes", len(cluster.Nodes))
		}
	})

	t.Run("reader without the why rules", func(t *testing.T) {
		cluster, warnings := list(framework.UserReader)
		lines := strings.Split(strings.TrimSuffix(warnings, "\n"), "\n")
		if len(lines) != len(load.SchedulingKinds) || len(cluster.Unlisted) != len(load.SchedulingKinds) || cluster.Objects != nil {
			t.Fatalf("%d warnings, %d unlisted, %d objects; want one warning per kind (%d):\n%s",
				len(lines), len(cluster.Unlisted), len(cluster.Objects), len(load.SchedulingKinds), warnings)
		}
		for i, k := range load.SchedulingKinds {
			want := fmt.Sprintf(`warning: cannot list %s (forbidden for user "reader"): the verdicts of %s may be approximate`,
				k.GVR.GroupResource(), strings.Join(k.Plugins, ", "))
			if lines[i] != want {
				t.Errorf("warning %d:\n got %s\nwant %s", i, lines[i], want)
			}
		}
		if len(cluster.Nodes) != 1 {
			t.Errorf("%d nodes: the nodes and pods must still be listed", len(cluster.Nodes))
		}
	})
}
