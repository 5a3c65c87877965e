package load

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// everySkippedField sets every field the pod decoder skips, with content, next to
// the ones it keeps; nulls for some.
const everySkippedField = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"full","namespace":"ns","uid":"u1",
 "labels":{"app":"a","tier":"web"},"annotations":{"note":"x"},
 "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"v1"}]},
"spec":{"nodeName":"n1","nodeSelector":{"zone":"a"},
 "volumes":[
  {"name":"cm","configMap":{"name":"c","items":[{"key":"k","path":"p"}]}},
  {"name":"sec","secret":{"secretName":"s"}},
  {"name":"proj","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}},
  {"name":"down","downwardAPI":{"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name"}}]}},
  {"name":"empty","emptyDir":{"sizeLimit":"1Gi"}},
  {"name":"host","hostPath":{"path":"/var"}},
  {"name":"nullsrc","emptyDir":null},
  {"name":"claim","persistentVolumeClaim":{"claimName":"data"}},
  {"name":"csi","csi":{"driver":"d","volumeAttributes":{"a":"b"}}}],
 "initContainers":[{"name":"init","image":"i","restartPolicy":"Always",
  "env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}}],
  "envFrom":[{"configMapRef":{"name":"c"}}],
  "resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}},
  "startupProbe":{"exec":{"command":["true"]}},
  "volumeMounts":[{"name":"cm","mountPath":"/c"}],"volumeDevices":[{"name":"d","devicePath":"/dev/x"}]}],
 "containers":[{"name":"app","image":"a","command":["run"],"args":["--x"],"workingDir":"/w",
  "ports":[{"containerPort":80,"hostPort":8080}],
  "resources":{"requests":{"cpu":"100m"}},
  "livenessProbe":{"httpGet":{"path":"/","port":80}},"readinessProbe":null,
  "lifecycle":{"preStop":{"exec":{"command":["stop"]}}},
  "securityContext":{"runAsUser":1000,"capabilities":{"add":["NET_ADMIN"]}},
  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
  "volumeMounts":[{"name":"cm","mountPath":"/c"}],"env":null},
  {"name":"side","image":"s","resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"1"}}}],
 "ephemeralContainers":[{"name":"dbg","image":"d","env":[{"name":"E"}],"securityContext":{"privileged":true}}],
 "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],
 "securityContext":{"runAsNonRoot":true}},
"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z"}],
 "containerStatuses":[{"name":"app","ready":true,"restartCount":2,"image":"a","imageID":"sha","containerID":"cid",
  "state":{"running":{"startedAt":"2026-01-02T03:04:05Z"}},
  "lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":null,"finishedAt":"2026-01-02T03:04:05Z"}},
  "allocatedResources":{"cpu":"100m"},"resources":{"requests":{"cpu":"100m"}},
  "volumeMounts":[{"name":"cm","mountPath":"/c"}],"user":{"linux":{"uid":1,"gid":1}},
  "allocatedResourcesStatus":[{"name":"claim:x","resources":[{"resourceID":"r","health":"Healthy"}]}]}]}}`

// decodeBoth decodes data the plain way and with the pod decoder, each
// followed by slimPod as the collector does.
func decodeBoth(t *testing.T, d *podDecoder, data []byte) (plain, fast kruntime.Object) {
	t.Helper()
	plain, err := decodeTyped(data, podKind)
	if err != nil {
		t.Fatal(err)
	}
	fast, err = d.decode(data)
	if err != nil {
		t.Fatalf("pod decoder: %v\n%s", err, data)
	}
	slimPod(plain.(*corev1.Pod))
	slimPod(fast.(*corev1.Pod))
	return plain, fast
}

// TestPodDecoderMatchesDecodeAndSlim: on every hack/gen-cluster pod and on a
// pod that sets every skipped field, the pod decoder's pod equals the plain
// decode's after slimPod, field for field.
func TestPodDecoderMatchesDecodeAndSlim(t *testing.T) {
	d := newPodDecoder()
	plain, fast := decodeBoth(t, d, []byte(everySkippedField))
	if !reflect.DeepEqual(plain, fast) {
		t.Fatalf("full pod decodes differently:\nplain %+v\nfast  %+v", plain, fast)
	}
	// Check the test pod means something: the kept fields are there.
	pod := fast.(*corev1.Pod)
	if len(pod.Spec.Volumes) != 3 || pod.Spec.Volumes[0].Name != "nullsrc" || pod.Spec.Volumes[1].PersistentVolumeClaim == nil ||
		pod.Spec.Volumes[2].CSI == nil || pod.Spec.Containers[0].Ports[0].HostPort != 8080 ||
		pod.Status.ContainerStatuses[0].RestartCount != 2 || pod.Spec.InitContainers[0].RestartPolicy == nil {
		t.Fatalf("unexpected pod: %+v", pod)
	}
	pods := 0
	for _, it := range benchItems(t, 20, 600) {
		if it.gvk != podKind {
			continue
		}
		pods++
		plain, fast := decodeBoth(t, d, it.raw)
		if !reflect.DeepEqual(plain, fast) {
			t.Fatalf("decodes differently:\n%s", it.raw)
		}
	}
	if pods != 600 {
		t.Fatalf("%d pods compared, want 600", pods)
	}
}

// TestPodDecoderRefusesWhatThePlainDecodeRefuses: a skipped or exactly
// allocated field whose value is of the wrong JSON kind fails as the plain
// decode fails, with its error.
func TestPodDecoderRefusesWhatThePlainDecodeRefuses(t *testing.T) {
	d := newPodDecoder()
	for _, field := range []string{
		`"spec":{"containers":[{"name":"a","env":{}}]}`,
		`"spec":{"containers":[{"name":"a","livenessProbe":[]}]}`,
		`"spec":{"containers":[{"name":"a","terminationMessagePolicy":5}]}`,
		`"spec":{"containers":{}}`,
		`"spec":{"volumes":[{"name":"v","emptyDir":"x"}]}`,
		`"spec":{"tolerations":"x"}`,
		`"status":{"containerStatuses":[{"name":"a","state":[]}]}`,
		`"status":{"conditions":[{"type":5}]}`,
		`"metadata":{"labels":[]}`,
		`"status":{"startTime":"yesterday"}`,
		`"status":{"startTime":5}`,
		`"metadata":{"creationTimestamp":"2026-01-02 03:04:05"}`,
		`"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"lots"}}}]}`,
	} {
		data := []byte(`{"apiVersion":"v1","kind":"Pod",` + field + `}`)
		_, want := decodeTyped(data, podKind)
		if want == nil {
			t.Fatalf("%s: the plain decode accepts it; the case tests nothing", field)
		}
		_, got := d.decode(data)
		if got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", field, got, want)
		}
	}
}

