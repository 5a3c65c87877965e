package gencluster

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ctr is a container of a pod template. cpu and mem repeat the requests as
// integers (millicores, bytes) for the placement estimate.
type ctr struct {
	c        v1.Container
	cpu, mem int64
}

// template is what all pods of one workload share.
type template struct {
	labels       map[string]string
	annotations  map[string]string
	containers   []ctr
	inits        []ctr
	overhead     v1.ResourceList
	runtimeClass string
	podRes       *v1.ResourceRequirements
	affinity     *v1.Affinity
	tolerations  []v1.Toleration
	nodeSelector map[string]string
	hostNetwork  bool
	daemon       bool // DaemonSet pod: tolerates everything, no default tolerations added

	class        nodeClass
	antiHost     bool // required anti-affinity on kubernetes.io/hostname
	sharedClaim  string
	perPodClaim  bool
	hostPorts    []int32
	gpu, hp      int64
	priorityName string
	priority     int32
	scheduler    string
	restart      v1.RestartPolicy
	sa           string
	grace        int64
	est          request
}

// request is the generator's own estimate of what a pod needs on a node,
// used only to keep nodes within their allocatable while placing pods.
type request struct {
	cpu, mem, gpu, hp int64
}

// Request sizes, in the proportions seen in typical microservice clusters:
// mostly small, with a tail. On average a node ends up about 70% requested.
var cpuChoices = []int64{5, 10, 25, 50, 50, 100, 100, 100, 150, 200, 250, 300}
var memChoicesMi = []int64{32, 64, 64, 128, 128, 192, 256, 256, 384, 512, 768, 1024, 1536}

// containerResources draws one of the request patterns seen in real
// clusters. Limits-only containers get requests equal to their limits, as
// the API server's defaulting stores them.
func containerResources(g *rng) (v1.ResourceRequirements, int64, int64) {
	cpu := g.pickI64(cpuChoices)
	mem := g.pickI64(memChoicesMi) * mi
	var rr v1.ResourceRequirements
	switch g.weighted([]int{78, 6, 4, 4, 3, 4, 1}) {
	case 0: // requests, sometimes limits
		rr.Requests = v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem)}
		if g.chance(0.6) {
			rr.Limits = v1.ResourceList{v1.ResourceMemory: bin(mem * int64(g.between(1, 2)))}
			if g.chance(0.3) {
				rr.Limits[v1.ResourceCPU] = milli(cpu * int64(g.between(1, 4)))
			}
		}
	case 1: // limits only, defaulted
		rr.Limits = v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem)}
		rr.Requests = v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem)}
	case 2: // nothing: BestEffort container
		return rr, 0, 0
	case 3: // cpu only
		rr.Requests = v1.ResourceList{v1.ResourceCPU: milli(cpu)}
		return rr, cpu, 0
	case 4: // memory only
		rr.Requests = v1.ResourceList{v1.ResourceMemory: bin(mem)}
		return rr, 0, mem
	case 5: // with local scratch space
		eph := g.pickI64([]int64{1, 2, 5, 10, 20}) * gi
		rr.Requests = v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem), v1.ResourceEphemeralStorage: bin(eph)}
		rr.Limits = v1.ResourceList{v1.ResourceEphemeralStorage: bin(eph)}
	case 6: // explicit zero cpu
		rr.Requests = v1.ResourceList{v1.ResourceCPU: milli(0), v1.ResourceMemory: bin(mem)}
		return rr, 0, mem
	}
	return rr, cpu, mem
}

func newCtr(name, img string, rr v1.ResourceRequirements, cpu, mem int64) ctr {
	return ctr{c: v1.Container{
		Name:                     name,
		Image:                    img,
		Resources:                rr,
		TerminationMessagePath:   v1.TerminationMessagePathDefault,
		TerminationMessagePolicy: v1.TerminationMessageReadFile,
		ImagePullPolicy:          v1.PullIfNotPresent,
	}, cpu: cpu, mem: mem}
}

