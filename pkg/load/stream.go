package load

// This file holds ReadFiles' stream for JSON input. A `kubectl get -o json`
// export of a large cluster is one List document (740 MB at 5,000 nodes and
// 150,000 pods); the builder would decode it whole into generic maps and
// then into typed copies. The stream walks the document with encoding/json's
// tokenizer instead, cuts the items out one by one, and decodes each with
// client-go's scheme (items.go), so that memory holds the typed objects
// kept plus a few batches of raw items, never the document.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// streamBuffer is the read-ahead for stdin, enough to see where its first
// value starts.
const streamBuffer = 64 << 10

// openJSONFile opens name for the stream when it is a local regular file
// whose first byte other than JSON whitespace is "{", as the builder would
// read it as JSON. Otherwise (a URL, directory, glob, missing file, YAML,
// a byte-order mark) it returns nil and the builder reads name.
func openJSONFile(name string) *os.File {
	if strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://") {
		return nil
	}
	if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	isJSON := startsJSON(bufio.NewReaderSize(f, streamBuffer))
	if _, err := f.Seek(0, io.SeekStart); err != nil || !isJSON {
		f.Close()
		return nil
	}
	return f
}

// startsJSON reports whether the first byte of in that is not JSON
// whitespace is "{", looking at most streamBuffer bytes ahead (in is not
// consumed).
func startsJSON(in *bufio.Reader) bool {
	for n := 1; n <= streamBuffer; n++ {
		b, err := in.Peek(n)
		if err != nil {
			return false
		}
		switch b[n-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// stream reads the JSON values of source from in: each is a document, a List
// or a single object.
func (r *fileReader) stream(source string, in io.Reader) error {
	r.startSource(source)
	dec := json.NewDecoder(in)
	dec.UseNumber() // values re-encoded by rawValue keep their text
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		r.docs[source]++
		if err != nil {
			return r.syntaxError(source, dec, err)
		}
		if tok != json.Delim('{') {
			return r.docError(source, fmt.Errorf("expected a JSON object, found %v", tok))
		}
		if err := r.streamDocument(source, dec); err != nil {
			return err
		}
	}
}

// streamDocument reads the rest of a document whose "{" was just read. A
// document with an "items" array is a List (as for the builder) whose items
// are streamed; any other is decoded once read, from its fields re-encoded.
func (r *fileReader) streamDocument(source string, dec *json.Decoder) error {
	var (
		fields  bytes.Buffer // the fields other than items, re-encoded
		list    listHeader
		isList  bool
		pending *deferredItems
	)
	fields.WriteByte('{')
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return r.syntaxError(source, dec, err)
		}
		value, err := dec.Token()
		if err != nil {
			return r.syntaxError(source, dec, err)
		}
		if key == "items" && value == json.Delim('[') && !isList {
			isList = true
			if pending, err = r.streamItems(source, dec, &list); err != nil {
				return err
			}
			continue
		}
		raw, err := rawValue(dec, value)
		if err != nil {
			return r.syntaxError(source, dec, err)
		}
		list.note(key.(string), raw)
		if fields.Len() > 1 {
			fields.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		fields.Write(k)
		fields.WriteByte(':')
		fields.Write(raw)
	}
	if _, err := dec.Token(); err != nil { // the closing "}"
		return r.syntaxError(source, dec, err)
	}
	if !isList {
		fields.WriteByte('}')
		return r.addDecoded(source, decodeItem(fields.Bytes(), nil), 0)
	}
	return pending.finish(r, source, &list)
}

// rawValue returns the JSON text of the value whose first token, first,
// was just read from dec: the token itself, or the whole array or object.
func rawValue(dec *json.Decoder, first json.Token) ([]byte, error) {
	delim, ok := first.(json.Delim)
	if !ok {
		return json.Marshal(first)
	}
	var b bytes.Buffer
	b.WriteRune(rune(delim))
	isObject := delim == '{'
	for n := 0; dec.More(); n++ {
		if n > 0 {
			b.WriteByte(',')
		}
		if isObject {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := json.Marshal(key)
			b.Write(k)
			b.WriteByte(':')
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := rawValue(dec, tok)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	end, err := dec.Token()
	if err != nil {
		return nil, err
	}
	b.WriteRune(rune(end.(json.Delim)))
	return b.Bytes(), nil
}

// syntaxError names the document being read and, for malformed JSON, the
// byte offset in source.
func (r *fileReader) syntaxError(source string, dec *json.Decoder, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.docError(source, errors.New("unexpected end of JSON input"))
	}
	var located *offsetError
	if errors.As(err, &located) {
		return r.docError(source, fmt.Errorf("json: offset %d: %s", located.offset, located.msg))
	}
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		// Offsets count the bytes read up to and including the bad one, as
		// json.Unmarshal (and so the builder) does; the tokenizer's errors
		// stop just before it, where the decoder's input offset is.
		offset := syntax.Offset
		if offset == dec.InputOffset() {
			offset++
		}
		return r.docError(source, fmt.Errorf("json: offset %d: %s", offset, syntax.Error()))
	}
	return r.docError(source, fmt.Errorf("json: offset %d: %w", dec.InputOffset(), err))
}
