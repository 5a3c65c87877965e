package printers

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// StreamYAML writes obj exactly as print writes it — print being
// cli-runtime's YAML printer (sigs.k8s.io/yaml: encoding/json's text read
// back by go-yaml v2 into maps and written as YAML, keys sorted) — but
// without the whole document in memory, three times over, at once: the
// elements of obj's longest non-empty top-level list are converted
// concurrently, a few chunks at a time, and written in order; print writes
// the rest of obj with that list cut to one zero element, whose text is then
// replaced by the list's.
//
// An element's YAML is what go-yaml writes for the document
// {KEY: [element]} without its first line "KEY:": the element at the same
// column as in the whole document, so go-yaml folds its long strings at the
// same places. Most elements are written by yamlItem's own emitter from
// their JSON; it gives up on anything it does not write exactly as go-yaml
// (a string outside a plain set of characters, a fraction, a list in a
// list), and sigs.k8s.io/yaml writes that element instead.
//
// Objects without a non-empty list, or not a pointer to a struct, are handed
// to print as they are. Errors are print's, the first conversion error, or
// the first write error (after which nothing more is written).
func StreamYAML(w io.Writer, obj kruntime.Object, print func(kruntime.Object, io.Writer) error) error {
	head, key, items, ok := splitLongestList(obj)
	if !ok {
		return print(obj, w)
	}
	var hb bytes.Buffer
	if err := print(head, &hb); err != nil {
		return err
	}
	zero, err := yamlItemSlow(key, reflect.New(items.Type().Elem()).Interface())
	if err != nil {
		return err
	}
	// At column 0 only the top-level keys start a line: this text is the
	// list and nothing else.
	open := key + ":\n"
	marker := append([]byte("\n"+open), zero...)
	text := append([]byte("\n"), hb.Bytes()...)
	at := bytes.Index(text, marker)
	if at < 0 || bytes.LastIndex(text, marker) != at {
		return fmt.Errorf("yaml output: cannot find the list %s in %T", key, obj)
	}
	text = text[1:] // at is now the offset of "KEY:\n" in the head
	bw := bufio.NewWriterSize(w, 256<<10)
	if _, err := bw.Write(text[:at+len(open)]); err != nil {
		return err
	}
	opts := jsonv1.DefaultOptionsV1()
	plan, _ := newYAMLPlan(items.Type().Elem()) // nil: every element through JSON
	err = writeChunks(bw, items.Len(), func(from, to int) (*bytes.Buffer, error) {
		return yamlChunk(items, from, to, key, plan, opts)
	})
	if err != nil {
		return err
	}
	if _, err := bw.Write(text[at+len(marker)-1:]); err != nil {
		return err
	}
	return bw.Flush()
}

// yamlChunk returns the YAML of elements [from, to) of items, one after
// the other: each through the element type's plan when there is one (plan
// not nil) and it writes that element, through yamlElement otherwise. The
// buffer comes from chunkBuffers; the writer puts it back.
func yamlChunk(items reflect.Value, from, to int, key string, plan *yamlPlan, opts jsonv2.Options) (*bytes.Buffer, error) {
	out := chunkBuffers.Get().(*bytes.Buffer)
	out.Reset()
	var y yamlTyped
	var e yamlEmitter
	var js bytes.Buffer // reused: the collector has the model's heap to scan
	for i := from; i < to; i++ {
		if plan != nil {
			if text, ok := y.item(out.AvailableBuffer(), plan, items.Index(i)); ok {
				out.Write(text)
				continue
			}
		}
		// Through a pointer, as encoding/json reaches a slice element.
		if _, err := yamlElement(out, &e, &js, key, items.Index(i).Addr().Interface(), opts); err != nil {
			return out, err
		}
	}
	return out, nil
}

// yamlElement appends the YAML of the list element v to out: by the
// emitter from v's JSON (marshalled into js), or by yamlItemSlow when the
// emitter gives up; emitted says which.
func yamlElement(out *bytes.Buffer, e *yamlEmitter, js *bytes.Buffer, key string, v any, opts jsonv2.Options) (emitted bool, err error) {
	js.Reset()
	if err := jsonv2.MarshalWrite(js, v, opts); err != nil {
		return false, err
	}
	start := out.Len()
	if e.item(out, js.Bytes()) {
		return true, nil
	}
	out.Truncate(start)
	text, err := yamlItemSlow(key, v)
	if err != nil {
		return false, err
	}
	out.Write(text)
	return false, nil
}

// yamlItemSlow returns the YAML sigs.k8s.io/yaml writes for the element v
// of the top-level list key: its document {key: [v]} without "key:\n".
func yamlItemSlow(key string, v any) ([]byte, error) {
	doc, err := yaml.Marshal(map[string]any{key: []any{v}})
	if err != nil {
		return nil, err
	}
	prefix := key + ":\n"
	if !bytes.HasPrefix(doc, []byte(prefix)) {
		return nil, fmt.Errorf("yaml output: the element of %s does not start with %q", key, prefix)
	}
	return doc[len(prefix):], nil
}
