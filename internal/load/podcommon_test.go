package load

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	corev1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/gencluster"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// decodeUsual decodes data the pod decoder's usual way, without
// decodeCommon.
func decodeUsual(t *testing.T, d *podDecoder, data []byte) *corev1.Pod {
	t.Helper()
	pod := &corev1.Pod{}
	if err := jsonv2.Unmarshal(data, pod, d.opts); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return pod
}

// TestCommonPodMatchesPodDecoder: on the pods of every hack/gen-cluster
// shape and on pods with what decodeCommon gives up on, the pod decoder
// decodes the same pod as its usual way (a struct decode with the same
// unmarshalers); decodeCommon decodes every small-shape pod itself.
func TestCommonPodMatchesPodDecoder(t *testing.T) {
	d := newPodDecoder()
	check := func(data []byte) (common bool) {
		t.Helper()
		want := decodeUsual(t, d, data)
		got, err := d.decode(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodes differently:\n%s\ngot  %+v\nwant %+v", data, got, want)
		}
		return d.decodeCommon(data, &corev1.Pod{})
	}
	for _, tc := range []struct {
		pod    string
		common bool
	}{
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"n","uid":"u","generateName":"p-","resourceVersion":"7",
 "creationTimestamp":"2026-01-02T03:04:05Z","labels":{"a":"b"},"annotations":{"c":"d"},
 "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"x","controller":true}]},
 "spec":{"containers":[{"name":"a","image":"i","resources":{"requests":{"cpu":"100m"},"limits":{"memory":"1Gi"}}},{"name":"b"}],
  "nodeName":"n1","schedulerName":"s","priorityClassName":"high","priority":1000,"nodeSelector":{"z":"a"},
  "tolerations":[{"key":"k","operator":"Exists"}]},
 "status":{"phase":"Pending","nominatedNodeName":"n2","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","lastTransitionTime":"2026-01-02T03:04:05Z"}]}}`, true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"spec":{"containers":[]},"status":{}}`, true},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","labels":null,"creationTimestamp":null,"deletionTimestamp":"2026-01-02T03:04:05Z","deletionGracePeriodSeconds":30},"spec":{"priority":null}}`, true},
		// What it gives up on: the pod is then decoded the usual way.
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p\u0041"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"n\u0061me":"p"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":null}}`, false},
		{"{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\xff\"}}", false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","unknown":1}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","metadata":{"Name":"p"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":null}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[null]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","ports":[{"containerPort":80}]}]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","resources":{"claims":[{"name":"c"}]}}]}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","spec":{"hostNetwork":true}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","status":{"phase":"Running","podIP":"10.0.0.1"}}`, false},
		{`{"kind":"Pod","apiVersion":"v1","status":null}`, false},
	} {
		if common := check([]byte(tc.pod)); common != tc.common {
			t.Errorf("decodeCommon took it: %v, want %v\n%s", common, tc.common, tc.pod)
		}
	}
	for _, shape := range gencluster.Shapes {
		pods, common := 0, 0
		for _, it := range benchItemsShape(t, 20, 600, shape) {
			if it.gvk != podKind {
				continue
			}
			pods++
			if check(it.raw) && len(it.raw) <= maxCommonPod {
				common++ // and so decode takes it that way
			}
		}
		if pods != 600 || shape == gencluster.ShapeSmall && common != pods {
			t.Errorf("shape %q: %d of %d pods decoded by decodeCommon", shape, common, pods)
		}
		t.Logf("shape %q: %d of %d pods decoded by decodeCommon", shape, common, pods)
	}
}

// TestCommonPodRefusesWhatThePlainDecodeRefuses: a pod the usual way
// refuses is refused with the plain decode's error.
func TestCommonPodRefusesWhatThePlainDecodeRefuses(t *testing.T) {
	d := newPodDecoder()
	for _, pod := range []string{
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":5}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"labels":[]}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":"high"}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"priority":3000000000}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"lots"}}}]}}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"creationTimestamp":"yesterday"}}`,
		`{"kind":"Pod","apiVersion":"v1","spec":{"containers":{}}}`,
	} {
		_, want := decodeTyped([]byte(pod), podKind)
		if want == nil {
			t.Fatalf("%s: the plain decode accepts it; the case tests nothing", pod)
		}
		_, got := d.decode([]byte(pod))
		if got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", pod, got, want)
		}
	}
}

// BenchmarkPodDecoderSmall decodes hack/gen-cluster's small-shape pods
// (about 690 bytes each) the pod decoder's usual way (a struct decode) and
// with decodeCommon, in the same run, in CPU time per pod (the process's,
// so the collector's share counts).
func BenchmarkPodDecoderSmall(b *testing.B) {
	var pods [][]byte
	for _, it := range benchItemsShape(b, 100, 3000, gencluster.ShapeSmall) {
		if it.gvk == podKind {
			pods = append(pods, it.raw)
		}
	}
	d := newPodDecoder()
	for name, decode := range map[string]func([]byte) bool{
		"usual":  func(data []byte) bool { return jsonv2.Unmarshal(data, &corev1.Pod{}, d.opts) == nil },
		"common": func(data []byte) bool { return d.decodeCommon(data, &corev1.Pod{}) },
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := loadtest.ProcessCPU()
			for b.Loop() {
				for _, p := range pods {
					if !decode(p) {
						b.Fatalf("%s\n", p)
					}
				}
			}
			cpu := loadtest.ProcessCPU() - start
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(pods)), "cpu-ns/pod")
		})
	}
}
