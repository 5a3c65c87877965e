package load

// This file decodes the common node of a file (what gen-cluster writes and
// a kubelet reports: metadata, spec, status with its resource lists,
// conditions, system info and images) by walking its text with the
// scanner of podscan.go, as podcommon.go does for pods, without the
// reflection of a struct decode. Any member it does not expect, a string
// with an escape, or a value of an unexpected kind (null where it does
// not expect one too), and it gives up: the node decoder then decodes the
// node with json v2, so the node is the same whichever way it was
// decoded. Rare values (taints, managed fields, a config status, volumes)
// are decoded from their text with the node decoder's options; what every
// node of a kind reports alike (resource lists, daemon endpoints, runtime
// handlers, features, swap) is decoded once per distinct text and shared,
// as images are. TestCommonNodeMatchesNodeDecoder,
// TestCommonNodeOnMutations and FuzzCommonNode check it against the json
// v2 path.

import (
	"bytes"
	"slices"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	corev1 "k8s.io/api/core/v1"
)

// nodePools are decodeCommon's reused memory: string caches, the node
// being decoded, and the lists being read (conditions, images, addresses,
// pod CIDRs; copied at their length).
type nodePools struct {
	strings, nodes, conditions, images, addresses, cidrs sync.Pool
}

func newNodePools() nodePools {
	return nodePools{
		strings:    sync.Pool{New: func() any { return new(stringCache) }},
		nodes:      sync.Pool{New: func() any { return new(corev1.Node) }},
		conditions: sync.Pool{New: func() any { return new([]corev1.NodeCondition) }},
		images:     sync.Pool{New: func() any { return new([]corev1.ContainerImage) }},
		addresses:  sync.Pool{New: func() any { return new([]corev1.NodeAddress) }},
		cidrs:      sync.Pool{New: func() any { return new([]string) }},
	}
}

// decodeCommonCopied is decodeCommon into a reused node, copied into a
// new one when it could (writtenFirst).
func (d *nodeDecoder) decodeCommonCopied(data []byte) (*corev1.Node, bool) {
	return writtenFirst(&d.pools.nodes, data, d.decodeCommon, newOf[corev1.Node])
}

// decodeCommon decodes data into node and reports whether it could; when
// it could not, node holds part of the text and must be dropped.
func (d *nodeDecoder) decodeCommon(data []byte, node *corev1.Node) bool {
	sc := d.pools.strings.Get().(*stringCache)
	defer d.pools.strings.Put(sc)
	s := &scanner{data: data}
	ok := members(s, func(name []byte) bool {
		switch string(name) {
		case "kind":
			return plainString(s, sc, &node.Kind)
		case "apiVersion":
			return plainString(s, sc, &node.APIVersion)
		case "metadata":
			return d.commonMeta(s, sc, node)
		case "spec":
			return d.commonSpec(s, &node.Spec)
		case "status":
			return d.commonStatus(s, sc, &node.Status)
		}
		return false
	})
	return ok && s.atEnd()
}

func (d *nodeDecoder) commonMeta(s *scanner, sc *stringCache, node *corev1.Node) bool {
	m := &node.ObjectMeta
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "name":
			return plainString(s, nil, &m.Name)
		case "uid":
			return plainString(s, nil, &m.UID)
		case "resourceVersion":
			return plainString(s, nil, &m.ResourceVersion)
		case "selfLink":
			return plainString(s, nil, &m.SelfLink) //nolint:staticcheck // still in older clusters' listings
		case "creationTimestamp":
			return scanTime(s, &m.CreationTimestamp)
		case "labels":
			return stringMap(s, sc, &m.Labels)
		case "annotations":
			return stringMap(s, sc, &m.Annotations)
		case "managedFields":
			return d.value(s, &m.ManagedFields)
		}
		return false
	})
}

