package decide

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/controller"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"
)

// WorkloadKinds are the kinds Workload accepts.
var WorkloadKinds = []string{"Pod", "Deployment", "ReplicaSet", "StatefulSet", "Job", "CronJob", "DaemonSet"}

// Workload is a Pod, or a workload whose pod template its controller turns
// into pods: the pods kube-scheduler would be asked to place. Replicas
// builds them as the controllers do before the scheduler sees them: pods
// from the template by the controllers' own GetPodFromTemplate (labels,
// annotations, finalizers, the controller reference, the spec), the
// Deployment controller's pod-template-hash (its ReplicaSet is the owner),
// the StatefulSet controller's names, hostname, subdomain, identity labels
// and claims from volumeClaimTemplates, and the DaemonSet controller's
// default tolerations and per-node affinity. Rollouts, pod management
// policies and Job parallelism over time are not modelled.
type Workload struct {
	// Kind, Namespace and Name identify it, e.g. Deployment shop/web.
	Kind, Namespace, Name string
	// DefaultReplicas is its own count: spec.replicas (1 when unset) for a
	// Deployment, ReplicaSet or StatefulSet; spec.parallelism (1 when
	// unset) for a Job or a CronJob's job template; 1 for a Pod; for a
	// DaemonSet, one per node (0 here).
	DefaultReplicas int
	// PerNode: a DaemonSet, one pod per node.
	PerNode bool

	obj k8sruntime.Object
}

// WorkloadOf reads a Pod or a workload, as client-go's scheme decodes them.
// Errors: any other kind, naming the accepted ones.
func WorkloadOf(obj k8sruntime.Object) (*Workload, error) {
	w := &Workload{obj: obj, DefaultReplicas: 1}
	switch o := obj.(type) {
	case *v1.Pod:
		w.Kind, w.Namespace, w.Name = "Pod", o.Namespace, o.Name
	case *appsv1.Deployment:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas = "Deployment", o.Namespace, o.Name, count(o.Spec.Replicas)
	case *appsv1.ReplicaSet:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas = "ReplicaSet", o.Namespace, o.Name, count(o.Spec.Replicas)
	case *appsv1.StatefulSet:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas = "StatefulSet", o.Namespace, o.Name, count(o.Spec.Replicas)
	case *batchv1.Job:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas = "Job", o.Namespace, o.Name, count(o.Spec.Parallelism)
	case *batchv1.CronJob:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas = "CronJob", o.Namespace, o.Name, count(o.Spec.JobTemplate.Spec.Parallelism)
	case *appsv1.DaemonSet:
		w.Kind, w.Namespace, w.Name, w.DefaultReplicas, w.PerNode = "DaemonSet", o.Namespace, o.Name, 0, true
	default:
		kind := obj.GetObjectKind().GroupVersionKind().Kind
		if kind == "" {
			kind = fmt.Sprintf("%T", obj)
		}
		return nil, fmt.Errorf("%s is neither a Pod nor a workload (%v)", kind, WorkloadKinds)
	}
	if w.Namespace == "" {
		w.Namespace = metav1.NamespaceDefault
	}
	return w, nil
}

func count(n *int32) int {
	if n == nil {
		return 1
	}
	return int(*n)
}

// Replicas returns n pods of the workload (for a DaemonSet, one per node of
// nodes, n ignored) and, for a StatefulSet, the claims of its
// volumeClaimTemplates that objects lacks (its controller creates them
// before the pods; they are unbound). Pod names follow the controllers:
// "<set>-<ordinal>" for a StatefulSet, "<name>-<hash>-<i>" for a
// Deployment's ReplicaSet, "<name>-<i>" otherwise (where a controller
// would add a random suffix), "<pod>-<i>" for copies of a Pod after the
// first. UIDs derive from namespace and name.
func (w *Workload) Replicas(n int, nodes []*v1.Node, objects []k8sruntime.Object) ([]*v1.Pod, []k8sruntime.Object, error) {
	switch o := w.obj.(type) {
	case *v1.Pod:
		return podCopies(o, n), nil, nil
	case *appsv1.Deployment:
		return deploymentPods(o, n)
	case *appsv1.ReplicaSet:
		return templatePods(o, &o.Spec.Template, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), o.Name, n)
	case *batchv1.Job:
		return templatePods(o, &o.Spec.Template, batchv1.SchemeGroupVersion.WithKind("Job"), o.Name, n)
	case *batchv1.CronJob:
		job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: o.Name, UID: types.UID("job-of-" + string(o.UID))}}
		return templatePods(job, &o.Spec.JobTemplate.Spec.Template, batchv1.SchemeGroupVersion.WithKind("Job"), o.Name, n)
	case *appsv1.DaemonSet:
		return daemonPods(o, nodes)
	case *appsv1.StatefulSet:
		return statefulPods(o, n, objects)
	}
	return nil, nil, fmt.Errorf("%s %s/%s: not a workload", w.Kind, w.Namespace, w.Name)
}