// newTemplate draws a workload's pod template. The feature mix is chosen so
// that every accounting rule of the scheduler cache shows up at scale.
func newTemplate(g *rng, pool *imagePool, u unit, hasClass map[nodeClass]bool) *template {
	t := &template{labels: map[string]string{"app": u.name}, restart: v1.RestartPolicyAlways, sa: "default", grace: 30, class: classGeneral}
	if u.kind == kindJob {
		t.restart = v1.RestartPolicyNever
	}
	n := 1 + g.weighted([]int{70, 22, 8})
	for i := 0; i < n; i++ {
		rr, cpu, mem := containerResources(g)
		c := newCtr(fmt.Sprintf("c%d", i), pool.images[pool.popular(g)].tag, rr, cpu, mem)
		if i == 0 {
			c.c.Name = "app"
			c.c.Ports = []v1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: v1.ProtocolTCP}}
		}
		t.containers = append(t.containers, c)
	}
	addInitAndSidecars(g, t)
	addSpecialResources(g, t, u, hasClass)
	addScheduling(g, t, u)
	if u.kind == kindStatefulSet {
		t.perPodClaim = true
	} else if u.kind == kindDeployment && g.chance(0.03) {
		t.sharedClaim = u.name + "-shared"
	}
	t.est = estimate(t)
	return t
}

// addInitAndSidecars adds plain init containers (sometimes larger than the
// app) and native sidecars (init containers with restartPolicy Always).
func addInitAndSidecars(g *rng, t *template) {
	if g.chance(0.2) {
		rr, cpu, mem := containerResources(g)
		if g.chance(0.2) { // migrations and warm-ups that need more than the app
			cpu, mem = int64(g.between(3, 10))*100, int64(g.between(1, 4))*512*mi
			rr = v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem)}}
		}
		t.inits = append(t.inits, newCtr("init", "docker.io/library/busybox:1.37.0", rr, cpu, mem))
	}
	switch g.weighted([]int{80, 15, 5}) {
	case 1: // Istio in native-sidecar mode: istio-init, then istio-proxy
		req := v1.ResourceList{v1.ResourceCPU: milli(100), v1.ResourceMemory: bin(128 * mi)}
		lim := v1.ResourceList{v1.ResourceCPU: milli(2000), v1.ResourceMemory: bin(gi)}
		rr := v1.ResourceRequirements{Requests: req, Limits: lim}
		t.inits = append(t.inits, newCtr("istio-init", "docker.io/istio/proxyv2:1.27.1", rr, 100, 128*mi))
		sc := newCtr("istio-proxy", "docker.io/istio/proxyv2:1.27.1", *rr.DeepCopy(), 100, 128*mi)
		sc.c.RestartPolicy = ptr(v1.ContainerRestartPolicyAlways)
		sc.c.Ports = []v1.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: v1.ProtocolTCP}}
		t.inits = append(t.inits, sc)
		t.labels["security.istio.io/tlsMode"] = "istio"
	case 2: // log shipper sidecar without requests
		sc := newCtr("log-shipper", "docker.io/fluent/fluent-bit:4.0.9", v1.ResourceRequirements{}, 0, 0)
		sc.c.RestartPolicy = ptr(v1.ContainerRestartPolicyAlways)
		t.inits = append(t.inits, sc)
	}
}

// addSpecialResources adds GPUs, hugepages, pod overhead and pod-level
// resources to a few templates.
func addSpecialResources(g *rng, t *template, u unit, hasClass map[nodeClass]bool) {
	app := &t.containers[0]
	switch {
	case hasClass[classGPU] && u.kind != kindStatefulSet && u.replicas <= 2 && g.chance(0.02):
		cpu, mem := int64(g.between(4, 12))*1000, int64(g.between(16, 40))*gi
		app.c.Image = "nvcr.io/nvidia/pytorch:25.08-py3"
		app.c.Resources = v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem), "nvidia.com/gpu": dec(1)},
			Limits:   v1.ResourceList{v1.ResourceMemory: bin(mem), "nvidia.com/gpu": dec(1)},
		}
		app.cpu, app.mem, t.gpu, t.class = cpu, mem, 1, classGPU
		t.tolerations = append(t.tolerations, v1.Toleration{Key: "nvidia.com/gpu", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule})
	case hasClass[classHugepages] && g.chance(0.005):
		hp := int64(g.between(1, 4)) * 128 * mi
		cpu, mem := int64(g.between(1, 4))*500, int64(g.between(1, 4))*512*mi
		rl := v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem), "hugepages-2Mi": bin(hp)}
		app.c.Resources = v1.ResourceRequirements{Requests: rl, Limits: rl.DeepCopy()}
		app.cpu, app.mem, t.hp, t.class = cpu, mem, hp, classHugepages
		t.nodeSelector = map[string]string{"netfn.example.com/hugepages": "2Mi"}
	case hasClass[classInfra] && g.chance(0.015):
		t.class = classInfra
		t.tolerations = append(t.tolerations, v1.Toleration{Key: "dedicated", Operator: v1.TolerationOpEqual, Value: "infra", Effect: v1.TaintEffectNoSchedule})
		t.nodeSelector = map[string]string{"node-role.kubernetes.io/infra": ""}
	}
	switch g.weighted([]int{96, 1, 1, 2}) {
	case 1:
		t.runtimeClass, t.overhead = "kata", v1.ResourceList{v1.ResourceCPU: milli(250), v1.ResourceMemory: bin(160 * mi)}
	case 2:
		t.runtimeClass, t.overhead = "gvisor", v1.ResourceList{v1.ResourceCPU: milli(250), v1.ResourceMemory: bin(120 * mi)}
	case 3:
		if t.gpu == 0 && t.hp == 0 {
			addPodLevelResources(g, t)
		}
	}
}

