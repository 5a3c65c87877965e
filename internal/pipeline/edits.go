package pipeline

import (
	"fmt"
	"io"

	v1 "k8s.io/api/core/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/whatif"
)

// Edits are the what-if edits: the input → input changes made to the
// loaded cluster before the model is built (whatif.Apply). They stand
// apart from the scenarios that run the scheduler on the result (drain,
// --until-fits, config comparison).
type Edits struct {
	// Edits are the edits of the flags, without the --add-node-file
	// templates (Files), read when applied.
	whatif.Edits
	Files []NodeFile
	// UntilFits keeps the one template (--add-node or --add-node-file)
	// out of the cluster: Input.Template holds it for the search.
	UntilFits bool
}

// EditList are the edits the flags name (whatif.Edits): nodes cordoned,
// uncordoned, removed or copied, pods evicted.
type EditList = whatif.Edits

// NodeCopies is one --add-node TEMPLATE[=COUNT] (whatif.NodeCopies).
type NodeCopies = whatif.NodeCopies

// ParseCopies parses NAME[=COUNT] of --add-node and --add-node-file: the
// name, the count (1 when not given) and whether it was given; an error
// names the value (whatif.ParseCopies).
func ParseCopies(s string) (name string, count int, given bool, err error) {
	return whatif.ParseCopies(s)
}

// NodeFile is one --add-node-file FILE[=COUNT].
type NodeFile struct {
	Name  string
	Count int
}

// Given reports whether there is any edit.
func (e *Edits) Given() bool { return e != nil && (!e.Empty() || len(e.Files) > 0) }

// apply reads the --add-node-file templates (stdin for "-", within
// limits) and applies the edits to c, with a note naming them. Mistakes
// (an unknown node or pod, a bad file) are *UsageError.
func (e *Edits) apply(c *load.Cluster, stdin io.Reader, limits load.Limits, notes *Notes) (*load.Cluster, *whatif.Applied, *whatif.NodeCopies, error) {
	edits := e.Edits
	edits.AddNodes = append([]whatif.NodeCopies(nil), edits.AddNodes...)
	for _, f := range e.Files {
		nodes, err := readNodeFile(f.Name, stdin, limits, notes)
		if err != nil {
			return nil, nil, nil, &UsageError{Err: err}
		}
		for _, n := range nodes {
			edits.AddNodes = append(edits.AddNodes, whatif.NodeCopies{Template: n.Name, Node: n, File: f.Name, Count: f.Count})
		}
	}
	var template *whatif.NodeCopies
	if e.UntilFits {
		t, err := untilFitsTemplate(c, edits.AddNodes, e.Files)
		if err != nil {
			return nil, nil, nil, err
		}
		template, edits.AddNodes = t, nil
	}
	edited, applied, err := whatif.Apply(c, edits)
	if err != nil {
		return nil, nil, nil, &UsageError{Err: err}
	}
	if s := applied.Summary(); s != "" {
		notes.Add(SeverityNote, "what-if: %s", termtext.Line(s))
	}
	return edited, applied, template, nil
}

// untilFitsTemplate is --until-fits' one template node: from its file, or
// the node of c it names.
func untilFitsTemplate(c *load.Cluster, adds []whatif.NodeCopies, files []NodeFile) (*whatif.NodeCopies, error) {
	if len(adds) != 1 {
		return nil, &UsageError{Err: fmt.Errorf("--until-fits needs one template node, --add-node-file %s holds %d", termtext.Line(files[0].Name), len(adds))}
	}
	t := adds[0]
	if t.Node != nil {
		return &t, nil
	}
	for _, n := range c.Nodes {
		if n.Name == t.Template {
			t.Node = n
		}
	}
	if t.Node == nil {
		return nil, &UsageError{Err: fmt.Errorf("--add-node %s: no such node in the input", termtext.Line(t.Template))}
	}
	t.File = ""
	return &t, nil
}

// readNodeFile reads the Nodes of an --add-node-file (with the reader and
// limits of -f); an error names the file when it holds none.
func readNodeFile(name string, stdin io.Reader, limits load.Limits, notes *Notes) ([]*v1.Node, error) {
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{name}, Stdin: stdin, Limits: limits}, notes.Writer())
	if err != nil {
		return nil, fmt.Errorf("--add-node-file %s: %w", termtext.Line(name), err)
	}
	if len(c.Nodes) == 0 {
		return nil, fmt.Errorf("--add-node-file %s: no Node in the file", termtext.Line(name))
	}
	return c.Nodes, nil
}