// TestPodDecoderSkipsWithoutChecking documents the one difference: what is
// inside a skipped value is not type-checked (slimPod drops it anyway).
func TestPodDecoderSkipsWithoutChecking(t *testing.T) {
	data := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","env":[{"name":5}]}]}}`)
	if _, err := decodeTyped(data, podKind); err == nil {
		t.Fatal("the plain decode accepts it; the case tests nothing")
	}
	obj, err := newPodDecoder().decode(data)
	if err != nil || obj.(*corev1.Pod).Spec.Containers[0].Env != nil {
		t.Fatalf("got %v, %v; want the pod without env", obj, err)
	}
}

// TestSharedListsSurviveDefaulting: pods whose resource lists have the same
// text share one list; defaulting one pod (a request from its limit,
// rounding up to 1m) must not change the other's.
func TestSharedListsSurviveDefaulting(t *testing.T) {
	const pods = `{"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"n"},"spec":{"nodeName":"x","containers":[
 {"name":"c","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}}]}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"n"},"spec":{"nodeName":"x","containers":[
 {"name":"c","resources":{"requests":{"cpu":"100m"}}}]}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"c","namespace":"n"},"spec":{"nodeName":"x","containers":[
 {"name":"c","resources":{"requests":{"cpu":"0.5m"}}}]}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"d","namespace":"n"},"spec":{"nodeName":"x","overhead":{"cpu":"0.5m"},"containers":[
 {"name":"c","resources":{"requests":{"cpu":"0.5m"},"limits":{"cpu":"0.5m"}}}]}}]}`
	cluster, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(pods)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]corev1.ResourceList{
		"a": {"cpu": resource.MustParse("100m"), "memory": resource.MustParse("1Gi")},
		"b": {"cpu": resource.MustParse("100m")},
		"c": {"cpu": resource.MustParse("1m")},
		"d": {"cpu": resource.MustParse("1m")},
	}
	for _, p := range cluster.Pods {
		got := p.Spec.Containers[0].Resources.Requests
		if !equalLists(got, want[p.Name]) {
			t.Errorf("pod %s: requests %v, want %v", p.Name, got, want[p.Name])
		}
	}
	if d := cluster.Pods[3]; !equalLists(d.Spec.Overhead, want["d"]) || !equalLists(d.Spec.Containers[0].Resources.Limits, want["d"]) {
		t.Errorf("pod d: overhead %v, limits %v; want 1m each", d.Spec.Overhead, d.Spec.Containers[0].Resources.Limits)
	}
}