func podCopies(p *v1.Pod, n int) []*v1.Pod {
	out := make([]*v1.Pod, 0, n)
	for i := 0; i < n; i++ {
		c := p.DeepCopy()
		if i > 0 {
			c.Name = fmt.Sprintf("%s-%d", p.Name, i)
			c.UID = ""
		}
		c.Spec.NodeName = ""
		c.Status = v1.PodStatus{}
		out = append(out, identify(c))
	}
	return out
}

// templatePods makes n pods of template owned by parent (kind gvk), named
// "<prefix>-<i>".
func templatePods(parent k8sruntime.Object, template *v1.PodTemplateSpec, gvk schema.GroupVersionKind, prefix string, n int) ([]*v1.Pod, []k8sruntime.Object, error) {
	meta, err := accessor(parent)
	if err != nil {
		return nil, nil, err
	}
	ref := metav1.NewControllerRef(meta, gvk)
	out := make([]*v1.Pod, 0, n)
	for i := 0; i < n; i++ {
		p, err := controller.GetPodFromTemplate(template, parent, ref)
		if err != nil {
			return nil, nil, err
		}
		p.Namespace, p.Name = meta.GetNamespace(), fmt.Sprintf("%s-%d", prefix, i)
		out = append(out, identify(p))
	}
	return out, nil, nil
}

// deploymentPods: the Deployment controller makes a ReplicaSet named
// "<deployment>-<hash>" whose template carries pod-template-hash=<hash>.
func deploymentPods(d *appsv1.Deployment, n int) ([]*v1.Pod, []k8sruntime.Object, error) {
	hash := controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	t := d.Spec.Template.DeepCopy()
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = hash
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace, Name: d.Name + "-" + hash, UID: types.UID("rs-of-" + string(d.UID))}}
	return templatePods(rs, t, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), rs.Name, n)
}

// daemonPods: one pod per node, with the DaemonSet controller's default
// tolerations and its required node affinity on the node's name.
func daemonPods(ds *appsv1.DaemonSet, nodes []*v1.Node) ([]*v1.Pod, []k8sruntime.Object, error) {
	t := ds.Spec.Template.DeepCopy()
	daemonutil.AddOrUpdateDaemonPodTolerations(&t.Spec)
	pods, _, err := templatePods(ds, t, appsv1.SchemeGroupVersion.WithKind("DaemonSet"), ds.Name, len(nodes))
	if err != nil {
		return nil, nil, err
	}
	for i, node := range nodes {
		pods[i].Name = ds.Name + "-" + node.Name
		pods[i].Spec.Affinity = daemonutil.ReplaceDaemonSetPodNodeNameNodeAffinity(pods[i].Spec.Affinity, node.Name)
		identify(pods[i])
	}
	return pods, nil, nil
}

// statefulPods mirrors the StatefulSet controller's new pods (v1.36
// stateful_set_utils.go): name "<set>-<ordinal>", hostname and subdomain,
// the pod-name and pod-index labels, and a volume per claim template
// naming the claim "<template>-<set>-<ordinal>". Claims absent from
// objects are made as the controller makes them: unbound.
func statefulPods(set *appsv1.StatefulSet, n int, objects []k8sruntime.Object) ([]*v1.Pod, []k8sruntime.Object, error) {
	pods, _, err := templatePods(set, &set.Spec.Template, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), set.Name, n)
	if err != nil {
		return nil, nil, err
	}
	have := map[string]bool{}
	for _, o := range objects {
		if c, ok := o.(*v1.PersistentVolumeClaim); ok {
			have[c.Namespace+"/"+c.Name] = true
		}
	}
	var claims []k8sruntime.Object
	for ordinal, p := range pods {
		p.Spec.Hostname, p.Spec.Subdomain = p.Name, set.Spec.ServiceName
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[appsv1.StatefulSetPodNameLabel] = p.Name
		p.Labels[appsv1.PodIndexLabel] = strconv.Itoa(ordinal)
		var volumes []v1.Volume
		for _, tmpl := range set.Spec.VolumeClaimTemplates {
			claim := tmpl.DeepCopy()
			claim.Namespace, claim.Name = set.Namespace, fmt.Sprintf("%s-%s-%d", tmpl.Name, set.Name, ordinal)
			claim.UID = types.UID("claim-" + claim.Namespace + "-" + claim.Name)
			volumes = append(volumes, v1.Volume{Name: tmpl.Name, VolumeSource: v1.VolumeSource{
				PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name}}})
			if !have[claim.Namespace+"/"+claim.Name] {
				claims = append(claims, claim)
			}
		}
		for _, v := range p.Spec.Volumes {
			if !hasVolume(volumes, v.Name) {
				volumes = append(volumes, v)
			}
		}
		p.Spec.Volumes = volumes
	}
	return pods, claims, nil
}

func hasVolume(vs []v1.Volume, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// identify gives a pod without a UID one derived from its namespace and name.
func identify(p *v1.Pod) *v1.Pod {
	if p.UID == "" {
		p.UID = types.UID("replica-" + p.Namespace + "-" + p.Name)
	}
	return p
}

func accessor(obj k8sruntime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no object metadata", obj)
	}
	return m, nil
}
