package load

// This file decodes the common pod of a file (metadata, containers with
// their names, images and resources, the node, the phase) by walking its
// text with the scanner of podscan.go, without the reflection of a struct
// decode. Any member it does not expect, a string with an escape, or a
// value of an unexpected kind, and it gives up: the pod decoder then
// decodes the pod its usual way, so the pod is the same whichever way it
// was decoded. Values it does not walk (labels, owner references, resource
// lists, times, conditions) are decoded from their text by the pod
// decoder's own unmarshalers' functions, or with its options.
// TestCommonPodMatchesPodDecoder and FuzzCommonPod check it against the
// pod decoder.

import (
	"bytes"
	"errors"
	"hash/maphash"
	"slices"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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

// walkCache is what one walk keeps for the next on the same core: its
// strings, and the last value it was given for the text of each value it
// shares (a pod's labels, owner references and containers). Pods come in
// the order of their names, so the replicas of a template follow each
// other: most pods spell these values as the pod before them, and find
// them here without hashing their text or taking the shared table's lock
// (byText, whose lock the decoders on every core take in turn).
type walkCache struct {
	strings     stringCache
	labels      lastText[map[string]string]
	annotations lastText[map[string]string]
	owners      lastText[[]metav1.OwnerReference]
	containers  lastText[[]corev1.Container]
	// maps decodes a string map with strings for its keys (set once:
	// a walk cache is its pod decoder's).
	maps func([]byte) (map[string]string, error)
}

// lastText is the value a byText gave for the last text looked up through
// it.
type lastText[V any] struct {
	text []byte
	v    V
	ok   bool
}

// byValue is the package's byValue through m: the value of the next
// value's text, from m when it is the text m holds.
func (m *lastText[V]) byValue(s *scanner, b *byText[V], v *V, decode func([]byte) (V, error)) bool {
	text, ok := s.value()
	if !ok {
		return false
	}
	if m.ok && bytes.Equal(m.text, text) {
		*v = m.v
		return true
	}
	got, err := b.get(text, decode)
	if err != nil {
		return false
	}
	*v = got
	// Only a value b keeps is every pod's of its text (maxKeptText).
	if m.ok = len(text) <= maxKeptText; m.ok {
		m.text, m.v = append(m.text[:0], text...), got
	}
	return true
}

// commonPools are decodeCommon's reused memory: walk caches, the
// containers of a pod being decoded (copied at their number once read),
// the pod being decoded, and the slabs its copy is taken from.
type commonPools struct {
	walks, containers, pods, slabs sync.Pool
}

func newCommonPools() commonPools {
	return commonPools{
		walks:      sync.Pool{New: func() any { return new(walkCache) }},
		containers: sync.Pool{New: func() any { return new([]corev1.Container) }},
		pods:       sync.Pool{New: func() any { return new(corev1.Pod) }},
		slabs:      sync.Pool{New: func() any { return new(slab[corev1.Pod]) }},
	}
}

// decodeCommonCopied is decodeCommon into a reused pod, copied into a new
// one from a slab when it could (writtenFirst).
func (d *podDecoder) decodeCommonCopied(data []byte) (*corev1.Pod, bool) {
	return writtenFirst(&d.pools.pods, data, d.decodeCommon, d.newPod)
}

// newPod is a new pod from the decoders' slabs. A slab the pool drops at a
// collection leaves its unused pods allocated, at most slabLen a decoder.
func (d *podDecoder) newPod() *corev1.Pod {
	s := d.pools.slabs.Get().(*slab[corev1.Pod])
	p := s.next()
	d.pools.slabs.Put(s)
	return p
}

// writtenFirst decodes data with decode into a T from scratch (a pool of
// *T), and returns a new T from alloc, copied from it, when decode could.
// A walk reads a field's address before it writes the field (Go checks a
// pointer for nil by loading through the field's address), and the first
// load of a never-used page maps the shared zero page, which the first
// store must then replace: twice the page faults, and the second one
// flushes the page's mapping on every core. A pod or a node is larger than a page;
// copying it whole writes each of its new pages first. The copy costs
// less than the faults it saves (docs/PERFORMANCE.md, "Write first").
func writtenFirst[T any](scratch *sync.Pool, data []byte, decode func([]byte, *T) bool, alloc func() *T) (*T, bool) {
	v := scratch.Get().(*T)
	defer scratch.Put(v)
	ok := decode(data, v)
	var out *T
	if ok {
		out = alloc()
		*out = *v
	}
	var zero T
	*v = zero
	return out, ok
}

// decodeCommon decodes data into pod and reports whether it could; when
// it could not, pod holds part of the text and must be dropped.
func (d *podDecoder) decodeCommon(data []byte, pod *corev1.Pod) bool {
	w := d.pools.walks.Get().(*walkCache)
	defer d.pools.walks.Put(w)
	if w.maps == nil {
		w.maps = func(text []byte) (map[string]string, error) { return d.decodeStringMap(text, &w.strings) }
	}
	sc := &w.strings
	s := &scanner{data: data}
	ok := members(s, func(name []byte) bool {
		switch string(name) {
		case "kind":
			return plainString(s, sc, &pod.Kind)
		case "apiVersion":
			return plainString(s, sc, &pod.APIVersion)
		case "metadata":
			return d.commonMeta(s, w, pod)
		case "spec":
			return d.commonSpec(s, w, &pod.Spec)
		case "status":
			return d.commonStatus(s, sc, &pod.Status)
		}
		return false
	})
	return ok && s.atEnd()
}

func (d *podDecoder) commonMeta(s *scanner, w *walkCache, pod *corev1.Pod) bool {
	m := &pod.ObjectMeta
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "name":
			return plainString(s, nil, &m.Name)
		case "namespace":
			return plainString(s, &w.strings, &m.Namespace)
		case "generateName":
			return plainString(s, nil, &m.GenerateName)
		case "uid":
			return plainString(s, nil, &m.UID)
		case "resourceVersion":
			return plainString(s, nil, &m.ResourceVersion)
		case "creationTimestamp":
			return scanTime(s, &m.CreationTimestamp)
		case "deletionTimestamp":
			return d.value(s, &m.DeletionTimestamp)
		case "deletionGracePeriodSeconds":
			return d.value(s, &m.DeletionGracePeriodSeconds)
		case "labels":
			return w.labels.byValue(s, &d.maps, &m.Labels, w.maps)
		case "annotations":
			return w.annotations.byValue(s, &d.maps, &m.Annotations, w.maps)
		case "ownerReferences":
			return w.owners.byValue(s, &d.ownerRefs, &m.OwnerReferences, decodeOwnerRefs)
		}
		return false
	})
}

