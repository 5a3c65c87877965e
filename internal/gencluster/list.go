package gencluster

import (
	"bytes"
	"encoding/json"
	"io"
)

// listWriter streams a v1 List: it writes the envelope once and encodes each
// item as it arrives, so no item outlives its own Item call.
//
// The envelope keys come in the order kubectl prints them (apiVersion, items,
// kind, metadata). Items keep the field order of the typed Go structs, which
// is the same JSON document as kubectl's alphabetical order.
type listWriter struct {
	w      io.Writer
	indent bool
	n      int
	buf    bytes.Buffer
	enc    *json.Encoder
	err    error
}

func newListWriter(w io.Writer, indent bool) *listWriter {
	lw := &listWriter{w: w, indent: indent}
	lw.enc = json.NewEncoder(&lw.buf)
	if indent {
		// Items sit two levels deep: {"items": [ <item> ]}.
		lw.enc.SetIndent("        ", "    ")
	}
	if indent {
		lw.write("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	} else {
		lw.write(`{"apiVersion":"v1","items":[`)
	}
	return lw
}

func (lw *listWriter) write(s string) {
	if lw.err == nil {
		_, lw.err = io.WriteString(lw.w, s)
	}
}

// Item encodes one object into the List.
func (lw *listWriter) Item(obj any) error {
	if lw.err != nil {
		return lw.err
	}
	lw.buf.Reset()
	if err := lw.enc.Encode(obj); err != nil {
		lw.err = err
		return err
	}
	// Encode appends a newline; the separators below supply the layout.
	b := bytes.TrimSuffix(lw.buf.Bytes(), []byte("\n"))
	switch {
	case lw.indent && lw.n > 0:
		lw.write(",\n        ")
	case lw.indent:
		lw.write("\n        ")
	case lw.n > 0:
		lw.write(",")
	}
	if lw.err == nil {
		_, lw.err = lw.w.Write(b)
	}
	lw.n++
	return lw.err
}

// Close writes the end of the envelope.
func (lw *listWriter) Close() error {
	switch {
	case lw.indent && lw.n > 0:
		lw.write("\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	case lw.indent:
		lw.write("],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	default:
		lw.write(`],"kind":"List","metadata":{"resourceVersion":""}}` + "\n")
	}
	return lw.err
}