// TestSharedStatusesSurviveDefaulting: the pod decoder gives replicas'
// equal statuses (and conditions) one slice; rounding a quantity of one
// pod's statuses gives that pod a rounded copy and leaves the shared slice,
// another pod's, as it was; a pod with nothing to round keeps the shared
// slice.
func TestSharedStatusesSurviveDefaulting(t *testing.T) {
	dec := newPodDecoder()
	pod := func(name, cpu string) *corev1.Pod {
		data := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","namespace":"n"},"spec":{"nodeName":"x"},
 "status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:0` + name + `Z"}],
  "containerStatuses":[{"name":"c","ready":true,"containerID":"containerd://` + name + `","allocatedResources":{"cpu":"` + cpu + `"},
   "resources":{"requests":{"cpu":"` + cpu + `"}}}]}}`
		obj, err := dec.decode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.Pod)
	}
	a, b, c, d := pod("1", "0.5m"), pod("2", "0.5m"), pod("3", "100m"), pod("4", "100m")
	shared := func(x, y *corev1.Pod) bool {
		return &x.Status.ContainerStatuses[0] == &y.Status.ContainerStatuses[0] && &x.Status.Conditions[0] == &y.Status.Conditions[0]
	}
	if !shared(a, b) || !shared(c, d) {
		t.Fatalf("replicas' statuses and conditions not shared as decoded: a,b %v; c,d %v", shared(a, b), shared(c, d))
	}
	DefaultPod(a)
	DefaultPod(c)
	half, one := resource.MustParse("0.5m"), resource.MustParse("1m")
	if s := a.Status.ContainerStatuses[0]; s.AllocatedResources.Cpu().Cmp(one) != 0 || s.Resources.Requests.Cpu().Cmp(one) != 0 {
		t.Errorf("pod a's status after defaulting: %+v, want 1m of cpu allocated and requested", s)
	}
	if s := b.Status.ContainerStatuses[0]; s.AllocatedResources.Cpu().Cmp(half) != 0 || s.Resources.Requests.Cpu().Cmp(half) != 0 {
		t.Errorf("defaulting pod a changed pod b's shared status: %+v, want 0.5m of cpu as decoded", s)
	}
	if &a.Status.ContainerStatuses[0] == &b.Status.ContainerStatuses[0] || &a.Status.Conditions[0] != &b.Status.Conditions[0] {
		t.Errorf("pod a: rounded statuses should be a copy, conditions still shared")
	}
	if !shared(c, d) {
		t.Errorf("pod c: nothing to round, yet its statuses are no longer shared")
	}
}

func equalLists(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		if q.Cmp(b[name]) != 0 {
			return false
		}
	}
	return true
}

// BenchmarkPodDecoder decodes hack/gen-cluster's 3,000 pods the plain way
// (decodeTyped, then slimPod) and with the pod decoder (then slimPod), in
// the same run.
func BenchmarkPodDecoder(b *testing.B) {
	var pods [][]byte
	var size int64
	for _, it := range benchItems(b, 100, 3000) {
		if it.gvk == podKind {
			pods = append(pods, it.raw)
			size += int64(len(it.raw))
		}
	}
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, raw := range pods {
				obj, err := decodeTyped(raw, podKind)
				if err != nil {
					b.Fatal(err)
				}
				slimPod(obj.(*corev1.Pod))
			}
		}
	})
	b.Run("pod-decoder", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		d := newPodDecoder()
		for b.Loop() {
			for _, raw := range pods {
				obj, err := d.decode(raw)
				if err != nil {
					b.Fatal(err)
				}
				slimPod(obj.(*corev1.Pod))
			}
		}
	})
}

// TestLongTextsSharedByContent: a map whose text is too long to be kept by
// text is decoded each time, and still shared by content.
func TestLongTextsSharedByContent(t *testing.T) {
	long := strings.Repeat("x", maxKeptText)
	data := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"a":"` + long + `"}}}`)
	d := newPodDecoder()
	first, err := d.decode(data)
	if err != nil {
		t.Fatal(err)
	}
	second, err := d.decode(data)
	if err != nil {
		t.Fatal(err)
	}
	a, b := first.(*corev1.Pod).Annotations, second.(*corev1.Pod).Annotations
	if a["a"] != long || reflect.ValueOf(a).UnsafePointer() != reflect.ValueOf(b).UnsafePointer() {
		t.Errorf("annotations %d bytes, shared %v; want the long value, shared", len(a["a"]), reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer())
	}
	if len(d.maps.m) != 0 {
		t.Errorf("%d texts kept, want none", len(d.maps.m))
	}
}

// BenchmarkPreparePod: what the collector does to each pod the pod decoder
// gives it (defaults, slimming, sharing its slices with the pods before
// it; the decoder shared the lists and maps), on gen-cluster's 3,000 pods
// decoded once; after the first pass every slice is a hit, as for the
// replicas of a large cluster.
func BenchmarkPreparePod(b *testing.B) {
	d := newPodDecoder()
	var pods []*corev1.Pod
	for _, it := range benchItems(b, 100, 3000) {
		if it.gvk == podKind {
			obj, err := d.decode(it.raw)
			if err != nil {
				b.Fatal(err)
			}
			pods = append(pods, obj.(*corev1.Pod))
		}
	}
	share := newListSharer()
	share.podsShared = true // as the file reader sets it
	b.ReportAllocs()
	for b.Loop() {
		for _, pod := range pods {
			preparePod(pod, share, true)
		}
	}
}
