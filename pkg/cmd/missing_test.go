package cmd

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestWarnMissingFolds: pending pods of an export without PVCs make one
// line per missing kind, naming the first object and its pod, then how
// many more and the first three of them; not one 300-character line each.
func TestWarnMissingFolds(t *testing.T) {
	var pods []*v1.Pod
	for i := range 5 {
		pods = append(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "db", Name: fmt.Sprintf("pg-%d", i)},
			Spec: v1.PodSpec{Volumes: []v1.Volume{{Name: "d", VolumeSource: v1.VolumeSource{
				PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: fmt.Sprintf("data-pg-%d", i)}}}}}})
	}
	var b strings.Builder
	warnMissing(&b, pods, nil)
	want := "warning: the input has no PersistentVolumeClaim db/data-pg-0 (used by pod db/pg-0) (and 4 more: db/data-pg-1, db/data-pg-2, db/data-pg-3, …); " +
		"the verdicts are kube-scheduler's for a cluster without them (with -f, add them to the files: kubectl get pvc,pv,storageclass,resourceclaims -A -o yaml)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	warnMissing(&b, pods[:1], nil)
	if want := "warning: the input has no PersistentVolumeClaim db/data-pg-0 (used by pod db/pg-0); the verdict is kube-scheduler's for a cluster without it"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("one pod: got %q", b.String())
	}
}

// TestPodFileUIDUnsaid: a --pod-file pod without metadata.uid gets a
// derived UID silently (it is hypothetical: the UID keys it in this run
// only); a pod read with -f still says so.
func TestPodFileUIDUnsaid(t *testing.T) {
	noKubeconfig(t)
	r := run(t, "", "why", "-f", example, "--pod-file", "testdata/pods/small.yaml")
	if strings.Contains(r.stderr, "derived") {
		t.Errorf("--pod-file: stderr mentions the derived UID:\n%s", r.stderr)
	}
	r = run(t, "", "dump", "-f", example, "-f", "testdata/pods/small.yaml")
	if !strings.Contains(r.stderr, "warning: 1 pod without metadata.uid got a UID derived from namespace/name") {
		t.Errorf("-f: stderr does not mention the derived UID:\n%s", r.stderr)
	}
}
