package cmd

import (
	"io"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// warnMissing writes pipeline.WarnMissing's warnings to w, for the
// commands whose scenario still prints as it goes.
func warnMissing(w io.Writer, pods []*v1.Pod, objects []runtime.Object) {
	var notes pipeline.Notes
	pipeline.WarnMissing(&notes, pods, objects)
	printNotes(w, &notes)
}