func (d *podDecoder) commonSpec(s *scanner, w *walkCache, spec *corev1.PodSpec) bool {
	sc := &w.strings
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "containers":
			return d.commonContainers(s, w, &spec.Containers)
		case "nodeName":
			return plainString(s, sc, &spec.NodeName)
		case "schedulerName":
			return plainString(s, sc, &spec.SchedulerName)
		case "priorityClassName":
			return plainString(s, sc, &spec.PriorityClassName)
		case "priority":
			return d.value(s, &spec.Priority)
		case "nodeSelector":
			return byValue(s, &d.maps, &spec.NodeSelector, d.decodeMap)
		case "tolerations":
			text, ok := s.value()
			if !ok {
				return false
			}
			var err error
			spec.Tolerations, err = wholeOf(&d.tolerations, text, slices.Clip)
			return err == nil
		}
		return false
	})
}

// commonContainers sets *cs to the containers of the next value, decoded
// once per distinct text and shared by every pod that spells them the same
// way (the replicas of a template): a slice of exactly its length, as the
// pod decoder allocates one (exact), and as the collector would share it
// (podSlices). Nothing writes to a decoded pod's containers: DefaultPod
// copies them before a change, and slimContainer finds nothing to clear in
// what the walk takes.
func (d *podDecoder) commonContainers(s *scanner, w *walkCache, cs *[]corev1.Container) bool {
	return w.containers.byValue(s, &d.containers, cs, func(text []byte) ([]corev1.Container, error) {
		return d.containerList(text, &w.strings)
	})
}

// errGaveUp is the error of a value the walk does not decode.
var errGaveUp = errors.New("not a value the common pod walk decodes")

