package load

// This file shares equal values between the objects of one load. A decoded
// ResourceList is a Go map of at least eight slots (about 600 bytes) even
// for two entries, and a pod has several: requests and limits per
// container, and in its status the allocated and actual resources per
// container. Every string is a separate allocation too, although a pod
// repeats its template's (images, label values, namespace, owner) and every
// pod repeats the same condition types and policies. Replicas of one
// template repeat all of them, so sharing them is most of what brings
// 150,000 pods under our memory budget (docs/PERFORMANCE.md#file-mode).

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// listSharer hands out one ResourceList per distinct content. Two lists are
// equal when they have the same names and, for each, quantities with the
// same canonical text (Quantity.String, which includes the format): such
// quantities have the same value and print the same. Not safe for
// concurrent use.
type listSharer struct {
	lists   map[string]corev1.ResourceList
	strs    map[string]string
	strMaps map[string]map[string]string
	// podsShared says the pod decoder shared pods' lists and maps already
	// (pod then interns their strings only).
	podsShared bool
	inPod      bool
	// keepEmptyDir: the pods prepared with this sharer keep their emptyDir
	// volumes (FileOptions.KeepEmptyDir, ListOptions.KeepEmptyDir).
	keepEmptyDir bool
	// containers, statuses and conditions hold the pods' slimmed
	// container, container status and condition slices by a short key
	// (sharedSlice).
	containers map[string][][]corev1.Container
	// handedOut holds the length of each container slice sharedContainers
	// returned, by its first element.
	handedOut  map[*corev1.Container]int
	statuses   map[string][][]corev1.ContainerStatus
	conditions map[string][][]corev1.PodCondition
	key        keyBuf
	names      []corev1.ResourceName
	keys       []string
	// last is the string each field of a pod's was interned to last
	// (internLast).
	last [lastFields]string
}

func newListSharer() *listSharer {
	return &listSharer{lists: map[string]corev1.ResourceList{}, strs: map[string]string{}, strMaps: map[string]map[string]string{},
		containers: map[string][][]corev1.Container{}, handedOut: map[*corev1.Container]int{}, statuses: map[string][][]corev1.ContainerStatus{},
		conditions: map[string][][]corev1.PodCondition{}}
}

// list returns the shared list equal to l, registering l when it is the
// first of its content. Empty and nil lists are returned as they are
// (omitempty and nil checks tell them apart).
func (s *listSharer) list(l corev1.ResourceList) corev1.ResourceList {
	if len(l) == 0 || s.inPod && s.podsShared {
		return l
	}
	s.names = sortedKeys(s.names, l)
	s.key.Reset()
	for _, name := range s.names {
		q := l[name]
		s.key.add(string(name))
		s.key.addByte('=')
		s.key.add(q.String())
		s.key.addByte(' ')
	}
	if shared, ok := s.lists[string(s.key)]; ok {
		return shared
	}
	s.lists[string(s.key)] = l
	return l
}

// sortedKeys returns the keys of m in order, in scratch's memory: the
// sharer keys every list and map of every pod, so it reuses one slice
// rather than allocate one per call (as slices.Sorted(maps.Keys(m)) would).
func sortedKeys[K ~string, V any](scratch []K, m map[K]V) []K {
	scratch = scratch[:0]
	for k := range m {
		scratch = append(scratch, k)
	}
	slices.Sort(scratch)
	return scratch
}

// mapText is the length of m's keys and values together.
func mapText(m map[string]string) int {
	n := 0
	for k, v := range m {
		n += len(k) + len(v)
	}
	return n
}

// The fields of a pod internLast keeps the last string of.
const (
	lastNamespace = iota
	lastGenerateName
	lastNodeName
	lastSchedulerName
	lastServiceAccount
	lastDeprecatedServiceAccount
	lastPriorityClass
	lastRestartPolicy
	lastDNSPolicy
	lastPhase
	lastQOSClass
	lastHostIP
	lastFields
)

