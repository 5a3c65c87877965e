package load

import corev1 "k8s.io/api/core/v1"

// podKeysAt is the number of pods after which the collector sizes its map
// of pod keys for the whole input (presize).
const podKeysAt = 2048

// presize sizes the collector's map of pod keys once, for the pods the
// input is likely to hold: growing it one split at a time to 150,000 keys
// rehashed every key about eight times, most of the collector's CPU on a
// file of small pods (docs/PERFORMANCE.md, "The pod keys sized once").
// The estimate takes the text the pods read so far took each, over the
// input not read yet; an input of unknown size (stdin, a URL, several
// files) keeps the map as it grows.
type presize struct {
	input   int64 // the input's bytes (singleFileSize), 0 when unknown
	read    int64 // the text of every piece added so far
	podText int64 // the text of the pods among them
	done    bool
}

// podsHint is how many pods an input of input bytes holds, pods of podText
// bytes having been read in its first read bytes: at least pods.
func podsHint(pods int, podText, read, input int64) int {
	if podText <= 0 || input <= read {
		return pods
	}
	rest := (input - read) / (podText / int64(pods))
	return pods + int(min(rest, input/minPodText))
}

// minPodText bounds the estimate: no pod's text is shorter.
const minPodText = 100

// added records a piece of n bytes of text (a pod when obj is one), and
// sizes the map of pod keys once the collector holds podKeysAt pods.
func (c *collector) added(n int, obj any) {
	c.presize.read += int64(n)
	if _, ok := obj.(*corev1.Pod); !ok {
		return
	}
	c.presize.podText += int64(n)
	if c.presize.done || len(c.keys.pods) < podKeysAt {
		return
	}
	c.presize.done = true
	hint := podsHint(len(c.keys.pods), c.presize.podText, c.presize.read, c.presize.input)
	if hint < 2*len(c.keys.pods) {
		return
	}
	sized := make(map[podKey]kept, hint)
	for k, v := range c.keys.pods {
		sized[k] = v
	}
	c.keys.pods = sized
}
