// Package read cuts the bytes of `-f` input into pieces: each YAML or JSON
// document, each item of a List (or of a top-level JSON array) on its own,
// and the end of a List with its header, in input order, without recursion
// and within Limits, so that hostile input (a multi-gigabyte line, JSON
// nested millions of levels deep) ends in a one-line error with flat
// memory instead of a hang or a crash.
//
// Its seam is Cut: it reads one source and hands over each Piece, carrying
// the text, where it was found (Location: document, List item, line or
// offset) and, for JSON items, where the cutter saw the apiVersion and kind
// keys (TypeMetaKeys), so that the decoder need not walk the object's top
// level again. What a piece holds is decoded elsewhere (package load).
//
// The parts: cut.go decides JSON, YAML or binary and sends the pieces;
// jsonscan.go cuts JSON values with a byte scanner that checks the syntax,
// the nesting (MaxDepth) and duplicate keys as it goes; yamlsplit.go splits
// YAML by lines and indentation (documents, and the items of a List);
// kindscan.go reads an object's apiVersion and kind without decoding it;
// text.go decodes the text as kubectl's file reader does (UTF-16 with a
// byte-order mark becomes UTF-8, ill-formed UTF-8 becomes U+FFFD);
// limits.go holds the bounds.
//
// Why our own cutters: apimachinery's YAML reader streams documents but not
// the items of a List inside one, which a 742 MB `kubectl get -o yaml` is;
// go-json-experiment's jsontext.Decoder cuts JSON as fast as jsonscan.go
// but finding each item's apiVersion and kind on top of it made it 42%
// slower (BenchmarkCutList; docs/PERFORMANCE.md, "The reader's memory
// layer behind one switch").
//
// Whole reads a single-document input (simulate's --script) within the
// same bounds.
package read

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// Piece is one thing cut from a source: a document, a List item, the end of
// a List, or a failure to read on (Err, with Loc of the source only).
type Piece struct {
	// Loc is where the piece was read.
	Loc Location
	// Raw is the JSON or YAML text of one value. It is the cutter's buffer,
	// valid only until send returns: copy what must outlive it.
	Raw []byte
	// YAML is true for YAML text, false for JSON.
	YAML bool
	// Header is, for a List item, the List's apiVersion and kind as far as
	// known when the item was cut; for the end of a List (ListEnd), the
	// List's own.
	Header ListHeader
	// ListEnd marks the end of a List: Raw, if any, is its header (the List
	// without its items).
	ListEnd bool
	// Binary is true when the source is binary data, not YAML or JSON.
	Binary bool
	// TypeMeta is where the cutter saw a JSON item's apiVersion and kind
	// keys in Raw (see TypeMetaKeys.Read).
	TypeMeta TypeMetaKeys
	// Err is a failure to cut: the source reads no further. A *PieceError
	// names the document and item it happened in.
	Err error

	// lineMap maps the lines of a YAML List's header (ListEnd) to the
	// lines of the file, the items between them taken out.
	lineMap []lineOffset
}

// FileLine maps line n (from 1) of p's YAML text to the line of the file.
func (p *Piece) FileLine(n int) int {
	if p.lineMap == nil {
		return p.Loc.Line + n - 1
	}
	at := p.lineMap[0]
	for _, m := range p.lineMap {
		if m.line <= n {
			at = m
		}
	}
	return at.fileLine + n - at.line
}

// Location is where a piece was read: the Doc-th non-empty document of
// Source and, within a List (or a top-level array), its Item-th item (from
// 1; 0 outside a List). Line (YAML, from 1) and Offset (JSON, in bytes from
// the start of the source) locate its text.
type Location struct {
	Source    string
	Doc, Item int
	Line      int
	Offset    int64
}

// String names the location: "<source> document n item m".
func (l Location) String() string {
	if l.Item > 0 {
		return fmt.Sprintf("%s document %d item %d", l.Source, l.Doc, l.Item)
	}
	return fmt.Sprintf("%s document %d", l.Source, l.Doc)
}

// Prefix names the location at the start of an error:
// "<source>: document n: item m".
func (l Location) Prefix() string {
	if l.Item > 0 {
		return fmt.Sprintf("%s: document %d: item %d", l.Source, l.Doc, l.Item)
	}
	return fmt.Sprintf("%s: document %d", l.Source, l.Doc)
}

// Cut reads in, the source named source, and hands each of its pieces to
// send, in order, until the input ends, a piece fails (sent with Err set:
// the last one) or send returns false. The Raw text of a piece is reused
// once send returns. Cut returns when it has stopped reading; in is not
// closed.
func Cut(in io.Reader, source string, limits Limits, send func(Piece) bool) {
	c := &cutter{limit: limits.maxDocument(), source: source, out: send}
	c.cut(in)
}

// Whole reads the whole of in, checked to be UTF-8 text as Cut checks
// it, within limits: at most Limits.MaxDocumentBytes (else an error for
// which IsTooLarge is true).
func Whole(in io.Reader, limits Limits) ([]byte, error) {
	limit := limits.maxDocument()
	data, err := io.ReadAll(io.LimitReader(bufio.NewReader(textReader(in)), limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &tooLargeError{limit}
	}
	return data, nil
}

// clean keeps a message to one line without control characters.
func clean(s string) string { return termtext.Line(strings.TrimSpace(s)) }
