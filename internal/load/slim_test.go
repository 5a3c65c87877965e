package load

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fullPod has every field slimPod looks at set, and what the cache reads.
func fullPod() *corev1.Pod {
	always := corev1.ContainerRestartPolicyAlways
	res := corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}
	container := func(name string) corev1.Container {
		return corev1.Container{
			Name: name, Image: "app:1", Resources: res,
			Ports:   []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: corev1.ProtocolTCP}},
			Command: []string{"run"}, Args: []string{"-v"}, WorkingDir: "/w",
			Env:           []corev1.EnvVar{{Name: "A", Value: "b"}},
			EnvFrom:       []corev1.EnvFromSource{{Prefix: "P"}},
			VolumeMounts:  []corev1.VolumeMount{{Name: "v", MountPath: "/v"}},
			LivenessProbe: &corev1.Probe{}, ReadinessProbe: &corev1.Probe{}, StartupProbe: &corev1.Probe{},
			Lifecycle: &corev1.Lifecycle{}, TerminationMessagePath: "/dev/termination-log",
			TerminationMessagePolicy: corev1.TerminationMessageReadFile, SecurityContext: &corev1.SecurityContext{},
		}
	}
	sidecar := container("sidecar")
	sidecar.RestartPolicy = &always
	status := corev1.ContainerStatus{
		Name: "app", Ready: true, RestartCount: 2, Image: "app:1", ImageID: "sha256:1", ContainerID: "containerd://1",
		State:                corev1.ContainerState{Running: &corev1.ContainerStateRunning{}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{}},
		AllocatedResources:   res.Requests, Resources: &res,
		VolumeMounts: []corev1.VolumeMountStatus{{Name: "v"}},
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"app": "a"}},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{sidecar},
			Containers:     []corev1.Container{container("app")},
			Volumes: []corev1.Volume{
				{Name: "claim", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}},
				{Name: "eph", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{}}},
				{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}},
			},
			NodeName: "n", Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}},
			Overhead: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Mi")},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible,
				LastProbeTime: metav1.Unix(1, 0), LastTransitionTime: metav1.Unix(2, 0)}},
			ContainerStatuses: []corev1.ContainerStatus{status},
		},
	}
}

func TestSlimPod(t *testing.T) {
	pod := fullPod()
	slimPod(pod)

	want := fullPod()
	for _, c := range []*corev1.Container{&want.Spec.InitContainers[0], &want.Spec.Containers[0]} {
		*c = corev1.Container{Name: c.Name, Image: c.Image, Resources: c.Resources, Ports: c.Ports, RestartPolicy: c.RestartPolicy}
	}
	want.Spec.Volumes = want.Spec.Volumes[:2] // the config map volume goes
	s := &want.Status.ContainerStatuses[0]
	*s = corev1.ContainerStatus{Name: s.Name, Ready: s.Ready, RestartCount: s.RestartCount, AllocatedResources: s.AllocatedResources, Resources: s.Resources}
	c := &want.Status.Conditions[0]
	*c = corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason}
	if diff := cmp.Diff(want, pod); diff != "" {
		t.Errorf("slimmed pod (-want,+got):\n%s", diff)
	}
}

func TestTrimDropsSpareCapacity(t *testing.T) {
	pod := fullPod()
	pod.Status.Conditions = append(make([]corev1.PodCondition, 0, 8), pod.Status.Conditions...)
	slimPod(pod)
	if c := pod.Status.Conditions; cap(c) != len(c) || len(c) != 1 {
		t.Errorf("conditions: len %d, cap %d; want 1, 1", len(c), cap(c))
	}
}

func TestListSharer(t *testing.T) {
	s := newListSharer()
	list := func(cpu, mem string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}
	}
	same := func(a, b corev1.ResourceList) bool {
		return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
	}

	first := s.list(list("1", "1Gi"))
	if got := s.list(list("1000m", "1Gi")); !same(got, first) {
		t.Error(`"1000m" is "1": the lists should be shared`)
	}
	if got := s.list(list("1", "1G")); same(got, first) {
		t.Error(`1G is not 1Gi: the lists should differ`)
	}
	if got := s.list(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}); same(got, first) {
		t.Error("a list with fewer names should differ")
	}
	if got := s.list(corev1.ResourceList{}); got == nil || len(got) != 0 {
		t.Errorf("an empty list became %v", got)
	}
	if got := s.list(nil); got != nil {
		t.Errorf("a nil list became %v", got)
	}

	a := s.stringMap(map[string]string{"app": "web", "tier": "1"})
	if b := s.stringMap(map[string]string{"tier": "1", "app": "web"}); reflect.ValueOf(a).Pointer() != reflect.ValueOf(b).Pointer() {
		t.Error("equal label maps should be shared")
	}
	// Keys and values are told apart by their lengths.
	c := s.stringMap(map[string]string{"ab": "c"})
	if d := s.stringMap(map[string]string{"a": "bc"}); reflect.ValueOf(c).Pointer() == reflect.ValueOf(d).Pointer() {
		t.Error(`{ab: c} and {a: bc} should differ`)
	}
	// Different maps hold one copy of a key or value they have in common.
	web, db := s.stringMap(map[string]string{string([]byte("role")): "web"}), s.stringMap(map[string]string{string([]byte("role")): "db"})
	if keyData(web) != keyData(db) {
		t.Error(`the key "role" of two maps should be one string`)
	}
}

