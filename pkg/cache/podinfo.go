package cache

import (
	"errors"

	v1 "k8s.io/api/core/v1"
)

// errEmptyUID is returned by every pod method for a pod without UID: the
// scheduler keys pods by UID (framework.GetPodKey).
var errEmptyUID = errors.New("cannot get cache key for pod with empty UID")

// PodKey returns the cache key of a pod, its UID, or an error for an empty UID.
func PodKey(pod *v1.Pod) (string, error) {
	if pod.UID == "" {
		return "", errEmptyUID
	}
	return string(pod.UID), nil
}

// PodInfo is a cached pod with its scheduler-computed resource, computed once
// when the pod enters a NodeInfo (as v1.33+ caches it, so removal subtracts
// exactly what was added; older versions recompute on removal, see
// Behavior.CachedPodResource). PodInfos are shared between the cache and its
// clones; never mutate one.
type PodInfo struct {
	Pod      *v1.Pod
	Resource PodResource
}

func newPodInfo(pod *v1.Pod, p *Profile) *PodInfo {
	return &PodInfo{Pod: pod, Resource: p.PodResource(pod)}
}

// hasAffinity: any pod (anti-)affinity struct counts, even an empty or
// preferred-only one (upstream podWithAffinity).
func hasAffinity(p *v1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

// hasRequiredAntiAffinity: at least one required anti-affinity term.
func hasRequiredAntiAffinity(p *v1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil &&
		len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) != 0
}

// PVCKeys lists "namespace/claim" for each persistentVolumeClaim volume;
// generic ephemeral volumes are not counted, as upstream.
func PVCKeys(p *v1.Pod) []string {
	var keys []string
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			keys = append(keys, p.Namespace+"/"+v.PersistentVolumeClaim.ClaimName)
		}
	}
	return keys
}

// removePodInfo deletes the entry with key from s by moving the last element
// into its slot (so pod order changes exactly as upstream's does) and
// returns nil for an empty result, as upstream does.
func removePodInfo(s []*PodInfo, key string) ([]*PodInfo, *PodInfo) {
	for i := range s {
		if string(s[i].Pod.UID) != key {
			continue
		}
		removed := s[i]
		last := len(s) - 1
		s[i] = s[last]
		s[last] = nil
		s = s[:last]
		if len(s) == 0 {
			return nil, removed
		}
		return s, removed
	}
	return s, nil
}
