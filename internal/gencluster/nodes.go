package gencluster

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeClass says which pods may land on a node.
type nodeClass int

const (
	classGeneral   nodeClass = iota
	classInfra               // tainted dedicated=infra:NoSchedule
	classGPU                 // nvidia.com/gpu, tainted nvidia.com/gpu=present:NoSchedule
	classHugepages           // hugepages-2Mi allocatable
)

// instanceType describes a machine shape: capacity and what the kubelet
// reserves from it.
type instanceType struct {
	name      string
	cpu       int64 // cores
	memKi     int64 // capacity as the kernel reports it
	maxPods   int64
	gpus      int64
	diskGi    int64
	reserveMi int64 // kube-reserved + system-reserved + eviction threshold
}

var generalTypes = []instanceType{
	{"m5.xlarge", 4, 16064928, 110, 0, 100, 1000},
	{"m5.2xlarge", 8, 32386208, 110, 0, 100, 1124},
	{"m5.4xlarge", 16, 64976028, 110, 0, 200, 1380},
	{"r5.2xlarge", 8, 65029000, 110, 0, 100, 1380},
	{"c5.4xlarge", 16, 32224472, 110, 0, 100, 1124},
	{"t3.medium", 2, 3943840, 17, 0, 20, 566},
}

// generalWeights are the odds of each generalTypes entry.
var generalWeights = []int{30, 30, 15, 8, 12, 5}

var gpuType = instanceType{"g4dn.12xlarge", 48, 195782724, 110, 4, 200, 5755}

// nodeState is what placement needs to know about a node while pods are
// generated: the remaining allocatable resources and pod slots.
type nodeState struct {
	name     string
	class    nodeClass
	zone     int
	ip       string
	cidrBase string // "10.128.3." for 10.128.3.0/24
	cordoned bool

	freeCPU, freeMem, freeGPU, freeHugepages int64
	freePods                                 int64
	nextIP                                   int
	hostPorts                                map[int32]bool // lazily allocated
}

// nodeName returns node names that sort in index order, as the API server
// lists them.
func nodeName(i, n int) string {
	width := len(fmt.Sprint(n - 1))
	if width < 4 {
		width = 4
	}
	return fmt.Sprintf("node-%0*d", width, i)
}

func zoneName(z, zones int) string {
	if zones <= 26 {
		return fmt.Sprintf("us-east-1%c", 'a'+z)
	}
	return fmt.Sprintf("us-east-1-zone-%02d", z)
}

// nodeIP gives node i a unique address in 10.16.0.0/10, skipping the .0
// host of each /24.
func nodeIP(i int) string {
	j := i/254*256 + i%254 + 1
	return fmt.Sprintf("10.%d.%d.%d", 16+(j>>16)&0x3f, (j>>8)&0xff, j&0xff)
}

// classOf spreads the special node classes evenly through the index range,
// so that even small clusters (a few dozen nodes) have one of each.
func classOf(i int) nodeClass {
	switch {
	case i%50 == 7:
		return classGPU
	case i%50 == 23:
		return classHugepages
	case i%33 == 5:
		return classInfra
	}
	return classGeneral
}

