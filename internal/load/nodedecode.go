package load

// This file decodes the nodes of files with less allocation than a plain
// decode, with the same result: a node's image list (status.images, about
// twenty images, each with its names and size) is allocated at its length,
// and each image is decoded once per distinct text and shared by every node
// that lists it the same way (the images of a cluster's workloads are on
// many of its nodes). TestNodeDecoderMatchesDecode checks the result
// against decodeTyped.

import (
	jsonv2 "github.com/go-json-experiment/json"
	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// nodeKind is the kind the node decoder decodes.
var nodeKind = corev1.SchemeGroupVersion.WithKind("Node")

// nodeDecoder decodes v1 Nodes (decodeFunc's contract, for gvk v1 Node).
// Safe for concurrent use: the decode step runs on every core.
type nodeDecoder struct {
	opts jsonv2.Options
	// images hold a node's images by their text. An image's Names slice
	// is shared by every node that has it: nothing writes to a loaded
	// node's images (the cache reads them, the outputs print them).
	images byText[corev1.ContainerImage]
	// lists hold capacities and allocatables by their text (decodeCommon).
	lists byText[corev1.ResourceList]
	// endpoints, handlers, features and swaps hold what the nodes of a
	// kind report alike, by their text (decodeCommon).
	endpoints byText[corev1.NodeDaemonEndpoints]
	handlers  byText[[]corev1.NodeRuntimeHandler]
	features  byText[*corev1.NodeFeatures]
	swaps     byText[*corev1.NodeSwapStatus]
	// pools are decodeCommon's.
	pools nodePools
}

func newNodeDecoder() *nodeDecoder {
	d := &nodeDecoder{pools: newNodePools()}
	d.opts = jsonv2.JoinOptions(decodeOptions, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
		exact[corev1.ContainerImage](),
		sharedWhole(&d.images, clipImage),
		// Conditions' times: metav1.Time's own UnmarshalJSON goes through
		// encoding/json for the string.
		jsonv2.UnmarshalFromFunc(unmarshalTime),
	)))
	return d
}

// clipImage clips an image's names (sharedWhole).
func clipImage(img corev1.ContainerImage) corev1.ContainerImage {
	img.Names = img.Names[:len(img.Names):len(img.Names)]
	return img
}

// decode is the decodeFunc of v1 Nodes: the walk of nodecommon.go first,
// then json v2 with the decoder's options. A node neither can decode is
// decoded the plain way (decodeTyped), so errors read as they always did.
func (d *nodeDecoder) decode(data []byte) (kruntime.Object, error) {
	if node, ok := d.decodeCommonCopied(data); ok {
		return node, nil
	}
	node := &corev1.Node{}
	if jsonv2.Unmarshal(data, node, d.opts) == nil {
		return node, nil
	}
	return decodeTyped(data, nodeKind)
}
