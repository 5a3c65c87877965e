package gencluster

import (
	"bytes"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// Every shape is a valid, deterministic List with the configured counts,
// placed within the nodes, and shows the feature it is named for.
func TestShapes(t *testing.T) {
	checks := map[Shape]func(pods []*v1.Pod) string{
		ShapeLabels: func(pods []*v1.Pod) string {
			for _, p := range pods {
				if len(p.Labels) >= 30 && len(p.Annotations) >= 20 && len(p.Annotations["kubectl.kubernetes.io/last-applied-configuration"]) > 1000 {
					return ""
				}
			}
			return "no pod with 30 labels, 20 annotations and a long last-applied-configuration"
		},
		ShapeTemplates: func(pods []*v1.Pod) string {
			args := map[string]bool{}
			for _, p := range pods {
				args[strings.Join(p.Spec.Containers[0].Args, " ")] = true
			}
			if len(args) < len(pods)/3 {
				return "fewer than one distinct container per three pods"
			}
			return ""
		},
		ShapeStatus: func(pods []*v1.Pod) string {
			for _, p := range pods {
				for _, cs := range p.Status.ContainerStatuses {
					if term := cs.LastTerminationState.Terminated; term != nil && len(term.Message) > 1000 && len(p.Spec.ReadinessGates) == 3 {
						return ""
					}
				}
			}
			return "no pod with a 1 KB termination message and three readiness gates"
		},
	}
	for shape, check := range checks {
		t.Run(string(shape), func(t *testing.T) {
			cfg := smallConfig(5)
			cfg.Shape = shape
			data := genBytes(t, cfg)
			if !bytes.Equal(data, genBytes(t, cfg)) {
				t.Fatal("two runs with the same config differ")
			}
			nodes, pods := decodeList(t, data)
			if len(nodes) != cfg.Nodes || len(pods) != cfg.Pods {
				t.Fatalf("got %d nodes and %d pods, want %d and %d", len(nodes), len(pods), cfg.Nodes, cfg.Pods)
			}
			checkUniqueAndSorted(t, nodes, pods)
			checkPlacement(t, nodes, pods)
			if msg := check(pods); msg != "" {
				t.Error(msg)
			}
		})
	}
	if err := (Config{Nodes: 1, Pods: 1, Zones: 1, Shape: "round"}).Validate(); err == nil {
		t.Error("an unknown shape validated")
	}
}
