package load

// This file decodes the items of a streamed List: one goroutine cuts raw
// items out of the document, every core decodes a batch of them with
// client-go's scheme, and the fileReader keeps them in file order.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// batchSize is the number of raw items decoded together: large enough to
// keep every core busy, small enough that the raw text in flight (two
// batches) stays a few megabytes.
const batchSize = 256

// decoded is one item decoded by decodeItem.
type decoded struct {
	obj kruntime.Object
	gvk schema.GroupVersionKind
	err error
	// raw is kept when the item could not be decoded: for its name in the
	// error, or, when it has neither kind nor apiVersion, to decode it again
	// as the List's item kind.
	raw []byte
}

// untyped reports whether the item has neither kind nor apiVersion: the
// builder then takes both from the List (a PodList's items, as the API
// server serves them, have neither).
func (d decoded) untyped() bool { return d.err != nil && d.gvk.Empty() }

// decodeItem decodes raw with client-go's scheme into its typed object,
// without defaulting or conversion; def, when not nil, is the kind of an
// untyped item.
func decodeItem(raw []byte, def *schema.GroupVersionKind) decoded {
	obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(raw, def, nil)
	d := decoded{obj: obj, err: err}
	if gvk != nil {
		d.gvk = *gvk
	}
	if err != nil {
		d.raw = bytes.Clone(raw) // raw's buffer is reused (readItems)
	}
	return d
}

// decodeBatch decodes raws on every core; the results are in order.
func decodeBatch(raws [][]byte) []decoded {
	out := make([]decoded, len(raws))
	workers := min(runtime.GOMAXPROCS(0), len(raws))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(raws); i += workers {
				out[i] = decodeItem(raws[i], nil)
			}
		})
	}
	wg.Wait()
	return out
}

// listHeader is what a List says of its items, from the fields read so far.
type listHeader struct {
	kind, apiVersion string
}

// note records the List's kind and apiVersion among its fields.
func (l *listHeader) note(key string, raw []byte) {
	switch key {
	case "kind":
		_ = json.Unmarshal(raw, &l.kind)
	case "apiVersion":
		_ = json.Unmarshal(raw, &l.apiVersion)
	}
}

// itemKind is the kind the builder gives untyped items, nil while the
// List's kind is not known (it may come after the items).
func (l *listHeader) itemKind() *schema.GroupVersionKind {
	if l.kind == "" {
		return nil
	}
	gv, _ := schema.ParseGroupVersion(l.apiVersion)
	gvk := gv.WithKind(strings.TrimSuffix(l.kind, "List"))
	return &gvk
}

// deferredItems are the items from the first untyped one on, kept until the
// List's kind is known, so that items stay in file order.
type deferredItems struct {
	items []decoded
	first int // the item number of items[0]
}

// finish adds the deferred items, the untyped ones decoded as the List's
// item kind. A nil deferredItems has nothing to add.
func (p *deferredItems) finish(r *fileReader, source string, list *listHeader) error {
	if p == nil {
		return nil
	}
	for i, d := range p.items {
		if d.untyped() {
			if kind := list.itemKind(); kind != nil {
				d = decodeItem(d.raw, kind)
			}
		}
		if err := r.addDecoded(source, d, p.first+i); err != nil {
			return err
		}
	}
	return nil
}

// streamItems reads the items of a List whose "items": [ was just read,
// through its closing "]", and adds them in order. The items from the first
// untyped one on are returned when the List's kind is not known yet.
func (r *fileReader) streamItems(source string, dec *json.Decoder, list *listHeader) (*deferredItems, error) {
	batches := make(chan [][]byte, 1)
	free := make(chan [][]byte, 2) // batches whose buffers readItems may reuse
	stop := make(chan struct{})
	var readErr error
	go func() {
		readErr = readItems(dec, batches, free, stop)
		close(batches) // after readErr is set
	}()

	var (
		pending *deferredItems
		err     error
		n       int
	)
	for batch := range batches {
		if err != nil {
			continue // drain: readItems stops at its next item
		}
		for _, d := range decodeBatch(batch) {
			n++
			switch {
			case pending != nil:
				pending.items = append(pending.items, d)
			case d.untyped() && list.itemKind() == nil:
				pending = &deferredItems{items: []decoded{d}, first: n}
			case d.untyped():
				err = r.addDecoded(source, decodeItem(d.raw, list.itemKind()), n)
			default:
				err = r.addDecoded(source, d, n)
			}
			if err != nil {
				close(stop)
				break
			}
		}
		select {
		case free <- batch:
		default:
		}
	}
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, r.syntaxError(source, dec, readErr)
	}
	return pending, nil
}