func (d *nodeDecoder) commonSpec(s *scanner, spec *corev1.NodeSpec) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "podCIDR":
			return plainString(s, nil, &spec.PodCIDR)
		case "podCIDRs":
			return listOf(s, &d.pools.cidrs, &spec.PodCIDRs, func(v *string) bool { return plainString(s, nil, v) })
		case "providerID":
			return plainString(s, nil, &spec.ProviderID)
		case "unschedulable":
			return d.value(s, &spec.Unschedulable)
		case "taints":
			return d.value(s, &spec.Taints)
		case "externalID":
			return plainString(s, nil, &spec.DoNotUseExternalID)
		}
		return false
	})
}

func (d *nodeDecoder) commonStatus(s *scanner, sc *stringCache, status *corev1.NodeStatus) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "capacity":
			return byValue(s, &d.lists, &status.Capacity, decodeNodeList)
		case "allocatable":
			return byValue(s, &d.lists, &status.Allocatable, decodeNodeList)
		case "phase":
			return plainString(s, sc, &status.Phase)
		case "conditions":
			return d.commonConditions(s, sc, &status.Conditions)
		case "addresses":
			return listOf(s, &d.pools.addresses, &status.Addresses, func(a *corev1.NodeAddress) bool { return commonAddress(s, sc, a) })
		case "daemonEndpoints":
			return sharedValue(s, &d.endpoints, &status.DaemonEndpoints, same)
		case "nodeInfo":
			return d.commonNodeInfo(s, sc, &status.NodeInfo)
		case "images":
			return d.commonImages(s, &status.Images)
		case "config":
			return d.value(s, &status.Config)
		case "runtimeHandlers":
			return sharedValue(s, &d.handlers, &status.RuntimeHandlers, slices.Clip)
		case "features":
			return sharedValue(s, &d.features, &status.Features, same)
		case "volumesInUse":
			return d.value(s, &status.VolumesInUse)
		case "volumesAttached":
			return d.value(s, &status.VolumesAttached)
		case "declaredFeatures":
			return d.value(s, &status.DeclaredFeatures)
		}
		return false
	})
}

// decodeNodeList decodes a node's capacity or allocatable. The node
// decoder keeps one list per distinct text (nodes of one instance type
// have the same); nothing writes to a loaded node's lists (DefaultNode
// rounds into a copy, and the collector shares them anyway).
func decodeNodeList(text []byte) (l corev1.ResourceList, err error) {
	err = jsonv2.Unmarshal(text, &l, decodeOptions)
	return l, err
}

// commonConditions reads a node's conditions (five a kubelet reports,
// each with two times) into a slice of exactly their number.
func (d *nodeDecoder) commonConditions(s *scanner, sc *stringCache, cs *[]corev1.NodeCondition) bool {
	return listOf(s, &d.pools.conditions, cs, func(c *corev1.NodeCondition) bool { return commonCondition(s, sc, c) })
}

// listOf reads an array into *v, a slice of exactly its length, reading
// each element with elem into a scratch slice from pool (a *[]T).
func listOf[T any](s *scanner, pool *sync.Pool, v *[]T, elem func(*T) bool) bool {
	if !s.consume('[') {
		return false
	}
	scratch := pool.Get().(*[]T)
	defer func() {
		clear(*scratch)
		*scratch = (*scratch)[:0]
		pool.Put(scratch)
	}()
	if !s.consume(']') {
		var zero T
		for {
			*scratch = append(*scratch, zero)
			if !elem(&(*scratch)[len(*scratch)-1]) {
				return false
			}
			if !s.consume(',') {
				break
			}
		}
		if !s.consume(']') {
			return false
		}
	}
	*v = exactCopy(*scratch)
	return true
}

func commonCondition(s *scanner, sc *stringCache, c *corev1.NodeCondition) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "type":
			return plainString(s, sc, &c.Type)
		case "status":
			return plainString(s, sc, &c.Status)
		case "lastHeartbeatTime":
			return scanTime(s, &c.LastHeartbeatTime)
		case "lastTransitionTime":
			return scanTime(s, &c.LastTransitionTime)
		case "reason":
			return plainString(s, sc, &c.Reason)
		case "message":
			return plainString(s, sc, &c.Message)
		}
		return false
	})
}

