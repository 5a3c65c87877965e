package pipeline

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// WarnMissing says which objects the evaluated pods refer to that the input
// lacks. The verdicts stay those of kube-scheduler given the same input
// (e.g. `persistentvolumeclaim "data" not found`), which is right for a live
// cluster and, for a file set, right only if the cluster lacks them too.
// One line per kind (PersistentVolumeClaim, StorageClass, …): the first
// object with its pod, then how many more and the first few of them
// (termtext.Fold), since an export without PVCs misses one per pod.
func WarnMissing(notes *Notes, pods []*v1.Pod, objects []runtime.Object) {
	var kinds []string
	byKind := map[string][]string{}
	for _, m := range decide.MissingObjects(pods, objects) {
		kind, rest, _ := strings.Cut(m, " ")
		if _, ok := byKind[kind]; !ok {
			kinds = append(kinds, kind)
		}
		byKind[kind] = append(byKind[kind], rest)
	}
	for _, kind := range kinds {
		entries := byKind[kind]
		first := "the input has no " + kind + " " + termtext.Line(entries[0])
		if len(entries) == 1 {
			notes.Add(SeverityWarning, "%s", first+"; the verdict is kube-scheduler's for a cluster without it (with -f, add it to the files: "+MissingHint+")")
			continue
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i], _, _ = strings.Cut(e, " (used by")
		}
		notes.Add(SeverityWarning, "%s", termtext.Fold(first, names)+"; the verdicts are kube-scheduler's for a cluster without them (with -f, add them to the files: "+MissingHint+")")
	}
}

// MissingHint exports the objects WarnMissing names.
const MissingHint = "kubectl get pvc,pv,storageclass,resourceclaims -A -o yaml"