// buildNode creates node i and the placement state that goes with it.
func buildNode(g *rng, pool *imagePool, i int, cfg Config) (*v1.Node, *nodeState) {
	class := classOf(i)
	it := generalTypes[1] // m5.2xlarge for infra and hugepages nodes
	switch class {
	case classGPU:
		it = gpuType
	case classGeneral:
		it = generalTypes[g.weighted(generalWeights)]
	}
	zone := i % cfg.Zones
	st := &nodeState{
		name:  nodeName(i, cfg.Nodes),
		class: class,
		zone:  zone,
		ip:    nodeIP(i),
		// 10.128.0.0/9 holds 32,768 pod /24s; bigger clusters reuse them.
		cidrBase: fmt.Sprintf("10.%d.%d.", 128+(i>>8)&0x7f, i&0xff),
		cordoned: class == classGeneral && g.chance(0.005),
	}
	capacity, allocatable := resources(it, class == classHugepages)
	st.freeCPU = allocatable.Cpu().MilliValue()
	st.freeMem = allocatable.Memory().Value()
	st.freePods = it.maxPods
	st.freeGPU = it.gpus
	if class == classHugepages {
		st.freeHugepages = 2 * gi
	}

	created := ago(86400*g.between(1, 60) + g.secondsBefore(86400))
	node := &v1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              st.name,
			UID:               g.uid(),
			ResourceVersion:   g.resourceVersion(),
			CreationTimestamp: created,
			Labels:            nodeLabels(g, st, it, cfg),
			Annotations: map[string]string{
				"flannel.alpha.coreos.com/backend-type":                  "vxlan",
				"flannel.alpha.coreos.com/kube-subnet-manager":           "true",
				"flannel.alpha.coreos.com/public-ip":                     st.ip,
				"node.alpha.kubernetes.io/ttl":                           "0",
				"volumes.kubernetes.io/controller-managed-attach-detach": "true",
			},
		},
		Spec: v1.NodeSpec{
			PodCIDR:       st.cidrBase + "0/24",
			PodCIDRs:      []string{st.cidrBase + "0/24"},
			ProviderID:    fmt.Sprintf("aws:///%s/i-0%s", zoneName(zone, cfg.Zones), g.hex(8)),
			Taints:        nodeTaints(st),
			Unschedulable: st.cordoned,
		},
		Status: v1.NodeStatus{
			Capacity:        capacity,
			Allocatable:     allocatable,
			Conditions:      nodeConditions(created),
			Addresses:       []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: st.ip}, {Type: v1.NodeHostName, Address: st.name}},
			DaemonEndpoints: v1.NodeDaemonEndpoints{KubeletEndpoint: v1.DaemonEndpoint{Port: 10250}},
			NodeInfo:        nodeInfo(g),
			Images:          nodeImages(g, pool, class == classGPU),
			Features:        &v1.NodeFeatures{SupplementalGroupsPolicy: ptr(true)},
			RuntimeHandlers: []v1.NodeRuntimeHandler{
				{Name: "runc", Features: &v1.NodeRuntimeHandlerFeatures{RecursiveReadOnlyMounts: ptr(true), UserNamespaces: ptr(true)}},
				{Name: "", Features: &v1.NodeRuntimeHandlerFeatures{RecursiveReadOnlyMounts: ptr(true), UserNamespaces: ptr(true)}},
			},
		},
	}
	return node, st
}

// resources returns capacity and allocatable the way the kubelet computes
// them: allocatable = capacity - reserved - eviction threshold, and memory
// allocatable also loses whatever is pre-allocated as hugepages.
func resources(it instanceType, hugepages bool) (v1.ResourceList, v1.ResourceList) {
	hp := int64(0)
	if hugepages {
		hp = 2 * gi
	}
	diskKi := it.diskGi * 1048576 * 95 / 100 // filesystem overhead
	capacity := v1.ResourceList{
		v1.ResourceCPU:              dec(it.cpu),
		v1.ResourceMemory:           bin(it.memKi * ki),
		v1.ResourcePods:             dec(it.maxPods),
		v1.ResourceEphemeralStorage: bin(diskKi * ki),
		"hugepages-1Gi":             dec(0),
		"hugepages-2Mi":             bin(hp),
	}
	allocatable := v1.ResourceList{
		v1.ResourceCPU:              milli(it.cpu*1000 - reservedCPU(it.cpu)),
		v1.ResourceMemory:           bin(it.memKi*ki - it.reserveMi*mi - hp),
		v1.ResourcePods:             dec(it.maxPods),
		v1.ResourceEphemeralStorage: dec(diskKi * ki * 9 / 10),
		"hugepages-1Gi":             dec(0),
		"hugepages-2Mi":             bin(hp),
	}
	if it.gpus > 0 {
		capacity["nvidia.com/gpu"] = dec(it.gpus)
		allocatable["nvidia.com/gpu"] = dec(it.gpus)
	}
	return capacity, allocatable
}

// reservedCPU follows the GKE/EKS kube-reserved formula: 6% of the first
// core, 1% of the second, 0.5% of cores 3-4 and 0.25% of the rest.
func reservedCPU(cores int64) int64 {
	r := int64(60)
	if cores >= 2 {
		r += 10
	}
	if cores >= 3 {
		r += 5 * min(cores-2, 2)
	}
	if cores > 4 {
		r += (cores - 4) * 25 / 10
	}
	return r
}