// keyData is where the one key of m points.
func keyData(m map[string]string) *byte {
	for k := range m {
		return unsafe.StringData(k)
	}
	return nil
}

func TestSharerKeepsValues(t *testing.T) {
	s := newListSharer()
	first, second := fullPod(), fullPod()
	s.pod(first)
	s.pod(second)
	if diff := cmp.Diff(fullPod(), second); diff != "" {
		t.Errorf("shared pod changed (-before,+after):\n%s", diff)
	}
	if reflect.ValueOf(first.Spec.Containers[0].Resources.Requests).Pointer() != reflect.ValueOf(second.Status.ContainerStatuses[0].AllocatedResources).Pointer() {
		t.Error("a container's requests and its allocated resources are equal and should be shared")
	}
}

// TestReplicasShareContainersAndStatuses: pods whose slimmed containers
// (or container statuses, or conditions) are equal get one slice, whatever
// their mounts, container states and condition times said; a difference
// in any kept field, even one the key does not look at (a port, the pull
// policy), keeps them apart.
func TestReplicasShareContainersAndStatuses(t *testing.T) {
	pod := func(name, mount, port, pull string, restarts int) string {
		ready := "True"
		if pull == "Never" {
			ready = "False"
		}
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","namespace":"n"},"spec":{"nodeName":"x","containers":[
 {"name":"c","image":"i","imagePullPolicy":"` + pull + `","ports":[{"containerPort":` + port + `}],"resources":{"requests":{"cpu":"100m"}},
  "volumeMounts":[{"name":"` + mount + `","mountPath":"/m"}]}]},
 "status":{"phase":"Running","containerStatuses":[{"name":"c","ready":true,"restartCount":` + fmt.Sprint(restarts) + `,
  "containerID":"containerd://` + name + `","state":{"running":{"startedAt":"2026-01-01T00:00:00Z"}}}],
  "conditions":[{"type":"Ready","status":"` + ready + `","lastTransitionTime":"2026-01-01T00:00:0` + fmt.Sprint(restarts) + `Z"}]}}`
	}
	items := []string{
		pod("a", "kube-api-access-1", "80", "Always", 0),
		pod("b", "kube-api-access-2", "80", "Always", 0), // a's replica
		pod("c", "kube-api-access-3", "81", "Always", 0), // another port
		pod("d", "kube-api-access-4", "80", "Never", 0),  // another pull policy
		pod("e", "kube-api-access-5", "80", "Always", 3), // restarted
	}
	cluster, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(`{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + `]}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*corev1.Pod{}
	for _, p := range cluster.Pods {
		byName[p.Name] = p
	}
	sameContainers := func(x, y string) bool { return &byName[x].Spec.Containers[0] == &byName[y].Spec.Containers[0] }
	sameStatuses := func(x, y string) bool {
		return &byName[x].Status.ContainerStatuses[0] == &byName[y].Status.ContainerStatuses[0]
	}
	if !sameContainers("a", "b") || !sameStatuses("a", "b") {
		t.Errorf("replicas a and b: containers shared %v, statuses shared %v; want both", sameContainers("a", "b"), sameStatuses("a", "b"))
	}
	for _, other := range []string{"c", "d"} {
		if sameContainers("a", other) {
			t.Errorf("pods a and %s share containers, which differ", other)
		}
		if !sameStatuses("a", other) {
			t.Errorf("pods a and %s: statuses not shared, though equal", other)
		}
	}
	if sameStatuses("a", "e") || !sameContainers("a", "e") {
		t.Errorf("pods a and e: statuses shared %v (want not: restart counts differ), containers shared %v (want)", sameStatuses("a", "e"), sameContainers("a", "e"))
	}
	sameConditions := func(x, y string) bool { return &byName[x].Status.Conditions[0] == &byName[y].Status.Conditions[0] }
	if !sameConditions("a", "e") || sameConditions("a", "d") {
		t.Errorf("conditions: a and e (other times) shared %v, want true; a and d (not ready) shared %v, want false", sameConditions("a", "e"), sameConditions("a", "d"))
	}
	if got := byName["d"].Status.Conditions[0].Status; got != corev1.ConditionFalse {
		t.Errorf("pod d Ready condition %s, want False", got)
	}
	if got := byName["e"].Status.ContainerStatuses[0].RestartCount; got != 3 {
		t.Errorf("pod e restart count %d, want 3", got)
	}
	if got := byName["c"].Spec.Containers[0].Ports[0].ContainerPort; got != 81 {
		t.Errorf("pod c port %d, want 81", got)
	}
}

// TestKeepEmptyDir: drain's and scale-down's option keeps emptyDir and
// hostPath volumes (the local-storage rules read them) through both pod
// decoders, and drops the other kubelet-only volumes as always; without it
// emptyDir and hostPath go too.
func TestKeepEmptyDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pod.yaml")
	pod := `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  volumes:
  - {name: scratch, emptyDir: {sizeLimit: 1Gi}}
  - {name: cfg, configMap: {name: cfg}}
  - {name: logs, hostPath: {path: /var/log}}
`
	if err := os.WriteFile(path, []byte(pod), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		c, err := ReadFiles(FileOptions{Filenames: []string{path}, KeepEmptyDir: keep}, nil)
		if err != nil {
			t.Fatal(err)
		}
		vs := c.Pods[0].Spec.Volumes
		kept := len(vs) == 2 && vs[0].Name == "scratch" && vs[0].EmptyDir != nil && vs[1].Name == "logs" && vs[1].HostPath != nil
		if keep != kept || (!keep && len(vs) != 0) {
			t.Errorf("KeepEmptyDir %v: volumes %+v", keep, vs)
		}
	}
	p := &corev1.Pod{Spec: corev1.PodSpec{Volumes: []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}}}
	slimPodKeeping(p, true)
	if len(p.Spec.Volumes) != 1 {
		t.Errorf("slimPodKeeping dropped the emptyDir volume")
	}
}

// TestSharerInternsPodFields: a pod's namespace, generateName, node and
// policies become the one string of their text whether or not the pod
// before had the same (internLast's memo of the last one, then the
// table), and a pod's strings keep their text.
func TestSharerInternsPodFields(t *testing.T) {
	s := newListSharer()
	pod := func(ns, node string) *corev1.Pod {
		p := &corev1.Pod{}
		// Copies, so that equal texts start out as different strings.
		p.Namespace, p.GenerateName = strings.Clone(ns), strings.Clone("web-")
		p.Spec.NodeName, p.Spec.RestartPolicy = strings.Clone(node), corev1.RestartPolicy(strings.Clone("Always"))
		p.Status.Phase = corev1.PodPhase(strings.Clone("Running"))
		return p
	}
	pods := []*corev1.Pod{pod("a", "n1"), pod("a", "n1"), pod("b", "n2"), pod("a", "n1"), pod("b", "n1")}
	for _, p := range pods {
		s.pod(p)
	}
	first := pods[0]
	for i, p := range pods {
		want := map[string]string{"a": "n1", "b": "n2"}
		if i == 4 {
			want["b"] = "n1"
		}
		if p.Spec.NodeName != want[p.Namespace] || p.GenerateName != "web-" || p.Spec.RestartPolicy != "Always" || p.Status.Phase != "Running" {
			t.Fatalf("pod %d changed: %s %s %s %s %s", i, p.Namespace, p.GenerateName, p.Spec.NodeName, p.Spec.RestartPolicy, p.Status.Phase)
		}
		same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
		if !same(p.GenerateName, first.GenerateName) || !same(string(p.Spec.RestartPolicy), string(first.Spec.RestartPolicy)) ||
			!same(string(p.Status.Phase), string(first.Status.Phase)) {
			t.Errorf("pod %d: generateName, restart policy or phase not the first pod's string", i)
		}
		if p.Namespace == "a" && !same(p.Namespace, first.Namespace) {
			t.Errorf("pod %d: namespace a not the first pod's string", i)
		}
		if p.Spec.NodeName == "n1" && !same(p.Spec.NodeName, first.Spec.NodeName) {
			t.Errorf("pod %d: node n1 not the first pod's string", i)
		}
	}
	if unsafe.StringData(pods[2].Namespace) != unsafe.StringData(pods[4].Namespace) {
		t.Error("namespace b of pods 2 and 4 not one string")
	}
}