// containerList decodes text, a list of containers, into a slice of
// exactly its length.
func (d *podDecoder) containerList(text []byte, sc *stringCache) ([]corev1.Container, error) {
	s := &scanner{data: text}
	if !s.consume('[') {
		return nil, errGaveUp
	}
	scratch := d.pools.containers.Get().(*[]corev1.Container)
	defer func() {
		clear(*scratch)
		*scratch = (*scratch)[:0]
		d.pools.containers.Put(scratch)
	}()
	list := *scratch
	if !s.consume(']') {
		for {
			list = append(list, corev1.Container{})
			*scratch = list
			if !d.commonContainer(s, sc, &list[len(list)-1]) {
				return nil, errGaveUp
			}
			if !s.consume(',') {
				break
			}
		}
		if !s.consume(']') {
			return nil, errGaveUp
		}
	}
	if !s.atEnd() {
		return nil, errGaveUp
	}
	return exactCopy(list), nil
}

func (d *podDecoder) commonContainer(s *scanner, sc *stringCache, c *corev1.Container) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "name":
			return plainString(s, sc, &c.Name)
		case "image":
			return plainString(s, sc, &c.Image)
		case "resources":
			return members(s, func(name []byte) bool {
				switch string(name) {
				case "requests":
					return byValue(s, &d.lists, &c.Resources.Requests, d.decodeList)
				case "limits":
					return byValue(s, &d.lists, &c.Resources.Limits, d.decodeList)
				}
				return false
			})
		}
		return false
	})
}

func (d *podDecoder) commonStatus(s *scanner, sc *stringCache, status *corev1.PodStatus) bool {
	return members(s, func(name []byte) bool {
		switch string(name) {
		case "phase":
			return plainString(s, sc, &status.Phase)
		case "nominatedNodeName":
			return plainString(s, sc, &status.NominatedNodeName)
		case "conditions":
			return d.value(s, &status.Conditions)
		}
		return false
	})
}

// value decodes the next value into v with the pod decoder's options, as
// the usual decode reaches it: the same unmarshalers, on the same text.
func (d *podDecoder) value(s *scanner, v any) bool {
	text, ok := s.value()
	return ok && jsonv2.Unmarshal(text, v, d.opts) == nil
}

// byValue sets *v to the value b shares for the next value's text, as the
// pod decoder's unmarshalers do (shared).
func byValue[V any](s *scanner, b *byText[V], v *V, decode func([]byte) (V, error)) bool {
	text, ok := s.value()
	if !ok {
		return false
	}
	var err error
	*v, err = b.get(text, decode)
	return err == nil
}

// members reads an object, calling member for each member's name (as
// written, without its quotes) with the scanner at its value; member
// reads the value and reports whether it could. A name with an escape,
// null, or another kind of value than an object: false.
func members(s *scanner, member func(name []byte) bool) bool {
	if !s.consume('{') {
		return false
	}
	if s.consume('}') {
		return true
	}
	for {
		// A name the scanner takes without checking its UTF-8 is matched
		// against ASCII names only: one that is not valid UTF-8 matches
		// none, and the walk gives up on it.
		name, ok := s.plain()
		if !ok || !s.consume(':') || !member(name) {
			return false
		}
		if !s.consume(',') {
			return s.consume('}')
		}
	}
}

// plainString reads a string without escapes, in valid UTF-8, into s:
// what the decoder would read it as, without unquoting. The string comes
// from sc unless sc is nil (a name of its own, a UID: never met again).
func plainString[S ~string](s *scanner, sc *stringCache, v *S) bool {
	text, ok := s.plainText()
	if !ok {
		return false
	}
	if sc == nil {
		*v = S(text)
	} else {
		*v = S(sc.make(text))
	}
	return true
}

// scanTime reads a metav1.Time as unmarshalTime does, for a string
// without escapes (what the scanner cannot unquote, it gives up on).
func scanTime(s *scanner, t *metav1.Time) bool {
	if s.peek() == 'n' {
		t.Time = time.Time{}
		return s.literal("null")
	}
	text, ok := s.plainText()
	if !ok {
		return false
	}
	parsed, err := time.Parse(time.RFC3339, string(text))
	if err != nil {
		return false
	}
	t.Time = parsed.Local()
	return true
}

// maxCommonPod is the longest pod text decodeCommon tries: a pod with what
// the API server and the kubelet add (managed fields, defaulted fields, a
// status) is longer, and holds members decodeCommon gives up on.
const maxCommonPod = 2048
