package load

// This file runs the reader: for each source, a cutter goroutine cuts its
// bytes into pieces (cut.go), batches of pieces are decoded on every core
// (decode.go), and the collector adds the decoded objects in input order
// (collect.go). At most two batches are in flight, so memory holds the
// objects kept plus a few megabytes of text, whatever the size of the input.

import (
	"fmt"
	"io"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// batchSize is the number of pieces decoded together: enough to keep every
// core busy, few enough that the text in flight stays small.
const batchSize = 256

// piece is one thing cut from a source: a document, a List item, the end of
// a List, or a failure to read on. Decoding fills obj, gvk, err or skip.
type piece struct {
	loc     location
	raw     []byte // JSON or YAML text of one value
	yaml    bool
	lineMap []lineOffset // YAML List ends: where the header's lines are
	header  listHeader   // items: the List's kind as far as known; ends: the List's
	listEnd bool
	binary  bool // the source is binary data

	obj  kruntime.Object
	gvk  schema.GroupVersionKind
	err  error // a failure to cut or decode the piece
	skip bool  // nothing to add: an empty document or an unwanted kind
}

// location is where a piece was read: the doc-th non-empty document of
// source and, within a List (or a top-level array), its item-th item (from
// 1; 0 outside a List). line (YAML) and offset (JSON) locate its text.
type location struct {
	source    string
	doc, item int
	line      int
	offset    int64
}

func (l location) String() string {
	if l.item > 0 {
		return fmt.Sprintf("%s document %d item %d", l.source, l.doc, l.item)
	}
	return fmt.Sprintf("%s document %d", l.source, l.doc)
}

// prefix names the piece in an error: "<source>: document n: item m".
func (l location) prefix() string {
	if l.item > 0 {
		return fmt.Sprintf("%s: document %d: item %d", l.source, l.doc, l.item)
	}
	return fmt.Sprintf("%s: document %d", l.source, l.doc)
}

// reader reads sources into a collector.
type reader struct {
	limits  Limits
	objects bool // decode the scheduling kinds too
	decode  decodeFunc
	c       *collector
}

// readSource reads one source through the pipeline. It returns the first
// error, after which nothing more of the source is read.
func (r *reader) readSource(src *source, in io.Reader) error {
	batches := make(chan []piece, 1)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(batches)
		batch := make([]piece, 0, batchSize)
		c := &cutter{limit: r.limits.maxDocument(), out: func(p piece) bool {
			p.loc.source = src.name
			batch = append(batch, p)
			if len(batch) < batchSize {
				return true
			}
			select {
			case batches <- batch:
				batch = make([]piece, 0, batchSize)
				return true
			case <-stop:
				return false
			}
		}}
		c.cut(in)
		if len(batch) > 0 {
			select {
			case batches <- batch:
			case <-stop:
			}
		}
	}()

	var err error
	for batch := range batches {
		if err != nil || src.skipped {
			continue // drain: the cutter stops at its next piece
		}
		r.decodeBatch(batch)
		for i := range batch {
			if err = r.c.add(src, &batch[i], r); err != nil || src.skipped {
				close(stop)
				break
			}
		}
	}
	<-done
	if err == nil && !src.skipped {
		err = r.c.endSource(src, r)
	}
	return err
}