func (d *nodeDecoder) commonNodeInfo(s *scanner, sc *stringCache, info *corev1.NodeSystemInfo) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "machineID":
			return plainString(s, nil, &info.MachineID)
		case "systemUUID":
			return plainString(s, nil, &info.SystemUUID)
		case "bootID":
			return plainString(s, nil, &info.BootID)
		case "kernelVersion":
			return plainString(s, sc, &info.KernelVersion)
		case "osImage":
			return plainString(s, sc, &info.OSImage)
		case "containerRuntimeVersion":
			return plainString(s, sc, &info.ContainerRuntimeVersion)
		case "kubeletVersion":
			return plainString(s, sc, &info.KubeletVersion)
		case "kubeProxyVersion":
			return plainString(s, sc, &info.KubeProxyVersion) //nolint:staticcheck // kubelets still report it, empty
		case "operatingSystem":
			return plainString(s, sc, &info.OperatingSystem)
		case "architecture":
			return plainString(s, sc, &info.Architecture)
		case "swap":
			return sharedValue(s, &d.swaps, &info.Swap, same)
		}
		return false
	})
}

func commonAddress(s *scanner, sc *stringCache, a *corev1.NodeAddress) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "type":
			return plainString(s, sc, &a.Type)
		case "address":
			return plainString(s, nil, &a.Address)
		}
		return false
	})
}

// sharedValue sets *v to the value b keeps for the next value's text,
// decoded with decodeOptions then clipped the first time (wholeOf): what
// every node of a kind reports alike (its kubelet's port, runtime handlers
// and features, its swap), decoded as the json v2 path decodes it, once.
// Nothing writes to a loaded node's values.
func sharedValue[T any](s *scanner, b *byText[T], v *T, clip func(T) T) bool {
	text, ok := s.value()
	if !ok {
		return false
	}
	var err error
	*v, err = wholeOf(b, text, clip)
	return err == nil
}

// same leaves a value that is not a slice as it is (sharedValue).
func same[T any](v T) T { return v }

// commonImages reads a node's images as the node decoder's unmarshalers
// do: each image the shared value of its text (d.images, decoded once per
// distinct text), the list allocated at its length.
func (d *nodeDecoder) commonImages(s *scanner, images *[]corev1.ContainerImage) bool {
	return listOf(s, &d.pools.images, images, func(img *corev1.ContainerImage) bool {
		return byValue(s, &d.images, img, decodeImage)
	})
}

// decodeImage decodes an image as the node decoder's unmarshaler of a
// ContainerImage does (sharedWhole with clipImage).
func decodeImage(text []byte) (corev1.ContainerImage, error) {
	var img corev1.ContainerImage
	err := jsonv2.Unmarshal(text, &img, decodeOptions)
	return clipImage(img), err
}

// stringMap reads a JSON object of strings (labels, annotations) into a
// new map, its keys and short values from sc (a node repeats the keys and
// most values of every other node's labels). null leaves *m nil, as json
// v2 does; a map with an escape (an annotation holding JSON) is decoded by
// json v2 from its text, as the json v2 path does.
func stringMap(s *scanner, sc *stringCache, m *map[string]string) bool {
	if s.peek() == 'n' {
		*m = nil
		return s.literal("null")
	}
	text, ok := s.value()
	if !ok || text[0] != '{' {
		return false
	}
	out := make(map[string]string, bytes.Count(text, []byte(`":`)))
	sub := &scanner{data: text}
	if members(sub, func(name []byte) bool {
		var v string
		if !utf8.Valid(name) || !plainString(sub, sc, &v) {
			return false
		}
		out[sc.make(name)] = v
		return true
	}) {
		*m = out
		return true
	}
	*m = nil
	return jsonv2.Unmarshal(text, m, decodeOptions) == nil
}

// value decodes the next value into v with the node decoder's options, as
// the json v2 path reaches it: the same unmarshalers, on the same text.
func (d *nodeDecoder) value(s *scanner, v any) bool {
	text, ok := s.value()
	return ok && jsonv2.Unmarshal(text, v, d.opts) == nil
}
