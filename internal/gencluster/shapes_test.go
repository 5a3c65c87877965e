package gencluster

import (
	"bytes"
	"encoding/json"
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
		ShapeSmall: func(pods []*v1.Pod) string {
			for _, p := range pods {
				if len(p.Labels) > 2 || len(p.Status.ContainerStatuses) > 0 || len(p.Spec.Tolerations) > 0 || p.Spec.Containers[0].Image == "" {
					return "pod " + p.Name + " has more than two labels, container statuses or tolerations, or no image"
				}
			}
			return ""
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

// ShapeSmall's pods are 500-700 bytes of compact JSON on average (the size
// issue #39 measured the per-object cost at), whatever the seed.
func TestShapeSmallSize(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		cfg := Config{Nodes: 100, Pods: 3000, Seed: seed, Zones: 3, PendingFraction: 0.01, TerminalFraction: 0.01, Shape: ShapeSmall}
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(genBytes(t, cfg), &list); err != nil {
			t.Fatal(err)
		}
		size, pods := 0, 0
		for _, item := range list.Items {
			if strings.HasPrefix(string(item), `{"kind":"Pod"`) {
				size += len(item)
				pods++
			}
		}
		if pods != cfg.Pods {
			t.Fatalf("seed %d: %d pods, want %d", seed, pods, cfg.Pods)
		}
		if mean := size / pods; mean < 500 || mean > 700 {
			t.Errorf("seed %d: %d bytes a pod on average, want 500-700", seed, mean)
		}
	}
}