func nodeLabels(g *rng, st *nodeState, it instanceType, cfg Config) map[string]string {
	l := map[string]string{
		"beta.kubernetes.io/arch": "amd64",
		"beta.kubernetes.io/os":   "linux",
		"kubernetes.io/arch":      "amd64",
		"kubernetes.io/hostname":  st.name,
		"kubernetes.io/os":        "linux",
	}
	zone := zoneName(st.zone, cfg.Zones)
	if g.chance(0.01) {
		// Old node images only carry the deprecated labels; the scheduler's
		// zone key gives the same result for them.
		l["beta.kubernetes.io/instance-type"] = it.name
		l["failure-domain.beta.kubernetes.io/region"] = "us-east-1"
		l["failure-domain.beta.kubernetes.io/zone"] = zone
	} else {
		l["node.kubernetes.io/instance-type"] = it.name
		l["topology.kubernetes.io/region"] = "us-east-1"
		l["topology.kubernetes.io/zone"] = zone
	}
	switch st.class {
	case classInfra:
		l["node-role.kubernetes.io/infra"] = ""
	case classGPU:
		l["nvidia.com/gpu.present"] = "true"
		l["nvidia.com/gpu.product"] = "Tesla-T4"
	case classHugepages:
		l["netfn.example.com/hugepages"] = "2Mi"
	}
	if g.chance(0.3) {
		l["disktype"] = "ssd"
	}
	return l
}

func nodeTaints(st *nodeState) []v1.Taint {
	var t []v1.Taint
	switch st.class {
	case classInfra:
		t = append(t, v1.Taint{Key: "dedicated", Value: "infra", Effect: v1.TaintEffectNoSchedule})
	case classGPU:
		t = append(t, v1.Taint{Key: "nvidia.com/gpu", Value: "present", Effect: v1.TaintEffectNoSchedule})
	}
	if st.cordoned {
		t = append(t, v1.Taint{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule, TimeAdded: ptr(ago(1800))})
	}
	return t
}

func nodeConditions(created metav1.Time) []v1.NodeCondition {
	hb := ago(29)
	mk := func(t v1.NodeConditionType, s v1.ConditionStatus, reason, msg string, at metav1.Time) v1.NodeCondition {
		return v1.NodeCondition{Type: t, Status: s, LastHeartbeatTime: hb, LastTransitionTime: at, Reason: reason, Message: msg}
	}
	up := after(created, 41)
	net := mk(v1.NodeNetworkUnavailable, v1.ConditionFalse, "FlannelIsUp", "Flannel is running on this node", after(created, 52))
	net.LastHeartbeatTime = net.LastTransitionTime
	return []v1.NodeCondition{
		net,
		mk(v1.NodeMemoryPressure, v1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available", created),
		mk(v1.NodeDiskPressure, v1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure", created),
		mk(v1.NodePIDPressure, v1.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available", created),
		mk(v1.NodeReady, v1.ConditionTrue, "KubeletReady", "kubelet is posting ready status", up),
	}
}

func nodeInfo(g *rng) v1.NodeSystemInfo {
	return v1.NodeSystemInfo{
		MachineID:               g.hex(16),
		SystemUUID:              string(g.uid()),
		BootID:                  string(g.uid()),
		KernelVersion:           "6.8.0-1031-aws",
		OSImage:                 "Ubuntu 24.04.2 LTS",
		ContainerRuntimeVersion: "containerd://2.1.4",
		KubeletVersion:          "v1.36.3",
		OperatingSystem:         "linux",
		Architecture:            "amd64",
		Swap:                    &v1.NodeSwapStatus{Capacity: ptr(int64(0))},
	}
}

// nodeImages lists the system images plus popular pool images, 20-50 in
// total, sorted by size, largest first, as the kubelet reports them. GPU
// nodes always have the CUDA images their pods use.
func nodeImages(g *rng, pool *imagePool, gpu bool) []v1.ContainerImage {
	want := g.between(20, 50)
	seen := make(map[int]bool, want)
	idx := append([]int(nil), pool.system...)
	if gpu {
		idx = append(idx, pool.gpu...)
	}
	for _, i := range idx {
		seen[i] = true
	}
	for tries := 0; len(idx) < want && tries < 10*want; tries++ {
		i := pool.popular(g)
		if !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	sort.Slice(idx, func(a, b int) bool {
		ia, ib := pool.images[idx[a]], pool.images[idx[b]]
		if ia.size != ib.size {
			return ia.size > ib.size
		}
		return ia.tag < ib.tag
	})
	out := make([]v1.ContainerImage, len(idx))
	for k, i := range idx {
		im := pool.images[i]
		out[k] = v1.ContainerImage{Names: []string{im.digest, im.tag}, SizeBytes: im.size}
	}
	return out
}
