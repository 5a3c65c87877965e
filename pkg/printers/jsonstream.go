package printers

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
)

// jsonIndent is the indent of kubectl's JSON output (cli-runtime's
// JSONPrinter: json.MarshalIndent(obj, "", "    ")).
const jsonIndent = "    "

// jsonChunk is the number of list elements one worker marshals at a time.
const jsonChunk = 32

// StreamJSON writes obj exactly as print writes it — print being
// cli-runtime's JSON printer (json.MarshalIndent with a four-space indent,
// then a newline) — but without holding the whole text in memory: the
// elements of obj's longest non-empty top-level list (a CacheDump's
// "nodes", a RequestedReport's "pods" with --pods) are marshalled
// concurrently, a few chunks at a time, and written in order as they are
// ready; print writes the rest of obj with that list cut to one zero
// element, whose text is then replaced by the list's.
//
// Why: at 5,000 nodes / 150,000 pods a dump is hundreds of MB of JSON.
// Marshalled whole it is built twice (compact, then indented) in buffers
// that grow by doubling, on top of the model, which pushes the heap past the
// soft memory limit and the collector into running back to back: most of
// what `-o json` added to `dump -f` (docs/PERFORMANCE.md#file-mode).
//
// Objects without such a list, or not a pointer to a struct, are handed to
// print as they are. Errors are print's, the first marshalling error, or
// the first write error (after which nothing more is written).
func StreamJSON(w io.Writer, obj kruntime.Object, print func(kruntime.Object, io.Writer) error) error {
	head, key, items, ok := splitLongestList(obj)
	if !ok {
		return print(obj, w)
	}
	var hb bytes.Buffer
	if err := print(head, &hb); err != nil {
		return err
	}
	opts := itemOptions()
	// The head's list holds one zero element, on its own lines at depth 2
	// between "[" and "]" at depth 1; a JSON string cannot hold a raw
	// newline, so this text is the list and nothing else.
	quoted, err := json.Marshal(key)
	if err != nil {
		return err
	}
	var zero bytes.Buffer
	if err := marshalItem(&zero, reflect.New(items.Type().Elem()).Interface(), opts); err != nil {
		return err
	}
	open := "\n" + jsonIndent + string(quoted) + ": "
	marker := []byte(open + "[\n" + jsonIndent + jsonIndent + zero.String() + "\n" + jsonIndent + "]")
	at := bytes.Index(hb.Bytes(), marker)
	if at < 0 || bytes.LastIndex(hb.Bytes(), marker) != at {
		return fmt.Errorf("json output: cannot find the list %s in %T", quoted, obj)
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if _, err := bw.Write(hb.Bytes()[:at+len(open)]); err != nil {
		return err
	}
	if err := writeJSONItems(bw, items, opts); err != nil {
		return err
	}
	if _, err := bw.Write(hb.Bytes()[at+len(marker):]); err != nil {
		return err
	}
	return bw.Flush()
}

// splitLongestList returns a shallow copy of obj whose longest top-level
// list holds one zero element instead (written whether the field has
// omitempty or not, with a text that marks where the list goes), the
// list's JSON name and the list; ok is false when obj has no non-empty
// list that could be split.
func splitLongestList(obj kruntime.Object) (head kruntime.Object, key string, items reflect.Value, ok bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, "", reflect.Value{}, false
	}
	s := v.Elem()
	field := -1
	for i := range s.NumField() {
		name, splittable := jsonListName(s.Type().Field(i))
		if splittable && s.Field(i).Len() > 0 && (field < 0 || s.Field(i).Len() > s.Field(field).Len()) {
			field, key = i, name
		}
	}
	if field < 0 {
		return nil, "", reflect.Value{}, false
	}
	copied := reflect.New(s.Type())
	copied.Elem().Set(s)
	list := copied.Elem().Field(field)
	list.Set(reflect.MakeSlice(list.Type(), 1, 1))
	head, ok = copied.Interface().(kruntime.Object)
	return head, key, s.Field(field), ok
}

