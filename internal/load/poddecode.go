package load

// This file decodes the pods of files faster and into less memory than a
// plain decode followed by slimPod and the collector's sharing, with the
// same result: what slimPod would drop is skipped instead of decoded (a
// pod's container states, environment, mounts, probes and kubelet-only
// volume sources are most of its text), and each resource list and string
// map (labels, annotations, node selectors) is decoded once per distinct
// text and shared by every pod that spells it the same way (the replicas of
// a template do). TestPodDecoderMatchesDecodeAndSlim checks the result
// against decodeTyped + slimPod on every gen-cluster pod.

import (
	"errors"
	"slices"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// errSkippedKind is the error of a skipped field whose value is not of a
// kind its type decodes (an object for a slice, say). The pod is then
// decoded the plain way, whose error names the field.
var errSkippedKind = errors.New("value of the wrong kind for the field")

// podDecoder decodes v1 Pods (decodeFunc's contract, for gvk v1 Pod). Safe
// for concurrent use: the decode step runs on every core.
type podDecoder struct {
	opts jsonv2.Options

	lists       byText[corev1.ResourceList]
	maps        byText[map[string]string]
	tolerations byText[[]corev1.Toleration]
	// Owner references are their workload's, the same in each replica; a
	// security context is most often "{}".
	ownerRefs        byText[[]metav1.OwnerReference]
	securityContexts byText[*corev1.PodSecurityContext]
	// Container statuses and conditions, slimmed as decoded: those of a
	// template's ready replicas are equal, and get one slice.
	statuses   canonical[corev1.ContainerStatus]
	conditions canonical[corev1.PodCondition]
	// containers are those of the pods the walk decodes (podcommon.go).
	containers byText[[]corev1.Container]
	// share gives equal lists and maps of different texts one copy too
	// ("0.5" and "500m"), as the collector's sharing did. Guarded by mu.
	mu    sync.Mutex
	share *listSharer
	// pools are decodeCommon's.
	pools commonPools
}

// byText holds values by the JSON text they were decoded from. Safe for
// concurrent use.
type byText[V any] struct {
	mu sync.RWMutex
	m  map[string]V
}

// maxKeptText is the longest text byText keeps a value by. A longer one
// (an annotation holding a JSON document, say) is decoded every time: such
// texts are rarely repeated, and keeping them would hold a copy of each.
const maxKeptText = 512

// get returns the value of text, decoding it with decode (and keeping it,
// when text is short) the first time.
func (b *byText[V]) get(text []byte, decode func([]byte) (V, error)) (V, error) {
	if len(text) > maxKeptText {
		return decode(text)
	}
	b.mu.RLock()
	v, ok := b.m[string(text)]
	b.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := decode(text)
	if err != nil {
		return v, err
	}
	b.mu.Lock()
	if b.m == nil {
		b.m = map[string]V{}
	}
	b.m[string(text)] = v
	b.mu.Unlock()
	return v, nil
}

// shared unmarshals the next value with the shared value of its text.
func shared[V any](dec *jsontext.Decoder, b *byText[V], v *V, decode func([]byte) (V, error)) error {
	text, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*v, err = b.get(text, decode)
	return err
}

// decodeOptions are the json v2 options every typed decode uses: invalid
// UTF-8 replaced as encoding/json does; duplicate keys never reach the
// decoder (the cutter rejects them).
var decodeOptions = jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

func newPodDecoder() *podDecoder { return newPodDecoderKeeping(false) }

// newPodDecoderKeeping is newPodDecoder keeping emptyDir volumes (as an
// empty EmptyDirVolumeSource) when keepEmptyDir is set.
func newPodDecoderKeeping(keepEmptyDir bool) *podDecoder {
	d := &podDecoder{share: newListSharer(), pools: newCommonPools()}
	d.share.keepEmptyDir = keepEmptyDir
	d.opts = jsonv2.JoinOptions(decodeOptions, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
		// Shared as decoded.
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *corev1.ResourceList) error {
			return d.sharedList(dec, v)
		}),
		jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *map[string]string) error {
			return d.sharedMap(dec, v)
		}),
		sharedWhole(&d.tolerations, slices.Clip),
		sharedWhole(&d.ownerRefs, slices.Clip),
		sharedWhole(&d.securityContexts, func(c *corev1.PodSecurityContext) *corev1.PodSecurityContext { return c }),
		// Slices of large elements, allocated at their length.
		exact[corev1.Container](),
		scratchSlice(func(vs []corev1.Volume) []corev1.Volume { return keptVolumes(vs, true, keepEmptyDir) }),
		exact[corev1.ContainerPort](),
		// Slimmed and shared as decoded: never allocated for a pod whose
		// statuses or conditions an earlier pod has.
		scratchSlice(func(ss []corev1.ContainerStatus) []corev1.ContainerStatus {
			for i := range ss {
				slimContainerStatus(&ss[i])
			}
			return d.statuses.get(ss, statusKey, deepEqual)
		}),
		scratchSlice(func(cs []corev1.PodCondition) []corev1.PodCondition {
			for i := range cs {
				slimCondition(&cs[i])
			}
			return d.conditions.get(cs, conditionKey, slices.Equal)
		}),
		// Timestamps (conditions, start times): metav1.Time's own
		// UnmarshalJSON goes through encoding/json for the string.
		jsonv2.UnmarshalFromFunc(unmarshalTime),
		// What slimContainer drops (Command, Args and the termination
		// message path are plain strings, decoded and dropped later).
		skipped[[]corev1.EnvVar]('['),
		skipped[[]corev1.EnvFromSource]('['),
		skipped[[]corev1.VolumeMount]('['),
		skipped[[]corev1.VolumeDevice]('['),
		skipped[*corev1.Probe]('{'),
		skipped[*corev1.Lifecycle]('{'),
		skipped[*corev1.SecurityContext]('{'),
		skipped[corev1.TerminationMessagePolicy]('"'),
		// What slimContainerStatus drops.
		skipped[corev1.ContainerState]('{'),
		skipped[[]corev1.VolumeMountStatus]('['),
		skipped[*corev1.ContainerUser]('{'),
		skipped[[]corev1.ResourceStatus]('['),
		// The volume sources that make a volume kubeletOnly: set empty,
		// so that keptVolumes still sees which source the volume had.
		emptied[corev1.ConfigMapVolumeSource](),
		emptied[corev1.SecretVolumeSource](),
		emptied[corev1.ProjectedVolumeSource](),
		emptied[corev1.DownwardAPIVolumeSource](),
		emptied[corev1.EmptyDirVolumeSource](),
		emptied[corev1.HostPathVolumeSource](),
	)))
	return d
}

