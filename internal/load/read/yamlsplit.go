package read

// This file cuts YAML input into the pieces package load decodes: documents
// (separated by "---" lines, as k8s.io/apimachinery's YAML reader splits
// them), and, in a document that is a List in block style (`kubectl get -o
// yaml` output: a top-level "items:" key followed by "- " entries) or a
// top-level sequence, one piece per item. Items are cut by indentation
// alone, so a 700 MB List is never held whole; each item is then converted
// on its own. Lines are capped at Limits.MaxDocumentBytes, and so are
// documents and items.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
)

// lineReader reads lines, each at most limit bytes.
type lineReader struct {
	r     *bufio.Reader
	limit int64
	n     int    // number of the last line read, from 1
	long  []byte // a line longer than the reader's buffer
}

// next returns the next line, with its "\n" (the last line may lack one),
// valid until the following call; ok is false at the end of input. A line
// longer than the reader's buffer is gathered in l.long, grown by doubling
// up to the limit, so that a hostile line costs at most about the limit.
func (l *lineReader) next() (line []byte, ok bool, err error) {
	l.long = l.long[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if len(l.long) > 0 || errors.Is(err, bufio.ErrBufferFull) {
			if int64(len(l.long)+len(frag)) > l.limit {
				return nil, false, fmt.Errorf("line %d: %w", l.n+1, &tooLargeError{l.limit})
			}
			if len(l.long)+len(frag) > cap(l.long) {
				grown := make([]byte, len(l.long), min(max(2*cap(l.long), len(l.long)+len(frag)), int(l.limit)))
				copy(grown, l.long)
				l.long = grown
			}
			l.long = append(l.long, frag...)
			frag = l.long
		} else if int64(len(frag)) > l.limit {
			return nil, false, fmt.Errorf("line %d: %w", l.n+1, &tooLargeError{l.limit})
		}
		switch {
		case err == nil:
			l.n++
			return frag, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(frag) == 0 {
				return nil, false, nil
			}
			l.n++
			return frag, true, nil
		}
		return nil, false, err
	}
}

// yamlPiece is what the splitter hands over: a document, an item of a
// List, or the end of a List (its fields other than items, to be parsed
// for the List's kind).
type yamlPiece struct {
	text    []byte // valid until emit returns
	line    int    // the file line of text's first line
	doc     int
	item    int          // from 1 for items; 0 for documents and List ends
	listEnd bool         // text is the List's header
	header  ListHeader   // for items: the List's kind as far as known
	lineMap []lineOffset // for List ends: where the header's lines come from
}

// lineOffset maps the header's lines from line on to the file lines from
// fileLine on.
type lineOffset struct{ line, fileLine int }

// yamlSplitter splits one YAML source.
type yamlSplitter struct {
	lines lineReader
	limit int64
	emit  func(yamlPiece) error

	doc     int
	content bool // the current document has content (not only comments)

	// The document's lines outside its items, and where they come from.
	docText    []byte
	docLine    int
	lineMap    []lineOffset
	headerSize int

	list     bool // the document is a List (or a sequence) whose items are being cut
	listDone bool // a List's items were read: a second "items:" is a duplicate
	bare     bool // the document is a top-level sequence
	indent   int  // column of the items' "-"
	header   ListHeader
	item     []byte
	itemLine int // file line of the item's first line; 0 before the first entry
	items    int

	// The lines after "items:", held until the first content line shows
	// whether a block sequence follows.
	waiting []heldLine
}

type heldLine struct {
	text []byte
	n    int
}

var separatorRest = regexp.MustCompile(`^\s*(#.*)?$`)

// run reads all lines, calling emit in order.
func (y *yamlSplitter) run() error {
	for {
		line, ok, err := y.lines.next()
		if err != nil {
			return y.docError(err)
		}
		if !ok {
			return y.endDocument()
		}
		n := y.lines.n
		if bytes.HasPrefix(line, []byte("---")) {
			if !separatorRest.Match(bytes.TrimRight(line[3:], "\r\n")) {
				return y.docError(fmt.Errorf("line %d: invalid document separator %s", n, clean(fmt.Sprintf("%q", bytes.TrimRight(line, "\r\n")))))
			}
			if err := y.endDocument(); err != nil {
				return err
			}
			continue
		}
		if err := y.add(line, n); err != nil {
			return err
		}
	}
}

func (y *yamlSplitter) docError(err error) error {
	return &PieceError{Doc: max(y.doc, 1), Item: y.items, Err: err}
}

// PieceError is a failure while cutting, in document Doc and (from 1; 0
// outside a List) item Item of the source. Its message is Err's.
type PieceError struct {
	Doc, Item int
	Err       error
}

func (e *PieceError) Error() string { return e.Err.Error() }
func (e *PieceError) Unwrap() error { return e.Err }

// add takes line n of the current document.
func (y *yamlSplitter) add(line []byte, n int) error {
	content := isContent(line)
	if content && !y.content {
		y.content = true
		y.doc++
		if entryIndent(line) == 0 { // a top-level sequence: its entries are items
			y.bare, y.list, y.indent = true, true, 0
		}
	}
	switch {
	case y.waiting != nil:
		return y.addWaiting(line, n, content)
	case y.list:
		return y.addListLine(line, n, content)
	case content && isItemsKey(line):
		if y.listDone {
			return &PieceError{Doc: y.doc, Err: fmt.Errorf("line %d: duplicate key %q", n, "items")}
		}
		y.waiting = []heldLine{{append([]byte(nil), line...), n}}
		return nil
	}
	return y.addHeader(line, n)
}

