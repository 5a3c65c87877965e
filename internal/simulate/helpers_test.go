package simulate

import (
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// node returns a node in zone (region "r"; "" for no zone labels) with the
// given allocatable cpu, memory and pods.
func node(name, zone, cpu, mem, pods string) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}}}
	if zone != "" {
		n.Labels[v1.LabelTopologyRegion] = "r"
		n.Labels[v1.LabelTopologyZone] = zone
	}
	n.Status.Allocatable = v1.ResourceList{
		v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse(mem), v1.ResourcePods: resource.MustParse(pods),
	}
	return n
}

// pod returns a one-container pod "ns/name" requesting cpu and memory,
// bound to nodeName ("" for pending), with a UID derived from its name.
func pod(ns, name, nodeName, cpu, mem string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name)},
		Spec: v1.PodSpec{
			// As the API server defaults it.
			SchedulerName: v1.DefaultSchedulerName,
			NodeName:      nodeName,
			Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
				v1.ResourceCPU: resource.MustParse(cpu), v1.ResourceMemory: resource.MustParse(mem),
			}}}},
		},
	}
}

func cluster(nodes []*v1.Node, pods ...*v1.Pod) *load.Cluster {
	return &load.Cluster{Nodes: nodes, Pods: pods, Source: "test"}
}

// builder builds c's model as the commands do.
func builder(c *load.Cluster) ModelBuilder {
	return func(opts cache.Options) (*model.Model, []runtime.Object, error) {
		m, err := model.Build(c, opts)
		return m, c.Objects, err
	}
}

func newSim(t testing.TB, c *load.Cluster, opts Options) *Simulator {
	t.Helper()
	s, err := New(opts, builder(c))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ttlFlag is the TTL given by --ttl d.
func ttlFlag(d time.Duration) TTLChoice {
	c, err := ResolveTTL(&d, latest, false, "")
	if err != nil {
		panic(err)
	}
	return c
}

// summary renders events as "at kind pod node from→to cpu error" lines,
// compact enough to compare whole timelines in tests.
func summary(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		pod, state, cpu := "-", "-", "-"
		if e.Pod != nil {
			pod = e.Pod.Name
		}
		if e.From != "" {
			state = e.From + "→" + e.To
		}
		if e.Requested != nil {
			cpu = resource.NewMilliQuantity(e.Requested.MilliCPU, resource.DecimalSI).String()
		}
		line := strings.Join([]string{"+" + e.At, e.Event, pod, orDash(e.Node), state, cpu}, " ")
		if e.Error != "" {
			line += " ERR " + e.Error
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// behavior is the cache behaviour of kube-scheduler version s.
func behavior(t *testing.T, s string) *cache.Behavior {
	t.Helper()
	v, err := cache.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return cache.BehaviorFor(v)
}

// latest is v1.36's behaviour, the default.
var latest = cache.BehaviorFor(cache.Latest)

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
