package load

// This file decodes the common pod of a file (metadata, containers with
// their names, images and resources, the node, the phase) by walking its
// tokens, without the reflection of a struct decode. Any member it does not
// expect, a string with an escape, or a value of an unexpected kind, and it
// gives up: the pod decoder then decodes the pod its usual way, so the pod
// is the same whichever way it was decoded. Values it does not walk
// (labels, owner references, resource lists, times, conditions) are decoded
// by the pod decoder's own unmarshalers, called directly or through its
// options.
// TestCommonPodMatchesPodDecoder checks it against the pod decoder.

import (
	"bytes"
	"hash/maphash"
	"slices"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
)

// tokenReader is a reusable decoder of one pod's text, with the strings
// it made lately.
type tokenReader struct {
	in      bytes.Reader
	dec     jsontext.Decoder
	strings stringCache
}

// stringCache holds a string for each of its slots, chosen by a hash of the
// string's bytes: a string met again (a namespace, an image, "Running")
// is not allocated again while it holds its slot. Like json v2's cache of
// the strings it decodes, which decodeCommon does not use.
type stringCache struct {
	seed  maphash.Seed
	slots [256]string
}

// maxCachedString is the longest string the cache keeps (an image
// reference with its registry fits).
const maxCachedString = 96

// make returns b as a string, from the cache when it holds it.
func (c *stringCache) make(b []byte) string {
	if len(b) == 0 || len(b) > maxCachedString {
		return string(b)
	}
	if c.seed == (maphash.Seed{}) {
		c.seed = maphash.MakeSeed()
	}
	slot := &c.slots[maphash.Bytes(c.seed, b)%uint64(len(c.slots))]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}

// commonPools are decodeCommon's reused memory: token readers, and the
// containers of a pod being decoded (copied at their number once read).
type commonPools struct {
	readers, containers sync.Pool
}

func newCommonPools() commonPools {
	return commonPools{
		readers:    sync.Pool{New: func() any { return new(tokenReader) }},
		containers: sync.Pool{New: func() any { return new([]corev1.Container) }},
	}
}

// decodeCommon decodes data into pod and reports whether it could; when
// it could not, pod holds part of the text and must be dropped.
func (d *podDecoder) decodeCommon(data []byte, pod *corev1.Pod) bool {
	t := d.pools.readers.Get().(*tokenReader)
	defer d.pools.readers.Put(t)
	t.in.Reset(data)
	t.dec.Reset(&t.in, d.opts)
	dec, sc := &t.dec, &t.strings
	ok := members(dec, func(name []byte) bool {
		switch string(name) {
		case "kind":
			return plainString(dec, sc, &pod.Kind)
		case "apiVersion":
			return plainString(dec, sc, &pod.APIVersion)
		case "metadata":
			return d.commonMeta(dec, sc, pod)
		case "spec":
			return d.commonSpec(dec, sc, &pod.Spec)
		case "status":
			return d.commonStatus(dec, sc, &pod.Status)
		}
		return false
	})
	// Nothing but space may follow, as Unmarshal checks.
	return ok && len(bytes.TrimSpace(data[dec.InputOffset():])) == 0
}

func (d *podDecoder) commonMeta(dec *jsontext.Decoder, sc *stringCache, pod *corev1.Pod) bool {
	m := &pod.ObjectMeta
	return members(dec, func(name []byte) bool {
		switch string(name) {
		case "name":
			return plainString(dec, nil, &m.Name)
		case "namespace":
			return plainString(dec, sc, &m.Namespace)
		case "generateName":
			return plainString(dec, nil, &m.GenerateName)
		case "uid":
			return plainString(dec, nil, &m.UID)
		case "resourceVersion":
			return plainString(dec, nil, &m.ResourceVersion)
		case "creationTimestamp":
			return unmarshalTime(dec, &m.CreationTimestamp) == nil
		case "deletionTimestamp":
			return d.value(dec, &m.DeletionTimestamp)
		case "deletionGracePeriodSeconds":
			return d.value(dec, &m.DeletionGracePeriodSeconds)
		case "labels":
			return d.sharedMap(dec, &m.Labels) == nil
		case "annotations":
			return d.sharedMap(dec, &m.Annotations) == nil
		case "ownerReferences":
			return shared(dec, &d.ownerRefs, &m.OwnerReferences, decodeOwnerRefs) == nil
		}
		return false
	})
}

