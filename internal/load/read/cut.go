package read

// This file turns the bytes of one source into pieces, in order: it decides
// whether the source is JSON, YAML or neither, and cuts it with jsonScanner
// or yamlSplitter. It runs on its own goroutine, one batch of pieces ahead
// of the decoding.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// sniffSize is how much of a source is looked at to tell binary data from
// text: a NUL byte or invalid UTF-8 in it means binary.
const sniffSize = 8 << 10

// cutter cuts one source into pieces and sends them in batches.
type cutter struct {
	limit  int64
	source string
	out    func(p Piece) bool // false: stop, the reader wants no more
	stop   bool
	// Where the text starts: leading whitespace is skipped while sniffing.
	offset int64
	line   int
}

// send hands p over; false once the reader wants no more of the source.
func (c *cutter) send(p Piece) bool {
	p.Loc.Source = c.source
	if !c.stop && !c.out(p) {
		c.stop = true
	}
	return !c.stop
}

// cut reads in and sends its pieces; a failure is sent as a piece too.
func (c *cutter) cut(in io.Reader) {
	br := bufio.NewReaderSize(textReader(in), 64<<10)
	first, err := c.sniff(br)
	switch {
	case err != nil:
		c.send(Piece{Err: &PieceError{Doc: 1, Err: err}})
	case first == 0: // empty, or whitespace only
	case first == binaryData:
		c.send(Piece{Binary: true, Loc: Location{Doc: 1}})
	case first == '{' || first == '[':
		c.cutJSON(br)
	default:
		c.cutYAML(br)
	}
}

// binaryData is what sniff returns for binary data.
const binaryData = 0xff

// sniff returns the first byte that is not whitespace (0 for none), or
// binaryData, having skipped (and counted) the whitespace before it.
func (c *cutter) sniff(br *bufio.Reader) (byte, error) {
	head, err := br.Peek(sniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, err
	}
	if isBinary(head, len(head) == sniffSize) {
		return binaryData, nil
	}
	for {
		if _, err := br.Peek(1); err != nil {
			if errors.Is(err, io.EOF) {
				return 0, nil
			}
			return 0, err
		}
		buf, _ := br.Peek(br.Buffered())
		i := 0
		for i < len(buf) && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n') {
			i++
		}
		c.offset += int64(i)
		c.line += bytes.Count(buf[:i], []byte("\n"))
		_, _ = br.Discard(i)
		if i < len(buf) {
			return buf[i], nil
		}
	}
}

// isBinary reports whether head, the start of a source (full: there is
// more, so its last rune may be cut), has a NUL byte or is not UTF-8:
// neither YAML nor JSON.
func isBinary(head []byte, full bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if !full {
		return !utf8.Valid(head)
	}
	for cut := 0; cut < utf8.UTFMax && cut <= len(head); cut++ {
		if utf8.Valid(head[:len(head)-cut]) {
			return false
		}
	}
	return true
}

// cutJSON cuts a stream of JSON values: objects (a List's items one by
// one), and arrays of objects (each element an item).
func (c *cutter) cutJSON(in io.Reader) {
	s := newJSONScanner(in, c.limit)
	s.base = c.offset
	for doc := 1; !c.stop; doc++ {
		s.release()
		first, ok, err := s.peek()
		if err == nil && !ok {
			return
		}
		if err == nil {
			switch first {
			case '{':
				err = c.jsonObject(s, doc)
			case '[':
				s.pos++
				err = c.jsonItems(s, doc, nil, 1)
			default:
				var raw []byte
				var at int64
				if raw, at, err = s.value(0); err == nil {
					c.send(Piece{Raw: raw, Loc: Location{Doc: doc, Offset: at}})
				}
			}
		}
		if errors.Is(err, errStopped) {
			return
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = unexpectedEnd{err}
			}
			var located *PieceError
			if !errors.As(err, &located) {
				err = &PieceError{Doc: doc, Err: err}
			}
			c.send(Piece{Err: err})
			return
		}
	}
}