// addPodLevelResources sets spec.resources. Validation wants the pod-level
// requests to cover the containers' aggregate and the pod-level limits to
// cover every container limit, so container limits are dropped and the
// pod-level requests are raised to the aggregate when needed. With both cpu
// and memory set in requests and limits, API-server defaulting adds nothing.
func addPodLevelResources(g *rng, t *template) {
	for _, cs := range [][]ctr{t.containers, t.inits} {
		for i := range cs {
			cs[i].c.Resources.Limits = nil
		}
	}
	agg := estimate(t)
	cpu := max(int64(g.between(1, 8))*250, agg.cpu)
	mem := max(int64(g.between(1, 8))*256*mi, agg.mem)
	t.podRes = &v1.ResourceRequirements{
		Requests: v1.ResourceList{v1.ResourceCPU: milli(cpu), v1.ResourceMemory: bin(mem)},
		Limits:   v1.ResourceList{v1.ResourceCPU: milli(2 * cpu), v1.ResourceMemory: bin(mem)},
	}
}

// addScheduling adds host ports, pod (anti-)affinity, priorities and other
// schedulers.
func addScheduling(g *rng, t *template, u unit) {
	if g.chance(0.01) && u.kind != kindJob {
		port := []int32{9100, 9102, 10254, 8125, 4317}[g.intN(5)]
		proto := v1.ProtocolTCP
		if port == 8125 {
			proto = v1.ProtocolUDP
		}
		t.containers[0].c.Ports = append(t.containers[0].c.Ports, v1.ContainerPort{Name: "host", ContainerPort: port, HostPort: port, Protocol: proto})
		t.hostPorts = []int32{port}
	}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": u.name}}
	switch g.weighted([]int{84, 10, 3, 3}) {
	case 1:
		t.affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: 100, PodAffinityTerm: v1.PodAffinityTerm{LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}}}}}
	case 2:
		t.affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{
			{LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}}}}
		t.antiHost = true
	case 3:
		t.affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []v1.WeightedPodAffinityTerm{
			{Weight: 50, PodAffinityTerm: v1.PodAffinityTerm{LabelSelector: sel, TopologyKey: "topology.kubernetes.io/zone"}}}}}
	}
	if g.chance(0.05) {
		t.priorityName, t.priority = "high-priority", 1000000
	}
	if g.chance(0.01) {
		t.scheduler = "volcano"
	}
}

// estimate is the generator's simplified view of a pod's requests (sum of
// containers and sidecars, at least any init phase, pod-level cpu/memory
// when set, plus overhead). Placement only needs it to be close.
func estimate(t *template) request {
	var r request
	for _, c := range t.containers {
		r.cpu += c.cpu
		r.mem += c.mem
	}
	var sideCPU, sideMem int64
	for _, c := range t.inits {
		if c.c.RestartPolicy != nil {
			sideCPU += c.cpu
			sideMem += c.mem
			r.cpu += c.cpu
			r.mem += c.mem
			continue
		}
		r.cpu = max(r.cpu, c.cpu+sideCPU)
		r.mem = max(r.mem, c.mem+sideMem)
	}
	if t.podRes != nil {
		r.cpu = t.podRes.Requests.Cpu().MilliValue()
		r.mem = t.podRes.Requests.Memory().Value()
	}
	if t.overhead != nil {
		r.cpu += t.overhead.Cpu().MilliValue()
		r.mem += t.overhead.Memory().Value()
	}
	r.gpu, r.hp = t.gpu, t.hp
	return r
}
