package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Severity is the kind of a Note, as its line starts: "note", "warning" or
// "hint".
type Severity string

// The severities of notes.
const (
	SeverityNote    Severity = "note"
	SeverityWarning Severity = "warning"
	SeverityHint    Severity = "hint"
	// SeverityPlain is a line printed as it is, without a prefix.
	SeverityPlain Severity = ""
)

// Note is one line said to the user about the input or the answer: its
// severity and its text (without the "note: " prefix, one line).
type Note struct {
	Severity Severity
	Text     string
}

// String is the line as printed on stderr: "warning: TEXT".
func (n Note) String() string {
	if n.Severity == SeverityPlain {
		return n.Text
	}
	return string(n.Severity) + ": " + n.Text
}

// Notes are the notes and warnings of one run, in the order they arose,
// each line once (a repeat is folded into the first). The zero value is
// ready to use; safe for concurrent use (a live listing warns from several
// goroutines). Not to be copied once used.
type Notes struct {
	mu   sync.Mutex
	list []Note
	seen map[Note]bool
}

// Add appends a note of severity s, its text formatted as fmt.Sprintf
// does; a line said before is not added again.
func (n *Notes) Add(s Severity, format string, args ...any) {
	n.add(Note{Severity: s, Text: fmt.Sprintf(format, args...)})
}

// AddAll appends notes, in order, each line once.
func (n *Notes) AddAll(notes []Note) {
	for _, note := range notes {
		n.add(note)
	}
}

func (n *Notes) add(note Note) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen == nil {
		n.seen = map[Note]bool{}
	}
	if n.seen[note] {
		return
	}
	n.seen[note] = true
	n.list = append(n.list, note)
}

// List returns a copy of the notes, in order.
func (n *Notes) List() []Note {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Note(nil), n.list...)
}

// Lines returns the notes as printed, one string per line.
func (n *Notes) Lines() []string {
	list := n.List()
	out := make([]string, len(list))
	for i, note := range list {
		out[i] = note.String()
	}
	return out
}

// WriteTo writes every note, one line each, to w and forgets them, so
// that a command that prints the notes of one step and then runs another
// prints each line once. It returns the bytes written and w's first error.
func (n *Notes) WriteTo(w io.Writer) (int64, error) {
	n.mu.Lock()
	list := n.list
	n.list = nil
	n.mu.Unlock()
	var total int64
	for _, note := range list {
		k, err := fmt.Fprintln(w, note.String())
		total += int64(k)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Writer returns an io.Writer whose complete lines become notes: a line
// "warning: X" or "note: X" or "hint: X" is that note, any other line a
// SeverityPlain note holding the line. It is for
// the layers below (the reader, the lister, the model) that write their
// warnings to an io.Writer.
func (n *Notes) Writer() io.Writer { return &noteWriter{notes: n} }

type noteWriter struct {
	notes   *Notes
	mu      sync.Mutex
	partial bytes.Buffer
}

func (w *noteWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial.Write(p)
	for {
		line, err := w.partial.ReadString('\n')
		if err != nil {
			// An unfinished line waits for its end.
			w.partial.Reset()
			w.partial.WriteString(line)
			return len(p), nil
		}
		w.notes.add(parseNote(strings.TrimSuffix(line, "\n")))
	}
}

// parseNote reads a printed line back into a Note.
func parseNote(line string) Note {
	for _, s := range []Severity{SeverityWarning, SeverityNote, SeverityHint} {
		if text, ok := strings.CutPrefix(line, string(s)+": "); ok {
			return Note{Severity: s, Text: text}
		}
	}
	return Note{Severity: SeverityPlain, Text: line}
}