// internLast is intern through a memo of the string the same field of the
// pod before was interned to: pods come in the order of their names, so
// most share their namespace, policies and phase with the pod before, and
// a replica its generateName; the comparison costs less than the table's
// hash and probe, which also miss the cache once the table is large.
func internLast[T ~string](s *listSharer, field int, v *T) {
	if *v == "" {
		return
	}
	if last := s.last[field]; last == string(*v) {
		*v = T(last)
		return
	}
	intern(s, v)
	s.last[field] = string(*v)
}

// intern makes *v the shared copy of its text.
func intern[T ~string](s *listSharer, v *T) {
	if *v == "" {
		return
	}
	if shared, ok := s.strs[string(*v)]; ok {
		*v = T(shared)
		return
	}
	s.strs[string(*v)] = string(*v)
}

// maxSharedMapText bounds the text (keys and values) of a map stringMap
// shares. A larger map (a pod's annotations with an applied configuration,
// its labels with values of its own) is rarely equal to another, and
// sharing one cost a key holding all its text, a copy of the map and every
// value kept for interning: three copies of what the pod holds, built
// under the pod decoder's lock. Kept as it is instead (docs/PERFORMANCE.md,
// "File mode, session of 2026-11-27 evening").
const maxSharedMapText = 1024

// stringMap returns the shared map equal to m (labels, node selectors). Empty
// and nil maps, and maps of more than maxSharedMapText bytes of text, are
// returned as they are.
func (s *listSharer) stringMap(m map[string]string) map[string]string {
	if len(m) == 0 || s.inPod && s.podsShared || mapText(m) > maxSharedMapText {
		return m
	}
	s.keys = sortedKeys(s.keys, m)
	s.key.Reset()
	for _, k := range s.keys {
		// Lengths first: keys and values may hold any character.
		s.key = strconv.AppendInt(s.key, int64(len(k)), 10)
		s.key = append(s.key, ':')
		s.key = strconv.AppendInt(s.key, int64(len(m[k])), 10)
		s.key = append(s.key, ':')
		s.key.add(k)
		s.key.add(m[k])
	}
	if shared, ok := s.strMaps[string(s.key)]; ok {
		return shared
	}
	// m itself becomes the shared map: nothing changes a loaded object's
	// maps. Its keys and values are interned in place (assigning to a key
	// present keeps the map's size, and stores the key given).
	for k, v := range m {
		intern(s, &k)
		intern(s, &v)
		m[k] = v
	}
	s.strMaps[string(s.key)] = m
	return m
}

// requirements shares r's lists.
func (s *listSharer) requirements(r *corev1.ResourceRequirements) {
	r.Requests = s.list(r.Requests)
	r.Limits = s.list(r.Limits)
}

// pod shares the resource lists and repeated strings of pod.
func (s *listSharer) pod(pod *corev1.Pod) {
	s.inPod = true
	defer func() { s.inPod = false }()
	s.meta(&pod.ObjectMeta)
	s.podSpec(&pod.Spec)
	s.podStatus(&pod.Status)
	s.podSlices(pod)
}

// podSlices gives pod the container, container status and condition
// slices of an earlier pod with equal ones. Slimmed (no mounts,
// environment, states or condition times), the containers of a template's
// replicas are equal, and so are the statuses and conditions of its ready
// replicas that never restarted: shared, they are a large part of what
// 150,000 pods keep (docs/PERFORMANCE.md#file-mode). Nothing changes a loaded pod's
// containers, statuses or conditions in place (a simulated update changes
// a deep copy), so sharing them is safe as sharing the lists is.
func (s *listSharer) podSlices(pod *corev1.Pod) {
	spec, status := &pod.Spec, &pod.Status
	spec.Containers = s.sharedContainers(spec.Containers)
	spec.InitContainers = sharedSlice(&s.key, s.containers, spec.InitContainers, containerKey, equalContainers, asIs)
	if s.podsShared {
		return // statuses and conditions are shared as decoded (the pod decoder)
	}
	status.ContainerStatuses = sharedSlice(&s.key, s.statuses, status.ContainerStatuses, statusKey, deepEqual, asIs)
	status.InitContainerStatuses = sharedSlice(&s.key, s.statuses, status.InitContainerStatuses, statusKey, deepEqual, asIs)
	// A condition is a comparable struct: == compares every field, those
	// of future versions too, much faster than reflect.DeepEqual.
	status.Conditions = sharedSlice(&s.key, s.conditions, status.Conditions, conditionKey, slices.Equal, asIs)
}

