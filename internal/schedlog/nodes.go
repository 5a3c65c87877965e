package schedlog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// The lines of one node block, as CacheDumper.printNodeInfo and printPod
// write them in every release v1.18–v1.36 (debugger/dumper.go).
const (
	nodeNamePrefix    = "Node name: "
	deletedPrefix     = "Deleted: "
	requestedPrefix   = "Requested Resources: "
	allocatablePrefix = "Allocatable Resources:" // no blank: the dumper has none
	scheduledPrefix   = "Scheduled Pods(number: "
	nominatedPrefix   = "Nominated Pods(number: "
	countSuffix       = "):"
	podPrefix         = "name: "
)

// blockState is what the node block parser expects next.
type blockState int

const (
	wantName blockState = iota
	wantDeleted
	wantRequested
	wantAllocatable
	wantScheduled
	inPods      // reading the scheduled pod lines
	afterPods   // nominated header, blank line or next node
	inNominated // reading the nominated pod lines
)

var expected = map[blockState]string{
	wantName:        `"Node name: …"`,
	wantDeleted:     `"Deleted: …"`,
	wantRequested:   `"Requested Resources: …"`,
	wantAllocatable: `"Allocatable Resources:…"`,
	wantScheduled:   `"Scheduled Pods(number: N):"`,
}

// blockParser reads node blocks line by line. It is strict about the order
// of the lines and the pod counts, so that a line of another record in the
// middle of a dump, or a dump cut short, is an error instead of a silently
// smaller dump.
type blockParser struct {
	nodes []Node
	cur   *Node
	state blockState
	// left is the number of pod lines still expected in the current list.
	left int
	// pointers records how resources were printed: "&{" (v1.19+) or "{" (v1.18).
	pointers, values bool
}

// line consumes one line of node blocks; n is its input line number.
func (b *blockParser) line(s string, n int) error {
	switch b.state {
	case wantName:
		if s == "" && b.cur == nil {
			return nil // blank lines between blocks
		}
		name, ok := strings.CutPrefix(s, nodeNamePrefix)
		if !ok {
			return b.unexpected(s)
		}
		b.nodes = append(b.nodes, Node{Name: name, Line: n})
		b.cur = &b.nodes[len(b.nodes)-1]
		b.state = wantDeleted
		return nil
	case wantDeleted:
		v, ok := strings.CutPrefix(s, deletedPrefix)
		if !ok {
			return b.unexpected(s)
		}
		d, err := strconv.ParseBool(v)
		if err != nil {
			return errorf("node %s: Deleted is %q, not true or false", b.cur.Name, v)
		}
		b.cur.Deleted = d
		b.state = wantRequested
		return nil
	case wantRequested, wantAllocatable:
		return b.resource(s)
	case wantScheduled:
		v, ok := strings.CutPrefix(s, scheduledPrefix)
		if !ok {
			return b.unexpected(s)
		}
		return b.count(v, inPods)
	case inPods, inNominated:
		return b.pod(s)
	case afterPods:
		return b.afterPods(s, n)
	}
	return nil
}

func (b *blockParser) resource(s string) error {
	prefix, dst := requestedPrefix, &b.cur.Requested
	if b.state == wantAllocatable {
		prefix, dst = allocatablePrefix, &b.cur.Allocatable
	}
	v, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return b.unexpected(s)
	}
	r, pointer, err := parseResource(v)
	if err != nil {
		return errorf("node %s: %s %v", b.cur.Name, strings.TrimSpace(prefix), err)
	}
	b.pointers = b.pointers || pointer
	b.values = b.values || !pointer
	*dst = r
	b.state++
	return nil
}

func (b *blockParser) count(v string, next blockState) error {
	num, ok := strings.CutSuffix(v, countSuffix)
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 {
		return errorf("node %s: bad pod count %q", b.cur.Name, v)
	}
	b.left = n
	b.state = next
	if n == 0 {
		b.state = afterPods
	}
	return nil
}

func (b *blockParser) pod(s string) error {
	if !strings.HasPrefix(s, podPrefix) {
		return errorf("node %s: %s expected, found %.60q", b.cur.Name, podLinesLeft(b.left), s)
	}
	p, err := parsePodLine(s)
	if err != nil {
		return errorf("node %s: %v", b.cur.Name, err)
	}
	if b.state == inPods {
		b.cur.Pods = append(b.cur.Pods, p)
	} else {
		b.cur.NominatedPods = append(b.cur.NominatedPods, p)
	}
	if b.left--; b.left == 0 {
		b.state = afterPods
	}
	return nil
}

