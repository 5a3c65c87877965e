package decide

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/api/resource"
	meta "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// boundClaim is a PVC bound to a PV of the same name (and the PV), with
// the given access mode and PV labels.
func boundClaim(name string, mode v1.PersistentVolumeAccessMode, pvLabels map[string]string) []k8sruntime.Object {
	storage := v1.ResourceList{v1.ResourceStorage: metav1.MustParse("1Gi")}
	pvc := &v1.PersistentVolumeClaim{
		// As the PV controller leaves a claim it has bound.
		ObjectMeta: meta.ObjectMeta{Namespace: testNS, Name: name, UID: types.UID("pvc-" + name),
			Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "yes"}},
		Spec: v1.PersistentVolumeClaimSpec{
			AccessModes: []v1.PersistentVolumeAccessMode{mode}, VolumeName: name,
			Resources: v1.VolumeResourceRequirements{Requests: storage},
		},
		Status: v1.PersistentVolumeClaimStatus{Phase: v1.ClaimBound, AccessModes: []v1.PersistentVolumeAccessMode{mode}, Capacity: storage},
	}
	pv := &v1.PersistentVolume{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: pvLabels},
		Spec: v1.PersistentVolumeSpec{
			AccessModes: []v1.PersistentVolumeAccessMode{mode}, Capacity: storage,
			ClaimRef:               &v1.ObjectReference{Namespace: testNS, Name: name, UID: pvc.UID},
			PersistentVolumeSource: v1.PersistentVolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/data/" + name}},
		},
		Status: v1.PersistentVolumeStatus{Phase: v1.VolumeBound},
	}
	return []k8sruntime.Object{pvc, pv}
}

func TestVolumes(t *testing.T) {
	zoneKey := v1.LabelTopologyZone
	twoZones := nodes(node("in-a").Label(zoneKey, "a"), node("in-b").Label(zoneKey, "b"))
	var objs []k8sruntime.Object
	objs = append(objs, boundClaim("solo", v1.ReadWriteOncePod, nil)...)
	objs = append(objs, boundClaim("zonal", v1.ReadWriteOnce, map[string]string{zoneKey: "a"})...)
	rwop := "VolumeRestrictions: node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod"
	runCases(t, []evalCase{{
		// VolumeRestrictions is the first PreFilter plugin to read the
		// claim; its not-found error becomes the whole diagnosis, and
		// DynamicResources' PostFilter, whose PreFilter never ran, fails
		// with "not found" (the v1.36 quirk).
		name: "missing claim", cluster: cluster{nodes: twoZones}, pod: pod("p").PVC("data").Obj(),
		want: want{result: Unschedulable, message: `0/2 nodes are available: persistentvolumeclaim "data" not found. not found`,
			filters: map[string]string{
				"in-a": `VolumeRestrictions: persistentvolumeclaim "data" not found`,
				"in-b": `VolumeRestrictions: persistentvolumeclaim "data" not found`,
			}},
	}, {
		name:    "ReadWriteOncePod in use",
		cluster: cluster{nodes: twoZones, objects: objs, bound: pods(bound("owner", "in-a").PVC("solo"))},
		pod:     pod("p").PVC("solo").Obj(),
		want: want{result: Unschedulable, message: "0/2 nodes are available: 2 node(s) unavailable due to PersistentVolumeClaim " +
			"with ReadWriteOncePod access mode already in-use by another pod. " + noPreemption +
			"0/2 nodes are available: 2 No preemption victims found for incoming pod.",
			filters: map[string]string{"in-a": rwop, "in-b": rwop}},
	}, {
		name: "volume zone", cluster: cluster{nodes: twoZones, objects: objs}, pod: pod("p").PVC("zonal").Obj(),
		want: want{result: Scheduled, node: "in-a", filters: map[string]string{
			"in-a": "Success", "in-b": "VolumeZone: node(s) had no available volume zone",
		}},
	}})
}
