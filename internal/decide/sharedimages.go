package decide

import (
	"context"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/imagelocality"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
)

// imagesPlugin is the in-tree ImageLocality, every method its own, with
// its Score shared between pods that run the same images (sharedResults).
//
// Why the images are the whole key (image_locality.go, v1.36.3): Score
// sums, over the images of the pod's init containers, containers and image
// volumes, a share of each image's size on the node (its ImageStates) by
// how many of the lister's nodes have it, then scales the sum by the
// number of containers and init containers. The key lists the image of
// every init container and container, in order (so their number too), and
// every image volume's reference; the node's ImageStates and the lister's
// node count are fixed until Refresh.
type imagesPlugin struct {
	*imagelocality.ImageLocality
	scores sharedScorer
}

func wrapImageLocality(pl fwk.Plugin, s *sharedResults) fwk.Plugin {
	key := func(_ fwk.CycleState, pod *v1.Pod) (string, bool) { return imagesKey(pod), true }
	return wrapScore(pl, s, names.ImageLocality, key, func(il *imagelocality.ImageLocality, sc sharedScorer) fwk.Plugin {
		return &imagesPlugin{ImageLocality: il, scores: sc}
	})
}

func (p *imagesPlugin) Score(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo) (int64, *fwk.Status) {
	return p.scores.score(state, pod, ni, func() (int64, *fwk.Status) { return p.ImageLocality.Score(ctx, state, pod, ni) })
}

// imagesKey: the init containers' images, the containers' images and the
// image volumes' references, each list in order.
func imagesKey(pod *v1.Pod) string {
	var b strings.Builder
	for _, c := range pod.Spec.InitContainers {
		b.WriteString(c.Image)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	for _, c := range pod.Spec.Containers {
		b.WriteString(c.Image)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	for _, v := range pod.Spec.Volumes {
		if v.Image != nil {
			b.WriteString(v.Image.Reference)
			b.WriteByte(0)
		}
	}
	return b.String()
}
