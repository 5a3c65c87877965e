package load

// This file keeps decodeCommon's walk over json v2's tokens
// (jsontext.Decoder), which the scanner of podscan.go replaced: the
// benchmark measures the scanner against it (BenchmarkPodDecoderSmall),
// and the tests check that the scanner accepts no pod it refuses.

import (
	"bytes"
	"slices"
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

// decodeCommonTokens decodes data into pod with t and reports whether it could; when
// it could not, pod holds part of the text and must be dropped.
func (d *podDecoder) decodeCommonTokens(t *tokenReader, data []byte, pod *corev1.Pod) bool {
	t.in.Reset(data)
	t.dec.Reset(&t.in, d.opts)
	dec, sc := &t.dec, &t.strings
	ok := tokenMembers(dec, func(name []byte) bool {
		switch string(name) {
		case "kind":
			return tokenString(dec, sc, &pod.Kind)
		case "apiVersion":
			return tokenString(dec, sc, &pod.APIVersion)
		case "metadata":
			return d.tokensMeta(dec, sc, pod)
		case "spec":
			return d.tokensSpec(dec, sc, &pod.Spec)
		case "status":
			return d.tokensStatus(dec, sc, &pod.Status)
		}
		return false
	})
	// Nothing but space may follow, as Unmarshal checks.
	return ok && len(bytes.TrimSpace(data[dec.InputOffset():])) == 0
}

func (d *podDecoder) tokensMeta(dec *jsontext.Decoder, sc *stringCache, pod *corev1.Pod) bool {
	m := &pod.ObjectMeta
	return tokenMembers(dec, func(name []byte) bool {
		switch string(name) {
		case "name":
			return tokenString(dec, nil, &m.Name)
		case "namespace":
			return tokenString(dec, sc, &m.Namespace)
		case "generateName":
			return tokenString(dec, nil, &m.GenerateName)
		case "uid":
			return tokenString(dec, nil, &m.UID)
		case "resourceVersion":
			return tokenString(dec, nil, &m.ResourceVersion)
		case "creationTimestamp":
			return unmarshalTime(dec, &m.CreationTimestamp) == nil
		case "deletionTimestamp":
			return d.tokensValue(dec, &m.DeletionTimestamp)
		case "deletionGracePeriodSeconds":
			return d.tokensValue(dec, &m.DeletionGracePeriodSeconds)
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

func (d *podDecoder) tokensSpec(dec *jsontext.Decoder, sc *stringCache, spec *corev1.PodSpec) bool {
	return tokenMembers(dec, func(name []byte) bool {
		switch string(name) {
		case "containers":
			return d.tokensContainers(dec, sc, &spec.Containers)
		case "nodeName":
			return tokenString(dec, sc, &spec.NodeName)
		case "schedulerName":
			return tokenString(dec, sc, &spec.SchedulerName)
		case "priorityClassName":
			return tokenString(dec, sc, &spec.PriorityClassName)
		case "priority":
			return d.tokensValue(dec, &spec.Priority)
		case "nodeSelector":
			return d.sharedMap(dec, &spec.NodeSelector) == nil
		case "tolerations":
			return unmarshalWhole(dec, &d.tolerations, &spec.Tolerations, slices.Clip) == nil
		}
		return false
	})
}

// tokensContainers decodes a list of containers into a slice of exactly
// its length, as the pod decoder does (exact).
func (d *podDecoder) tokensContainers(dec *jsontext.Decoder, sc *stringCache, cs *[]corev1.Container) bool {
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
		if !d.tokensContainer(dec, sc, &list[len(list)-1]) {
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

func (d *podDecoder) tokensContainer(dec *jsontext.Decoder, sc *stringCache, c *corev1.Container) bool {
	return tokenMembers(dec, func(name []byte) bool {
		switch string(name) {
		case "name":
			return tokenString(dec, sc, &c.Name)
		case "image":
			return tokenString(dec, sc, &c.Image)
		case "resources":
			return tokenMembers(dec, func(name []byte) bool {
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

func (d *podDecoder) tokensStatus(dec *jsontext.Decoder, sc *stringCache, status *corev1.PodStatus) bool {
	return tokenMembers(dec, func(name []byte) bool {
		switch string(name) {
		case "phase":
			return tokenString(dec, sc, &status.Phase)
		case "nominatedNodeName":
			return tokenString(dec, sc, &status.NominatedNodeName)
		case "conditions":
			return d.tokensValue(dec, &status.Conditions)
		}
		return false
	})
}

// value decodes the next value into v with the pod decoder's options.
func (d *podDecoder) tokensValue(dec *jsontext.Decoder, v any) bool {
	return jsonv2.UnmarshalDecode(dec, v, d.opts) == nil
}

// members reads an object, calling member for each member's name (as
// written, without its quotes) with the decoder at its value; member
// reads the value and reports whether it could. A name with an escape,
// null, or another kind of value than an object: false.
func tokenMembers(dec *jsontext.Decoder, member func(name []byte) bool) bool {
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
func tokenString[S ~string](dec *jsontext.Decoder, sc *stringCache, s *S) bool {
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