// sharedContainers is sharedSlice for a pod's containers, returning at
// once a slice it returned before: the pod decoder hands the replicas of a
// template one slice (podDecoder.defaultContainers), which needs no key
// and no comparison after the first. The sharer's slices are never written
// to, so the memory a handed out slice starts at holds it for the load.
func (s *listSharer) sharedContainers(cs []corev1.Container) []corev1.Container {
	if len(cs) == 0 {
		return cs
	}
	if n, ok := s.handedOut[&cs[0]]; ok && n == len(cs) {
		return cs
	}
	shared := sharedSlice(&s.key, s.containers, cs, containerKey, equalContainers, asIs)
	s.handedOut[&shared[0]] = len(shared)
	return shared
}

// maxSharedVariants bounds the distinct slices kept under one key, and so
// the comparisons a slice costs.
const maxSharedVariants = 8

// sharedSlice returns the slice of byKey equal to v (by equal, which must
// compare every field, those of future API versions too), or else keep(v),
// registered when its key has room. key writes to kb a short digest of v
// (names, images, restart counts) that equal slices share. keep is asIs
// for a slice the caller owns, exactCopy for a scratch slice.
func sharedSlice[E any](kb *keyBuf, byKey map[string][][]E, v []E, key func(*keyBuf, []E), equal func(a, b []E) bool, keep func([]E) []E) []E {
	if len(v) == 0 {
		return v
	}
	kb.Reset()
	key(kb, v)
	variants := byKey[string(*kb)]
	for _, shared := range variants {
		if equal(shared, v) {
			return shared
		}
	}
	v = keep(v)
	if len(variants) < maxSharedVariants {
		byKey[string(*kb)] = append(variants, v)
	}
	return v
}

func asIs[E any](v []E) []E { return v }

func deepEqual[E any](a, b []E) bool { return reflect.DeepEqual(a, b) }

// containerKey writes the containers' names, images and resource lists
// (by identity: lists are shared by content already, so equal lists are
// one map). A key that two different slices share costs a comparison,
// never a wrong answer.
func containerKey(b *keyBuf, cs []corev1.Container) {
	for i := range cs {
		b.add(cs[i].Name)
		b.addByte(0)
		b.add(cs[i].Image)
		b.addByte(0)
		writeRequirements(b, &cs[i].Resources)
	}
}

// statusKey writes the statuses' names, restart counts, readiness and
// resource lists (by identity, as containerKey).
func statusKey(b *keyBuf, ss []corev1.ContainerStatus) {
	for i := range ss {
		b.add(ss[i].Name)
		b.addByte(0)
		*b = strconv.AppendInt(*b, int64(ss[i].RestartCount), 10)
		if ss[i].Ready {
			b.addByte('r')
		}
		writeListID(b, ss[i].AllocatedResources)
		if ss[i].Resources != nil {
			writeRequirements(b, ss[i].Resources)
		}
	}
}

// conditionKey writes the conditions' types, statuses and reasons.
func conditionKey(b *keyBuf, cs []corev1.PodCondition) {
	for i := range cs {
		b.add(string(cs[i].Type))
		b.addByte(0)
		b.add(string(cs[i].Status))
		b.addByte(0)
		b.add(cs[i].Reason)
		b.addByte(0)
	}
}

func writeRequirements(b *keyBuf, r *corev1.ResourceRequirements) {
	writeListID(b, r.Requests)
	writeListID(b, r.Limits)
}

// writeListID writes the identity of the map l.
func writeListID(b *keyBuf, l corev1.ResourceList) {
	*b = binary.LittleEndian.AppendUint64(*b, uint64(reflect.ValueOf(l).Pointer()))
}

// keyBuf is the sharer's key scratch, reused from key to key: maps are
// looked up by string(key), which does not allocate, and only a key that is
// kept is copied (a strings.Builder allocates anew after every Reset).
type keyBuf []byte