// decode is the decodeFunc of v1 Pods. A pod the fast way cannot decode is
// decoded the plain way (decodeTyped), so errors read as they always did.
func (d *podDecoder) decode(data []byte) (kruntime.Object, error) {
	if len(data) <= maxCommonPod {
		if pod, ok := d.decodeCommonCopied(data); ok {
			return pod, nil
		}
	}
	pod := &corev1.Pod{}
	if jsonv2.Unmarshal(data, pod, d.opts) == nil {
		return pod, nil
	}
	return decodeTyped(data, corev1.SchemeGroupVersion.WithKind("Pod"))
}

// skipped unmarshals a value of type T by skipping it, leaving T's zero
// value: T is a field slimPod clears. The value must be null or of the JSON
// kind T decodes from (kind), so that a pod the plain decode would refuse
// is still refused; what is inside the value is not checked.
func skipped[T any](kind jsontext.Kind) *jsonv2.Unmarshalers {
	return jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error {
		if k := dec.PeekKind(); k != 'n' && k != kind {
			return errSkippedKind
		}
		var zero T
		*v = zero
		return dec.SkipValue()
	})
}

// emptied unmarshals a *T by skipping the value and setting an empty T
// (nil for null).
func emptied[T any]() *jsonv2.Unmarshalers {
	return jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v **T) error {
		switch dec.PeekKind() {
		case 'n':
			*v = nil
		case '{':
			*v = new(T)
		default:
			return errSkippedKind
		}
		return dec.SkipValue()
	})
}

// sharedList sets *v to the shared list of the next value's text.
func (d *podDecoder) sharedList(dec *jsontext.Decoder, v *corev1.ResourceList) error {
	return shared(dec, &d.lists, v, d.decodeList)
}

// decodeList decodes a resource list and shares it (sharedList).
func (d *podDecoder) decodeList(text []byte) (l corev1.ResourceList, err error) {
	if err = jsonv2.Unmarshal(text, &l, decodeOptions); err == nil {
		d.mu.Lock()
		l = d.share.list(l)
		d.mu.Unlock()
	}
	return l, err
}

// sharedMap sets *v to the shared map of the next value's text.
func (d *podDecoder) sharedMap(dec *jsontext.Decoder, v *map[string]string) error {
	return shared(dec, &d.maps, v, d.decodeMap)
}

// decodeMap decodes a string map (sharedMap): decodeStringMap.
func (d *podDecoder) decodeMap(text []byte) (map[string]string, error) {
	return d.decodeStringMap(text, nil)
}

// decodeStringMap decodes a string map, its keys from keys when not nil
// (plainStringMap). text is a whole value jsontext or the scanner has
// checked: plainStringMap relies on it. A map byText keeps is shared by
// its text only: maps of different texts with the same content ("\u0061"
// and "a", keys in another order) are not what the API server or kubectl
// write, and sharing by content cost a sorted key, and a lock the
// decoders on every core took in turn, for every new map. A longer text
// (maxKeptText) is decoded every time, and its map shared by content.
func (d *podDecoder) decodeStringMap(text []byte, keys *stringCache) (m map[string]string, err error) {
	m, ok := plainStringMap(text, keys)
	if !ok {
		err = jsonv2.Unmarshal(text, &m, decodeOptions)
	}
	if err == nil && len(text) > maxKeptText {
		d.mu.Lock()
		m = d.share.stringMap(m)
		d.mu.Unlock()
	}
	return m, err
}

