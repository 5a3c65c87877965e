package decide

import (
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
)

// MissingObjects lists the objects pods refer to that the input lacks:
// PersistentVolumeClaims named by a volume, the PersistentVolume a bound
// claim names, the StorageClass of an unbound claim, and ResourceClaims
// named by the pod. The scheduler gives such a pod the same verdict (e.g.
// `persistentvolumeclaim "data" not found`); the list lets a caller say
// when that is because a file set lacks an object a live cluster may have.
// Each entry reads "PersistentVolumeClaim team-a/data (used by pod
// team-a/web-0)"; the list is sorted and has no duplicates.
func MissingObjects(pods []*v1.Pod, objects []k8sruntime.Object) []string {
	idx := indexObjects(objects)
	seen := map[string]bool{}
	var out []string
	note := func(kind, key, pod string) {
		if msg := fmt.Sprintf("%s %s (used by pod %s)", kind, key, pod); !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	for _, p := range pods {
		ref := p.Namespace + "/" + p.Name
		for _, vol := range p.Spec.Volumes {
			if vol.PersistentVolumeClaim == nil {
				continue
			}
			key := p.Namespace + "/" + vol.PersistentVolumeClaim.ClaimName
			pvc, ok := idx.pvcs[key]
			switch {
			case !ok:
				note("PersistentVolumeClaim", key, ref)
			case pvc.Spec.VolumeName != "" && !idx.pvs[pvc.Spec.VolumeName]:
				note("PersistentVolume", pvc.Spec.VolumeName, ref)
			case pvc.Spec.VolumeName == "" && pvc.Spec.StorageClassName != nil && *pvc.Spec.StorageClassName != "" && !idx.classes[*pvc.Spec.StorageClassName]:
				note("StorageClass", *pvc.Spec.StorageClassName, ref)
			}
		}
		for _, c := range p.Spec.ResourceClaims {
			if c.ResourceClaimName != nil && !idx.claims[p.Namespace+"/"+*c.ResourceClaimName] {
				note("ResourceClaim", p.Namespace+"/"+*c.ResourceClaimName, ref)
			}
		}
	}
	sort.Strings(out)
	return out
}

type objectIndex struct {
	pvcs    map[string]*v1.PersistentVolumeClaim
	pvs     map[string]bool
	classes map[string]bool
	claims  map[string]bool
}

func indexObjects(objects []k8sruntime.Object) objectIndex {
	idx := objectIndex{pvcs: map[string]*v1.PersistentVolumeClaim{}, pvs: map[string]bool{}, classes: map[string]bool{}, claims: map[string]bool{}}
	for _, o := range objects {
		switch o := o.(type) {
		case *v1.PersistentVolumeClaim:
			idx.pvcs[o.Namespace+"/"+o.Name] = o
		case *v1.PersistentVolume:
			idx.pvs[o.Name] = true
		case *storagev1.StorageClass:
			idx.classes[o.Name] = true
		case *resourcev1.ResourceClaim:
			idx.claims[o.Namespace+"/"+o.Name] = true
		}
	}
	return idx
}