func (b *keyBuf) Reset()         { *b = (*b)[:0] }
func (b *keyBuf) add(s string)   { *b = append(*b, s...) }
func (b *keyBuf) addByte(c byte) { *b = append(*b, c) }

// meta shares what replicas of a template have in common.
func (s *listSharer) meta(m *metav1.ObjectMeta) {
	if s.inPod {
		internLast(s, lastNamespace, &m.Namespace)
		internLast(s, lastGenerateName, &m.GenerateName)
	} else {
		intern(s, &m.Namespace)
		intern(s, &m.GenerateName)
	}
	m.Labels = s.stringMap(m.Labels)
	m.Annotations = s.stringMap(m.Annotations)
	if s.inPod && s.podsShared {
		return // owner references are shared whole (the pod decoder)
	}
	for i := range m.OwnerReferences {
		ref := &m.OwnerReferences[i]
		intern(s, &ref.APIVersion)
		intern(s, &ref.Kind)
		intern(s, &ref.Name)
	}
}

func (s *listSharer) podSpec(spec *corev1.PodSpec) {
	// The pod decoder hands the replicas of a template one slice of
	// containers, read on every core, and nothing may write to it: their
	// lists are shared already, and podSlices keeps one slice per content,
	// so interning the strings of the others would save nothing.
	if !s.podsShared {
		for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
			for i := range cs {
				s.container(&cs[i])
			}
		}
	}
	spec.Overhead = s.list(spec.Overhead)
	if spec.Resources != nil {
		s.requirements(spec.Resources)
	}
	spec.NodeSelector = s.stringMap(spec.NodeSelector)
	internLast(s, lastNodeName, &spec.NodeName)
	internLast(s, lastSchedulerName, &spec.SchedulerName)
	internLast(s, lastServiceAccount, &spec.ServiceAccountName)
	internLast(s, lastDeprecatedServiceAccount, &spec.DeprecatedServiceAccount)
	internLast(s, lastPriorityClass, &spec.PriorityClassName)
	internLast(s, lastRestartPolicy, &spec.RestartPolicy)
	internLast(s, lastDNSPolicy, &spec.DNSPolicy)
	if s.podsShared {
		return // tolerations are shared whole (the pod decoder)
	}
	for i := range spec.Tolerations {
		t := &spec.Tolerations[i]
		intern(s, &t.Key)
		intern(s, &t.Operator)
		intern(s, &t.Value)
		intern(s, &t.Effect)
	}
}

func (s *listSharer) container(c *corev1.Container) {
	s.requirements(&c.Resources)
	intern(s, &c.Name)
	intern(s, &c.Image)
	intern(s, &c.ImagePullPolicy)
	for i := range c.Ports {
		intern(s, &c.Ports[i].Name)
		intern(s, &c.Ports[i].Protocol)
	}
}

func (s *listSharer) podStatus(status *corev1.PodStatus) {
	internLast(s, lastPhase, &status.Phase)
	internLast(s, lastQOSClass, &status.QOSClass)
	internLast(s, lastHostIP, &status.HostIP)
	for i := range status.HostIPs {
		intern(s, &status.HostIPs[i].IP)
	}
	if status.Resources != nil {
		s.requirements(status.Resources)
	}
	if s.podsShared {
		// Statuses and conditions are shared as decoded (the pod decoder),
		// and read on other cores: not a byte of them may be written.
		return
	}
	for i := range status.Conditions {
		c := &status.Conditions[i]
		intern(s, &c.Type)
		intern(s, &c.Status)
		intern(s, &c.Reason)
		intern(s, &c.Message)
	}
	for _, statuses := range [][]corev1.ContainerStatus{status.InitContainerStatuses, status.ContainerStatuses} {
		for i := range statuses {
			intern(s, &statuses[i].Name)
			statuses[i].AllocatedResources = s.list(statuses[i].AllocatedResources)
			if statuses[i].Resources != nil {
				s.requirements(statuses[i].Resources)
			}
		}
	}
}

// node shares the capacity and allocatable of node.
func (s *listSharer) node(node *corev1.Node) {
	node.Status.Capacity = s.list(node.Status.Capacity)
	node.Status.Allocatable = s.list(node.Status.Allocatable)
}