// decodeOwnerRefs decodes a pod's owner references, the plain ones
// without json v2 (plainOwnerRefs), as unmarshalWhole does.
func decodeOwnerRefs(text []byte) ([]metav1.OwnerReference, error) {
	if refs, ok := plainOwnerRefs(text); ok {
		return refs, nil
	}
	var refs []metav1.OwnerReference
	err := jsonv2.Unmarshal(text, &refs, decodeOptions)
	return slices.Clip(refs), err
}

// sharedWhole unmarshals a T as the shared value of its text, decoded
// plainly, then passed through clip (slices.Clip for a slice: a shared
// slice that an append could extend in place would not stay shared). T is
// a value no custom unmarshaler reaches into and nothing changes after
// loading: most pods have the same two tolerations (not-ready and
// unreachable for 300 s), the same security context and their workload's
// owner references.
func sharedWhole[T any](b *byText[T], clip func(T) T) *jsonv2.Unmarshalers {
	return jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error {
		return unmarshalWhole(dec, b, v, clip)
	})
}

// unmarshalWhole is sharedWhole's unmarshaler.
func unmarshalWhole[T any](dec *jsontext.Decoder, b *byText[T], v *T, clip func(T) T) error {
	text, err := dec.ReadValue()
	if err != nil {
		return err
	}
	*v, err = wholeOf(b, text, clip)
	return err
}

// wholeOf is the shared value of text, decoded plainly then clipped the
// first time (sharedWhole).
func wholeOf[T any](b *byText[T], text []byte, clip func(T) T) (T, error) {
	return b.get(text, func(text []byte) (t T, err error) {
		err = jsonv2.Unmarshal(text, &t, decodeOptions)
		return clip(t), err
	})
}

// exact unmarshals a []T into a slice of exactly its length: the default
// decoding grows slices by doubling, which for large elements (a Container
// is 408 bytes, a ContainerStatus 208) leaves a third of their memory
// unused and allocates twice what it keeps.
func exact[T any]() *jsonv2.Unmarshalers {
	return scratchSlice(exactCopy[T])
}

func exactCopy[T any](s []T) []T { return append(make([]T, 0, len(s)), s...) }

// scratchSlice unmarshals a []T by decoding its elements into a reused
// scratch slice, then setting the value to done(scratch), which must not
// retain scratch (null stays nil; [] is an empty, non-nil slice when done
// copies).
func scratchSlice[T any](done func(scratch []T) []T) *jsonv2.Unmarshalers {
	pool := &sync.Pool{New: func() any { return new([]T) }}
	return jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *[]T) error {
		switch dec.PeekKind() {
		case 'n':
			*v = nil
			return dec.SkipValue()
		case '[':
		default:
			return errSkippedKind
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		scratch := pool.Get().(*[]T)
		defer func() {
			clear(*scratch)
			*scratch = (*scratch)[:0]
			pool.Put(scratch)
		}()
		var zero T
		for dec.PeekKind() != ']' {
			*scratch = append(*scratch, zero)
			if err := jsonv2.UnmarshalDecode(dec, &(*scratch)[len(*scratch)-1]); err != nil {
				return err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		*v = done(*scratch)
		return nil
	})
}

// canonical hands out one slice per distinct content, to the decoders on
// every core. A slice it hands out is shared by every pod that has its
// content, so nothing may write to it afterwards: slimPod and DefaultPod
// write to a pod's statuses and conditions only what differs (a status
// quantity to round gets the pod a copy).
type canonical[E any] struct {
	mu    sync.Mutex
	byKey map[string][][]E
	key   keyBuf
}

// get returns the slice equal to v handed out before, or else an exact
// copy of v (sharedSlice; v is not retained).
func (c *canonical[E]) get(v []E, key func(*keyBuf, []E), equal func(a, b []E) bool) []E {
	if len(v) == 0 {
		return exactCopy(v)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string][][]E{}
	}
	return sharedSlice(&c.key, c.byKey, v, key, equal, exactCopy[E])
}

// unmarshalTime reads a metav1.Time as its UnmarshalJSON does (apimachinery
// v0.36 pkg/apis/meta/v1/time.go): null is the zero time, a string is
// parsed as RFC 3339 and kept in local time. Anything else, or a string
// that does not parse, fails, and the pod is decoded the plain way, whose
// error names it.
func unmarshalTime(dec *jsontext.Decoder, t *metav1.Time) error {
	switch dec.PeekKind() {
	case 'n':
		t.Time = time.Time{}
		return dec.SkipValue()
	case '"':
	default:
		return errSkippedKind
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	parsed, err := time.Parse(time.RFC3339, tok.String())
	if err != nil {
		return err
	}
	t.Time = parsed.Local()
	return nil
}
