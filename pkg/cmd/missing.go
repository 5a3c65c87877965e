package cmd

import (
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/decide"
)

// warnMissing says which objects the evaluated pods refer to that the input
// lacks. The verdicts stay those of kube-scheduler given the same input
// (e.g. `persistentvolumeclaim "data" not found`), which is right for a live
// cluster and, for a file set, right only if the cluster lacks them too.
func warnMissing(w io.Writer, pods []*v1.Pod, objects []runtime.Object) {
	for _, m := range decide.MissingObjects(pods, objects) {
		fmt.Fprintf(w, "warning: the input has no %s; the verdict is kube-scheduler's for a cluster without it (with -f, add it to the files: kubectl get pvc,pv,storageclass,resourceclaims -A -o yaml)\n", m)
	}
}
