package load

// The memory layer ("compact") sits behind one seam: compact chooses, once
// per ReadFiles, how pods are decoded (the pod decoder of poddecode.go, or
// client-go's decoder, decodeTyped) and whether the collector slims and
// shares what it keeps (slim.go, share.go; a nil sharer is the plain path,
// see prepareNode and preparePod). FileOptions.Plain turns all of it off,
// so that a test can run every view with and without it and compare.
//
// Shared values are never written: a slimmed pod shares its resource
// lists, string maps, containers, statuses and conditions with the other
// pods that spell them the same way, so a write through one pod would
// change them all. Views and decisions only read loaded objects (a
// simulated change works on a deep copy); TestViewsDoNotWriteSharedValues
// (pkg/cmd) runs them over a compacted cluster and compares every object
// with a deep copy taken before.

// compact sets up r's decoding and the collector's sharing for opts.
func compact(r *reader, opts FileOptions) {
	if opts.Plain {
		if r.decode == nil {
			r.decode = decodeTyped
		}
		r.c.share = nil
		return
	}
	if r.decode == nil {
		r.decode, r.pods, r.nodes = decodeTyped, newPodDecoderKeeping(opts.KeepEmptyDir), newNodeDecoder()
		r.c.share.podsShared = true
	}
	r.c.share.keepEmptyDir = opts.KeepEmptyDir
}