func (d *podDecoder) commonSpec(dec *jsontext.Decoder, sc *stringCache, spec *corev1.PodSpec) bool {
	return members(dec, func(name []byte) bool {
		switch string(name) {
		case "containers":
			return d.commonContainers(dec, sc, &spec.Containers)
		case "nodeName":
			return plainString(dec, sc, &spec.NodeName)
		case "schedulerName":
			return plainString(dec, sc, &spec.SchedulerName)
		case "priorityClassName":
			return plainString(dec, sc, &spec.PriorityClassName)
		case "priority":
			return d.value(dec, &spec.Priority)
		case "nodeSelector":
			return d.sharedMap(dec, &spec.NodeSelector) == nil
		case "tolerations":
			return unmarshalWhole(dec, &d.tolerations, &spec.Tolerations, slices.Clip) == nil
		}
		return false
	})
}

// commonContainers decodes a list of containers into a slice of exactly
// its length, as the pod decoder does (exact).
func (d *podDecoder) commonContainers(dec *jsontext.Decoder, sc *stringCache, cs *[]corev1.Container) bool {
	if dec.PeekKind() != '[' {
		return false
	}
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	scratch := d.pools.containers.Get().(*[]corev1.Container)
	defer func() {
		clear(*scratch)
		*scratch = (*scratch)[:0]
		d.pools.containers.Put(scratch)
	}()
	list := *scratch
	for dec.PeekKind() == '{' {
		list = append(list, corev1.Container{})
		*scratch = list
		if !d.commonContainer(dec, sc, &list[len(list)-1]) {
			return false
		}
	}
	if dec.PeekKind() != ']' {
		return false
	}
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	*cs = exactCopy(list)
	return true
}

func (d *podDecoder) commonContainer(dec *jsontext.Decoder, sc *stringCache, c *corev1.Container) bool {
	return members(dec, func(name []byte) bool {
		switch string(name) {
		case "name":
			return plainString(dec, sc, &c.Name)
		case "image":
			return plainString(dec, sc, &c.Image)
		case "resources":
			return members(dec, func(name []byte) bool {
				switch string(name) {
				case "requests":
					return d.sharedList(dec, &c.Resources.Requests) == nil
				case "limits":
					return d.sharedList(dec, &c.Resources.Limits) == nil
				}
				return false
			})
		}
		return false
	})
}

func (d *podDecoder) commonStatus(dec *jsontext.Decoder, sc *stringCache, status *corev1.PodStatus) bool {
	return members(dec, func(name []byte) bool {
		switch string(name) {
		case "phase":
			return plainString(dec, sc, &status.Phase)
		case "nominatedNodeName":
			return plainString(dec, sc, &status.NominatedNodeName)
		case "conditions":
			return d.value(dec, &status.Conditions)
		}
		return false
	})
}

// value decodes the next value into v with the pod decoder's options.
func (d *podDecoder) value(dec *jsontext.Decoder, v any) bool {
	return jsonv2.UnmarshalDecode(dec, v, d.opts) == nil
}

// members reads an object, calling member for each member's name (as
// written, without its quotes) with the decoder at its value; member
// reads the value and reports whether it could. A name with an escape,
// null, or another kind of value than an object: false.
func members(dec *jsontext.Decoder, member func(name []byte) bool) bool {
	if dec.PeekKind() != '{' {
		return false
	}
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadValue()
		if err != nil || bytes.IndexByte(name, '\\') >= 0 || !member(name[1:len(name)-1]) {
			return false
		}
	}
	_, err := dec.ReadToken()
	return err == nil
}

// plainString reads a string without escapes, in valid UTF-8, into s:
// what the decoder would read it as, without unquoting. The string comes
// from sc unless sc is nil (a name of its own, a UID: never met again).
func plainString[S ~string](dec *jsontext.Decoder, sc *stringCache, s *S) bool {
	if dec.PeekKind() != '"' {
		return false
	}
	v, err := dec.ReadValue()
	if err != nil || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return false
	}
	if sc == nil {
		*s = S(v[1 : len(v)-1])
	} else {
		*s = S(sc.make(v[1 : len(v)-1]))
	}
	return true
}

// maxCommonPod is the longest pod text decodeCommon tries: a pod with what
// the API server and the kubelet add (managed fields, defaulted fields, a
// status) is longer, and holds members decodeCommon gives up on.
const maxCommonPod = 2048