// readItems sends the raw items of the List being read from dec in batches,
// then reads the closing "]". It returns early (nil) once stop is closed.
// It fills the batches received on free again, reusing their buffers: the
// raw text is a fifth of what loading allocates, and the decoded objects
// copy what they keep of it.
func readItems(dec *json.Decoder, out chan<- [][]byte, free <-chan [][]byte, stop <-chan struct{}) error {
	send := func(batch [][]byte) bool {
		select {
		case out <- batch:
			return true
		case <-stop:
			return false
		}
	}
	next := func() [][]byte {
		select {
		case batch := <-free:
			return batch[:0]
		default:
			return make([][]byte, 0, batchSize)
		}
	}
	batch := next()
	for dec.More() {
		batch = batch[:len(batch)+1]
		raw := json.RawMessage(batch[len(batch)-1][:0]) // Decode appends to it
		if err := dec.Decode(&raw); err != nil {
			send(batch[:len(batch)-1])
			return locate(dec, err)
		}
		if batch[len(batch)-1] = raw; len(batch) == batchSize {
			if !send(batch) {
				return nil
			}
			batch = next()
		}
	}
	if len(batch) > 0 && !send(batch) {
		return nil
	}
	_, err := dec.Token()
	return err
}

// offsetError is malformed JSON at a byte offset of the whole input.
type offsetError struct {
	offset int64 // bytes up to and including the bad one
	msg    string
}

func (e *offsetError) Error() string { return e.msg }

// locate gives a syntax error from dec.Decode its offset in the whole input:
// the decoder counts only the bytes it decoded values from, not those its
// tokenizer read. The bad value is still in dec's buffer, from the input
// offset on; decoding it alone again gives the offset within it.
func locate(dec *json.Decoder, err error) error {
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) {
		return err
	}
	start := dec.InputOffset()
	var raw json.RawMessage
	again := json.NewDecoder(dec.Buffered()).Decode(&raw)
	if !errors.As(again, &syntax) {
		return err
	}
	return &offsetError{offset: start + syntax.Offset, msg: syntax.Error()}
}

// addDecoded adds a decoded document, or the item-th item (from 1) of the
// List being read when item > 0: a Node or a Pod, or the items of a List
// within; other kinds are counted as skipped.
func (r *fileReader) addDecoded(source string, d decoded, item int) error {
	r.item = item
	defer func() { r.item = 0 }()
	if d.err != nil && !kruntime.IsNotRegisteredError(d.err) {
		return r.itemError(source, item, d, d.err)
	}
	switch o := d.obj.(type) {
	case *corev1.Node:
		if o.Name == "" {
			return r.itemError(source, item, d, fmt.Errorf("%s without metadata.name", d.gvk.Kind))
		}
		return r.addNode(source, o)
	case *corev1.Pod:
		if o.Name == "" {
			return r.itemError(source, item, d, fmt.Errorf("%s without metadata.name", d.gvk.Kind))
		}
		return r.addPod(source, o)
	case *corev1.List:
		return r.addInner(source, item, o.Items)
	}
	r.skipped[kindLabel(d.gvk)]++
	return nil
}

// addInner adds the items of a List within a document (or within a List).
func (r *fileReader) addInner(source string, item int, items []kruntime.RawExtension) error {
	for _, inner := range items {
		if err := r.addDecoded(source, decodeItem(inner.Raw, nil), item); err != nil {
			return err
		}
	}
	return nil
}

// itemError names the document, the item and, when it has one, the object.
func (r *fileReader) itemError(source string, item int, d decoded, err error) error {
	var named struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if d.raw != nil {
		_ = json.Unmarshal(d.raw, &named)
	}
	msg := cleanCause(err.Error())
	if kind := d.gvk.Kind; kind != "" && named.Metadata.Name != "" {
		msg = fmt.Sprintf("%s %q: %s", kind, named.Metadata.Name, msg)
	}
	if item > 0 {
		msg = fmt.Sprintf("item %d: %s", item, msg)
	}
	return r.docError(source, fmt.Errorf("%s", msg))
}
