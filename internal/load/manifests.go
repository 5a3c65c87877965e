package load

// This file notes the workloads read from files that were never created: a
// Deployment, Job… manifest without metadata.uid is no object of a
// cluster, and the pods it would make are in no input, so the model holds
// nothing of it. ReadFiles says so, instead of dropping it without a word,
// and points to --pod-file, which places a workload's replicas.

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// manifestsNamed is how many never-created workloads the note names one by
// one; the others are counted.
const manifestsNamed = 3

// manifestRef is a workload read without metadata.uid, and where.
type manifestRef struct {
	kind, namespace, name string
	loc                   read.Location
}

// isWorkloadKind: the controllers whose replicas --pod-file places.
func isWorkloadKind(gk schema.GroupKind) bool {
	switch gk {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}, schema.GroupKind{Group: "apps", Kind: "ReplicaSet"},
		schema.GroupKind{Group: "apps", Kind: "StatefulSet"}, schema.GroupKind{Group: "apps", Kind: "DaemonSet"},
		schema.GroupKind{Group: "batch", Kind: "Job"}, schema.GroupKind{Group: "batch", Kind: "CronJob"},
		schema.GroupKind{Kind: "ReplicationController"}:
		return true
	}
	return false
}

// manifestOf is the reference of a skipped object of a workload kind that
// has no metadata.uid (data is its JSON), else nil. Only workloads are
// looked into: every other skipped kind costs nothing more.
func manifestOf(gvk schema.GroupVersionKind, data []byte, loc read.Location) *manifestRef {
	if !isWorkloadKind(gvk.GroupKind()) {
		return nil
	}
	var obj struct {
		Metadata struct{ Name, Namespace, UID string } `json:"metadata"`
	}
	if json.Unmarshal(data, &obj) != nil || obj.Metadata.UID != "" {
		return nil
	}
	return &manifestRef{kind: gvk.Kind, namespace: obj.Metadata.Namespace, name: obj.Metadata.Name, loc: loc}
}

// addManifest keeps a never-created workload for the summary note.
func (c *collector) addManifest(m *manifestRef) {
	m.namespace = c.namespaceOf(m.namespace)
	c.manifests = append(c.manifests, m)
}

// manifestNotes are the summary lines (without "note: ") of the
// never-created workloads: one per workload, the first few, then a count.
func (c *collector) manifestNotes() []string {
	var out []string
	for i, m := range c.manifests {
		if i == manifestsNamed {
			more := len(c.manifests) - manifestsNamed
			verb := "are"
			if more == 1 {
				verb = "is"
			}
			out = append(out, fmt.Sprintf("%s without metadata.uid %s not part of the cluster either", plural(more, "more workload manifest"), verb))
			break
		}
		file := m.loc.Source
		if file == StdinSource {
			file = "-"
		}
		out = append(out, fmt.Sprintf("%s %s/%s (%s) is a manifest (no metadata.uid), not part of the cluster: --pod-file %s places its replicas",
			m.kind, m.namespace, m.name, m.loc, file))
	}
	return out
}