// jsonObject cuts a top-level object: a List (an object with an "items"
// array), whose items are sent one by one and then its end, or any other
// object, sent whole.
func (c *cutter) jsonObject(s *jsonScanner, doc int) error {
	at := s.offset(s.pos)
	s.pos++ // "{"
	var (
		header ListHeader
		list   bool
		keys   = map[string]bool{}
	)
	if next, _, err := s.peek(); err != nil {
		return err
	} else if next == '}' {
		s.pos++
	} else {
		for {
			key, err := s.key()
			if err != nil {
				return err
			}
			if keys[key] {
				return fmt.Errorf("duplicate key %s", clean(fmt.Sprintf("%q", key)))
			}
			keys[key] = true
			if next, _, err := s.peek(); err != nil {
				return err
			} else if key == "items" && next == '[' {
				list = true
				s.pos++
				if err := c.jsonItems(s, doc, &header, 2); err != nil {
					return err
				}
			} else {
				raw, _, err := s.value(1)
				if err != nil {
					return err
				}
				header.note(key, raw)
			}
			if list {
				s.release() // a List's fields are not kept, only its kind
			}
			end, err := s.expect(",}", "after object key:value pair")
			if err != nil {
				return err
			}
			if end == '}' {
				break
			}
		}
	}
	if list {
		c.send(Piece{ListEnd: true, Header: header, Loc: Location{Doc: doc}})
		return nil
	}
	if err := s.check(); err != nil {
		return err
	}
	c.send(Piece{Raw: s.buf[at-s.base : s.pos], Loc: Location{Doc: doc, Offset: at}})
	return nil
}

// jsonItems cuts the elements of an array whose "[" was just read, through
// its "]", at the given depth. header is the List's as read so far (nil for
// a bare array): the items are sent with a copy of it.
func (c *cutter) jsonItems(s *jsonScanner, doc int, header *ListHeader, depth int) error {
	if next, _, err := s.peek(); err != nil {
		return err
	} else if next == ']' {
		s.pos++
		return nil
	}
	var h ListHeader
	if header != nil {
		h = *header
	}
	for item := 1; ; item++ {
		s.release()
		raw, at, err := s.value(depth)
		if err != nil {
			return &PieceError{Doc: doc, Item: item, Err: err}
		}
		if !c.send(Piece{Raw: raw, Header: h, Loc: Location{Doc: doc, Item: item, Offset: at}, TypeMeta: s.typeMeta}) {
			return errStopped
		}
		end, err := s.expect(",]", "after array element")
		if err != nil {
			return &PieceError{Doc: doc, Item: item, Err: err}
		}
		if end == ']' {
			return nil
		}
	}
}

// unexpectedEnd is JSON input that ends within a value.
type unexpectedEnd struct{ err error }

func (unexpectedEnd) Error() string   { return "unexpected end of JSON input" }
func (e unexpectedEnd) Unwrap() error { return e.err }

// errStopped ends a cut the reader no longer wants.
var errStopped = errors.New("stopped")

// cutYAML cuts YAML documents, and the items of block-style Lists.
func (c *cutter) cutYAML(in *bufio.Reader) {
	y := &yamlSplitter{
		lines: lineReader{r: in, limit: c.limit, n: c.line},
		limit: c.limit,
		emit: func(p yamlPiece) error {
			ok := c.send(Piece{
				Raw: p.text, YAML: true, ListEnd: p.listEnd, Header: p.header, lineMap: p.lineMap,
				Loc: Location{Doc: p.doc, Item: p.item, Line: p.line},
			})
			if !ok {
				return errStopped
			}
			return nil
		},
	}
	if err := y.run(); err != nil && !errors.Is(err, errStopped) {
		c.send(Piece{Err: err})
	}
}

// ListHeader is what a List says of its items: its kind and apiVersion.
type ListHeader struct {
	// Kind and APIVersion are the List's, "" where not known.
	Kind, APIVersion string
}

// note records the List's kind or apiVersion from one of its fields.
func (l *ListHeader) note(key string, raw []byte) {
	switch key {
	case "kind":
		_ = json.Unmarshal(raw, &l.Kind)
	case "apiVersion":
		_ = json.Unmarshal(raw, &l.APIVersion)
	}
}

// Declared reports whether the List's kind is known and names a list.
func (l ListHeader) Declared() bool { return strings.HasSuffix(l.Kind, "List") }

// ItemKind is the kind of the items of a typed List (a PodList's are Pods)
// whose items have neither kind nor apiVersion, as the API server serves
// them; nil when the List's kind is not known or is "List".
func (l ListHeader) ItemKind() *schema.GroupVersionKind {
	kind := strings.TrimSuffix(l.Kind, "List")
	if kind == "" || kind == l.Kind {
		return nil
	}
	gv, err := schema.ParseGroupVersion(l.APIVersion)
	if err != nil {
		return nil
	}
	gvk := gv.WithKind(kind)
	return &gvk
}