// jsonListName returns the JSON name of an exported, non-embedded slice
// field that encoding/json writes when it is not empty (not "-", no
// option but omitempty or omitzero).
func jsonListName(f reflect.StructField) (string, bool) {
	if !f.IsExported() || f.Anonymous || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() == reflect.Uint8 || marshalsItself(f.Type) {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	for o := range strings.SplitSeq(opts, ",") {
		if o != "" && o != "omitempty" && o != "omitzero" {
			return "", false
		}
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}

// marshalsItself reports a (slice) type with a JSON or text form of its own,
// which encoding/json would use instead of writing the elements.
func marshalsItself(t reflect.Type) bool {
	for _, t := range []reflect.Type{t, reflect.PointerTo(t)} {
		if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
			return true
		}
	}
	return false
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// writeJSONItems writes the non-empty list items as MarshalIndent writes it
// at depth 1: "[", each element on its own lines at depth 2, "]" at depth 1.
func writeJSONItems(w *bufio.Writer, items reflect.Value, opts jsonv2.Options) error {
	if _, err := w.WriteString("[\n"); err != nil {
		return err
	}
	n := items.Len()
	err := writeChunks(w, n, func(from, to int) (*bytes.Buffer, error) {
		return marshalChunk(items, from, to, n, opts)
	})
	if err != nil {
		return err
	}
	_, err = w.WriteString("\n" + jsonIndent + "]")
	return err
}

// writeChunks writes the texts of n list elements in order, as chunk
// renders them jsonChunk at a time: chunks are rendered by GOMAXPROCS
// workers, at most twice that many chunks ahead of the writer, into buffers
// of chunkBuffers that the writer puts back. It returns the first render or
// write error; nothing more is written after it.
func writeChunks(w io.Writer, n int, chunk func(from, to int) (*bytes.Buffer, error)) error {
	chunks := (n + jsonChunk - 1) / jsonChunk
	results := make([]chan chunkResult, chunks)
	for i := range results {
		results[i] = make(chan chunkResult, 1)
	}
	next, done := make(chan int), make(chan struct{})
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for c := range next {
				b, err := chunk(c*jsonChunk, min(n, (c+1)*jsonChunk))
				results[c] <- chunkResult{b, err}
			}
		})
	}
	window := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	go func() {
		defer close(next)
		for c := range chunks {
			select {
			case window <- struct{}{}:
			case <-done:
				return
			}
			next <- c
		}
	}()
	defer wg.Wait()
	defer close(done)
	for c := range chunks {
		r := <-results[c]
		<-window
		if r.err != nil {
			return r.err
		}
		_, err := w.Write(r.buf.Bytes())
		chunkBuffers.Put(r.buf)
		if err != nil {
			return err
		}
	}
	return nil
}

// chunkResult is a rendered chunk, or why it could not be.
type chunkResult struct {
	buf *bytes.Buffer
	err error
}

// marshalChunk returns elements [from, to) of items, each marshalled and
// indented at depth 2, separated by ",\n" (and followed by one unless the
// chunk ends the list of n). The buffer comes from chunkBuffers; the
// writer puts it back.
//
// The elements go through go-json-experiment's json v2 with its v1 options
// (jsonv1.DefaultOptionsV1: encoding/json's output, byte for byte): it
// writes the indented text in one pass without allocating, where
// encoding/json marshals compact and indents a copy
// (docs/PERFORMANCE.md#large-outputs--o-json-and--o-yaml).
func marshalChunk(items reflect.Value, from, to, n int, opts jsonv2.Options) (*bytes.Buffer, error) {
	out := chunkBuffers.Get().(*bytes.Buffer)
	out.Reset()
	for i := from; i < to; i++ {
		out.WriteString(jsonIndent + jsonIndent)
		// Through a pointer, as encoding/json reaches a slice element
		// (addressable), so pointer-receiver MarshalJSON methods apply.
		if err := marshalItem(out, items.Index(i).Addr().Interface(), opts); err != nil {
			return out, err
		}
		if i < n-1 {
			out.WriteString(",\n")
		}
	}
	return out, nil
}

// marshalItem appends the JSON of v (a pointer to a list element) to out,
// indented at depth 2. json v2 writes invalid UTF-8 as a raw U+FFFD where
// encoding/json writes the escape \ufffd: an element whose text holds a
// U+FFFD (invalid UTF-8 replaced, or a real one) is written again by
// encoding/json, the reference.
func marshalItem(out *bytes.Buffer, v any, opts jsonv2.Options) error {
	start := out.Len()
	if err := jsonv2.MarshalWrite(out, v, opts); err != nil {
		return err
	}
	if !bytes.Contains(out.Bytes()[start:], []byte("\uFFFD")) {
		return nil
	}
	out.Truncate(start)
	enc := json.NewEncoder(out)
	enc.SetIndent(jsonIndent+jsonIndent, jsonIndent)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out.Truncate(out.Len() - 1) // Encode ends each value with a newline
	return nil
}

// itemOptions are the json v2 options that write a list element as
// encoding/json's MarshalIndent writes it at depth 2 of the document.
func itemOptions() jsonv2.Options {
	return jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(),
		jsontext.WithIndentPrefix(jsonIndent+jsonIndent), jsontext.WithIndent(jsonIndent))
}

// chunkBuffers holds the buffers of marshalled chunks between uses.
var chunkBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