func (b *blockParser) afterPods(s string, n int) error {
	switch {
	case s == "":
		b.cur = nil
		b.state = wantName
		return nil
	case strings.HasPrefix(s, nominatedPrefix):
		if b.cur.NominatedPods != nil {
			return errorf("node %s: a second %q line", b.cur.Name, "Nominated Pods")
		}
		b.cur.NominatedPods = []Pod{}
		return b.count(strings.TrimPrefix(s, nominatedPrefix), inNominated)
	case strings.HasPrefix(s, nodeNamePrefix):
		b.state = wantName
		b.cur = nil
		return b.line(s, n)
	case strings.HasPrefix(s, podPrefix):
		return errorf("node %s: more pod lines than its count says", b.cur.Name)
	}
	return b.unexpected(s)
}

// unexpected describes a line that does not fit the block.
func (b *blockParser) unexpected(s string) error {
	what := fmt.Sprintf("expected %s", expected[b.state])
	if b.cur != nil {
		what = fmt.Sprintf("node %s: %s", b.cur.Name, what)
	}
	return errorf("%s, found %.60q", what, s)
}

// finish checks that the last block is complete: every counted pod line read.
func (b *blockParser) finish() error {
	switch b.state {
	case wantName, afterPods:
		return nil
	case inPods, inNominated:
		return errorf("node %s: %s expected", b.cur.Name, podLinesLeft(b.left))
	}
	return errorf("node %s: block ends before %s", b.cur.Name, expected[b.state])
}

// parsePodLine parses "name: N, namespace: NS, uid: U, phase: P, nominated
// node: NN". Names, namespaces, UIDs, phases and node names never contain
// ", ". A line whose trailing blank was stripped ("nominated node:") is
// accepted.
func parsePodLine(line string) (Pod, error) {
	var p Pod
	rest, ok := strings.CutPrefix(line, podPrefix)
	if !ok {
		return p, errorf("expected a pod line %q, found %.60q", "name: …, namespace: …", line)
	}
	if strings.HasSuffix(rest, ", nominated node:") {
		rest += " "
	}
	fields := []struct {
		sep string
		dst *string
	}{
		{", namespace: ", &p.Name},
		{", uid: ", &p.Namespace},
		{", phase: ", &p.UID},
		{", nominated node: ", &p.Phase},
	}
	for _, f := range fields {
		before, after, ok := strings.Cut(rest, f.sep)
		if !ok {
			return p, errorf("pod line %.60q lacks %q", line, strings.TrimPrefix(f.sep, ", "))
		}
		*f.dst, rest = before, after
	}
	p.NominatedNode = rest
	return p, nil
}

// parseResource parses the %+v of a framework.Resource: "&{MilliCPU:100
// Memory:2048 EphemeralStorage:0 AllowedPodNumber:0
// ScalarResources:map[example.com/gpu:1]}" (a pointer, v1.19+) or the same
// without "&" (a value, v1.18). Resource names are qualified names, so they
// hold neither blanks nor ':', and a map entry splits at its last ':'.
func parseResource(s string) (Resource, bool, error) {
	var r Resource
	body, pointer := strings.CutPrefix(s, "&")
	body, ok := strings.CutPrefix(body, "{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return r, false, errorf("%.60q is not {…}", s)
	}
	if i := strings.Index(body, "ScalarResources:map["); i >= 0 {
		entries, ok := strings.CutSuffix(body[i+len("ScalarResources:map["):], "]")
		if !ok {
			return r, false, errorf("%.60q: ScalarResources is not last", s)
		}
		body = body[:i]
		for _, e := range strings.Fields(entries) {
			c := strings.LastIndexByte(e, ':')
			v, err := strconv.ParseInt(e[c+1:], 10, 64)
			if c <= 0 || err != nil {
				return r, false, errorf("bad scalar resource %q", e)
			}
			if r.ScalarResources == nil {
				r.ScalarResources = map[string]int64{}
			}
			r.ScalarResources[e[:c]] = v
		}
	}
	seen := 0
	for _, f := range strings.Fields(body) {
		key, val, _ := strings.Cut(f, ":")
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return r, false, errorf("bad field %q", f)
		}
		switch key {
		case "MilliCPU":
			r.MilliCPU = v
		case "Memory":
			r.Memory = v
		case "EphemeralStorage":
			r.EphemeralStorage = v
		case "AllowedPodNumber":
			r.AllowedPodNumber = v
		default:
			return r, false, errorf("unknown field %q", key)
		}
		seen++
	}
	if seen != 4 {
		return r, false, errorf("%.60q lacks fields", s)
	}
	return r, pointer, nil
}

func podLinesLeft(n int) string {
	if n == 1 {
		return "1 more pod line"
	}
	return termtext.Count(n, "more pod line")
}
