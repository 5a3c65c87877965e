package load

// This file runs the reader: for each source, a cutter goroutine cuts its
// bytes into pieces (read.Cut), batches of pieces are decoded on every core
// (decode.go), and the collector adds the decoded objects in input order
// (collect.go). A few batches are in flight, so memory holds the objects
// kept plus a few megabytes of text, whatever the size of the input.

import (
	"context"
	"io"
	"runtime"
	"sync"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// batchSize is the number of pieces decoded together: enough to keep every
// core busy, few enough that the text in flight stays small.
const batchSize = 256

// batchText is the room a new batch has for its pieces' text: a batch of
// typical pods (5 KB each as `kubectl get -o json` prints them) fits.
const batchText = 2 << 20

// piece is one thing cut from a source (read.Piece) and what decoding
// made of it: obj and gvk, Err, or skip.
type piece struct {
	read.Piece

	obj  kruntime.Object
	gvk  schema.GroupVersionKind
	skip bool // nothing to add: an empty document or an unwanted kind
	// prepared says whether a pod was prepared where it was decoded.
	prepared prepared
	// manifest is set for a skipped workload without metadata.uid.
	manifest *manifestRef
}

// reader reads sources into a collector.
type reader struct {
	// ctx, when done, stops the reading (FileOptions.Context).
	ctx     context.Context
	limits  Limits
	objects bool // decode the scheduling kinds too
	// extra kinds are decoded and kept as well.
	extra  map[schema.GroupKind]bool
	decode decodeFunc
	// pods decodes v1 Pods, unless tests replace decode.
	pods *podDecoder
	// nodes decodes v1 Nodes, unless tests replace decode.
	nodes *nodeDecoder
	c     *collector
	// count follows the reading for the progress line; nil without one.
	count *readCount
}

// batch is pieces cut in a row, their text held in one buffer. The reader
// hands a batch back to the cutter once its objects are added (decoding
// copies what it keeps), so the text of a large List is cut into a few
// reused buffers rather than one allocation per item.
type batch struct {
	pieces []piece
	text   []byte
	// decoded is closed once every piece is decoded (or the reading was
	// stopped and the batch skipped).
	decoded chan struct{}
}

// add appends p, copying its text (which the cutter reuses) into b.
func (b *batch) add(p read.Piece) {
	if p.Raw != nil {
		from := len(b.text)
		b.text = append(b.text, p.Raw...)
		p.Raw = b.text[from:len(b.text):len(b.text)]
	}
	b.pieces = append(b.pieces, piece{Piece: p})
}

// readSource reads one source through the pipeline: the cutter, the
// decoders and the collector run at the same time. Each decoder takes a
// whole batch, and the collector takes the batches in the order they were
// cut, each once it is decoded. Decoding the pieces of one batch on every
// core instead kept a core idle at the end of every batch, whenever one
// half was done before the other (a 2-core machine ran at 1.5 cores
// while reading small pods). It returns the first error, after which
// nothing more of the source is read.
func (r *reader) readSource(src *source, in io.Reader) error {
	workers := max(1, runtime.GOMAXPROCS(0))
	// ordered holds the batches cut and not yet collected, in order; its
	// room bounds the batches in flight. Three per decoder: a decoder
	// whose batch is done goes on with the next while the batch the
	// collector waits for is still being decoded. work never blocks the
	// cutter: it has room for every batch ordered can hold, and the one
	// collected.
	inFlight := 3 * workers
	ordered := make(chan *batch, inFlight)
	work := make(chan *batch, inFlight+1)
	free := make(chan *batch, inFlight+2)
	stop := make(chan struct{})
	next := func() *batch {
		select {
		case b := <-free:
			b.pieces, b.text = b.pieces[:0], b.text[:0]
			b.decoded = make(chan struct{})
			return b
		default:
			return &batch{pieces: make([]piece, 0, batchSize), text: make([]byte, 0, batchText), decoded: make(chan struct{})}
		}
	}
	var decoders sync.WaitGroup
	for range workers {
		decoders.Go(func() { r.decodeBatches(work, stop) })
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(work)
		defer close(ordered)
		b := next()
		send := func() bool {
			select {
			case <-stop:
				return false // before a batch finds room in ordered
			default:
			}
			select {
			case ordered <- b:
				work <- b
				return true
			case <-stop:
				return false
			}
		}
		read.Cut(in, src.name, r.limits, func(p read.Piece) bool {
			b.add(p)
			if len(b.pieces) < batchSize {
				return true
			}
			if !send() {
				return false
			}
			b = next()
			return true
		})
		if len(b.pieces) > 0 {
			send()
		}
	}()

	var err error
	for b := range ordered {
		<-b.decoded
		if err != nil || src.skipped {
			continue // drain: the cutter stops at its next piece
		}
		if err = r.ctx.Err(); err != nil {
			close(stop)
			continue
		}
		for i := range b.pieces {
			if err = r.c.add(src, &b.pieces[i], r); err != nil || src.skipped {
				close(stop)
				break
			}
		}
		for i := range b.pieces {
			b.pieces[i] = piece{} // let the decoded objects go with the collector alone
		}
		r.c.feed.flush()
		select {
		case free <- b:
		default:
		}
	}
	<-done
	decoders.Wait()
	if err == nil && !src.skipped {
		err = r.c.endSource(src, r)
	}
	return err
}

// decodeBatches decodes each batch from work, one at a time, until work
// is closed; once stop is closed it only marks the batches decoded.
func (r *reader) decodeBatches(work <-chan *batch, stop <-chan struct{}) {
	for b := range work {
		select {
		case <-stop:
		default:
			r.decodeBatch(b.pieces)
		}
		close(b.decoded)
	}
}
