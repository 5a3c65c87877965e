package decide

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

func template(app string) v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}},
	}
}

func replicasOf(t *testing.T, obj k8sruntime.Object, n int, nodes []*v1.Node, objs []k8sruntime.Object) (*Workload, []*v1.Pod, []k8sruntime.Object) {
	t.Helper()
	w, err := WorkloadOf(obj)
	if err != nil {
		t.Fatal(err)
	}
	pods, claims, err := w.Replicas(n, nodes, objs)
	if err != nil {
		t.Fatal(err)
	}
	return w, pods, claims
}

func TestDeploymentReplicas(t *testing.T) {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "d1"},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), Template: template("web")}}
	w, pods, _ := replicasOf(t, d, 2, nil, nil)
	if w.Kind != "Deployment" || w.DefaultReplicas != 3 || len(pods) != 2 {
		t.Fatalf("%+v, %d pods", w, len(pods))
	}
	hash := pods[0].Labels[appsv1.DefaultDeploymentUniqueLabelKey]
	owner := pods[0].OwnerReferences[0]
	if hash == "" || pods[0].Name != "web-"+hash+"-0" || pods[1].Name != "web-"+hash+"-1" || pods[0].Labels["app"] != "web" ||
		owner.Kind != "ReplicaSet" || owner.Name != "web-"+hash || owner.Controller == nil || !*owner.Controller ||
		pods[0].Namespace != "shop" || pods[0].UID == pods[1].UID {
		t.Errorf("pods %s %s labels %v owner %+v uid %s", pods[0].Name, pods[1].Name, pods[0].Labels, owner, pods[0].UID)
	}
}

func TestStatefulSetReplicas(t *testing.T) {
	ss := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "db", Name: "pg", UID: "s1"},
		Spec: appsv1.StatefulSetSpec{ServiceName: "pg-hl", Template: template("pg"),
			VolumeClaimTemplates: []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: v1.PersistentVolumeClaimSpec{Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}}}}}}}
	existing := &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "db", Name: "data-pg-0"}}
	_, pods, claims := replicasOf(t, ss, 2, nil, []k8sruntime.Object{existing})
	p := pods[1]
	if p.Name != "pg-1" || p.Spec.Hostname != "pg-1" || p.Spec.Subdomain != "pg-hl" ||
		p.Labels[appsv1.StatefulSetPodNameLabel] != "pg-1" || p.Labels[appsv1.PodIndexLabel] != "1" ||
		len(p.Spec.Volumes) != 1 || p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-pg-1" {
		t.Errorf("pod %s hostname %q subdomain %q labels %v volumes %+v", p.Name, p.Spec.Hostname, p.Spec.Subdomain, p.Labels, p.Spec.Volumes)
	}
	// data-pg-0 exists in the input; data-pg-1 is made, unbound.
	if len(claims) != 1 || claims[0].(*v1.PersistentVolumeClaim).Name != "data-pg-1" || claims[0].(*v1.PersistentVolumeClaim).Spec.VolumeName != "" {
		t.Errorf("claims %+v", claims)
	}
}

func TestDaemonSetReplicas(t *testing.T) {
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "agent", UID: "ds1"},
		Spec: appsv1.DaemonSetSpec{Template: template("agent")}}
	w, pods, _ := replicasOf(t, ds, 99, nodes(node("n1"), node("n2")), nil)
	if !w.PerNode || len(pods) != 2 || pods[1].Name != "agent-n2" {
		t.Fatalf("PerNode %v, %d pods", w.PerNode, len(pods))
	}
	terms := pods[1].Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 1 || terms[0].MatchFields[0].Key != "metadata.name" || terms[0].MatchFields[0].Values[0] != "n2" {
		t.Errorf("affinity %+v", terms)
	}
	var keys []string
	for _, tol := range pods[0].Spec.Tolerations {
		keys = append(keys, tol.Key+":"+string(tol.Effect))
	}
	want := "node.kubernetes.io/not-ready:NoExecute,node.kubernetes.io/unreachable:NoExecute,node.kubernetes.io/disk-pressure:NoSchedule," +
		"node.kubernetes.io/memory-pressure:NoSchedule,node.kubernetes.io/pid-pressure:NoSchedule,node.kubernetes.io/unschedulable:NoSchedule"
	if got := strings.Join(keys, ","); got != want {
		t.Errorf("tolerations %s\nwant %s", got, want)
	}
}

func TestJobAndPodReplicas(t *testing.T) {
	cj := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: "batch", Name: "etl"},
		Spec: batchv1.CronJobSpec{JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](2), Template: template("etl")}}}}
	w, pods, _ := replicasOf(t, cj, 2, nil, nil)
	if w.DefaultReplicas != 2 || pods[0].OwnerReferences[0].Kind != "Job" || pods[1].Name != "etl-1" {
		t.Errorf("cronjob: %+v %s %+v", w, pods[1].Name, pods[0].OwnerReferences)
	}
	p := pod("web").Node("n1").Obj()
	_, pods, _ = replicasOf(t, p, 3, nil, nil)
	if len(pods) != 3 || pods[0].Name != "web" || pods[2].Name != "web-2" || pods[0].Spec.NodeName != "" || pods[1].UID == p.UID {
		t.Errorf("pod copies %s %s node %q uid %s", pods[0].Name, pods[2].Name, pods[0].Spec.NodeName, pods[1].UID)
	}
	if _, err := WorkloadOf(&v1.Service{}); err == nil || !strings.Contains(err.Error(), "neither a Pod nor a workload") {
		t.Errorf("service: %v", err)
	}
}