// addHeader keeps line n, a line of the document outside the items.
func (y *yamlSplitter) addHeader(line []byte, n int) error {
	if len(y.docText) == 0 {
		y.docLine, y.headerSize = n, 0
		y.lineMap = append(y.lineMap[:0], lineOffset{1, n})
	} else if last := y.lineMap[len(y.lineMap)-1]; last.fileLine+(y.headerSize+1-last.line) != n {
		y.lineMap = append(y.lineMap, lineOffset{y.headerSize + 1, n})
	}
	y.headerSize++
	y.docText = append(y.docText, line...)
	if int64(len(y.docText)) > y.limit {
		return y.docError(&tooLargeError{y.limit})
	}
	return nil
}

// addWaiting takes the lines after "items:" until the first content line:
// an entry makes the document a List; anything else (a mapping, a flow
// sequence, another key) leaves "items" to the decoder, in the document.
func (y *yamlSplitter) addWaiting(line []byte, n int, content bool) error {
	if !content {
		y.waiting = append(y.waiting, heldLine{append([]byte(nil), line...), n})
		return nil
	}
	held := y.waiting
	y.waiting = nil
	if col := entryIndent(line); col >= 0 {
		y.list, y.indent, y.header = true, col, headerOf(y.docText)
		// The key stays in the header (as null), so that a second "items"
		// is a duplicate key there.
		if err := y.addHeader(held[0].text, held[0].n); err != nil {
			return err
		}
		return y.addListLine(line, n, true)
	}
	for _, h := range held {
		if err := y.addHeader(h.text, h.n); err != nil {
			return err
		}
	}
	return y.add(line, n)
}

// addListLine takes line n while items are being cut.
func (y *yamlSplitter) addListLine(line []byte, n int, content bool) error {
	if content {
		switch col := indentOf(line); {
		case col == y.indent && entryIndent(line) == col:
			if err := y.endItem(); err != nil {
				return err
			}
			y.items++
			y.itemLine = n
			line = append([]byte(nil), line...)
			line[col] = ' ' // the entry's "-" becomes indentation
		case col <= y.indent:
			// The sequence ended: the rest belongs to the document.
			if err := y.endItem(); err != nil {
				return err
			}
			if y.bare {
				return y.docError(fmt.Errorf("line %d: unexpected content after a top-level sequence", n))
			}
			y.list, y.listDone = false, true
			return y.add(line, n)
		}
	}
	if y.itemLine == 0 {
		return nil // comments between "items:" and the first entry
	}
	y.item = append(y.item, dedent(line, y.indent+2)...)
	if int64(len(y.item)) > y.limit {
		return &PieceError{Doc: y.doc, Item: y.items, Err: &tooLargeError{y.limit}}
	}
	return nil
}

// endItem hands over the item being cut, if any.
func (y *yamlSplitter) endItem() error {
	if y.itemLine == 0 {
		return nil
	}
	p := yamlPiece{text: y.item, line: y.itemLine, doc: y.doc, item: y.items, header: y.header}
	y.item, y.itemLine = y.item[:0], 0 // emit copies the text
	return y.emit(p)
}

// endDocument hands over the rest of the document: a whole document, or the
// header of a List.
func (y *yamlSplitter) endDocument() error {
	if held := y.waiting; held != nil { // "items:" and nothing after it: null
		y.waiting = nil
		for _, h := range held {
			if err := y.addHeader(h.text, h.n); err != nil {
				return err
			}
		}
	}
	if err := y.endItem(); err != nil {
		return err
	}
	p := yamlPiece{text: y.docText, line: y.docLine, doc: y.doc, listEnd: y.list || y.listDone, lineMap: y.lineMap}
	emit := y.content && !y.bare
	y.docText, y.lineMap, y.content, y.list, y.listDone, y.bare, y.items, y.header = nil, nil, false, false, false, false, 0, ListHeader{}
	if !emit {
		return nil
	}
	return y.emit(p)
}

// isContent reports whether line holds more than blanks and a comment.
func isContent(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r\n")
	return len(t) > 0 && t[0] != '#'
}

// indentOf counts the leading spaces of line.
func indentOf(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// entryIndent returns the column of line's "-" when line is a sequence
// entry ("- x", or "-" alone), else -1.
func entryIndent(line []byte) int {
	n := indentOf(line)
	if n < len(line) && line[n] == '-' && (n+1 == len(line) || bytes.IndexByte([]byte(" \t\r\n"), line[n+1]) >= 0) {
		return n
	}
	return -1
}

var itemsKey = regexp.MustCompile(`^items:\s*(#.*)?$`)

// isItemsKey reports whether line is a top-level "items:" key without a value
// on the same line.
func isItemsKey(line []byte) bool { return itemsKey.Match(line) }

// dedent removes up to n leading spaces.
func dedent(line []byte, n int) []byte {
	return line[min(n, indentOf(line)):]
}

var (
	headerKind       = regexp.MustCompile(`(?m)^kind:[ \t]*["']?([A-Za-z0-9]+)["']?[ \t]*(#.*)?\r?$`)
	headerAPIVersion = regexp.MustCompile(`(?m)^apiVersion:[ \t]*["']?([A-Za-z0-9./-]+)["']?[ \t]*(#.*)?\r?$`)
)

// headerOf finds a List's kind and apiVersion among the top-level keys read
// so far, in their plain form; the decoder reads the header properly at the
// end of the document.
func headerOf(doc []byte) ListHeader {
	var h ListHeader
	if m := headerKind.FindSubmatch(doc); m != nil {
		h.Kind = string(m[1])
	}
	if m := headerAPIVersion.FindSubmatch(doc); m != nil {
		h.APIVersion = string(m[1])
	}
	return h
}
