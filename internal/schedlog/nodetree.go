package schedlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The NodeTree's records (pkg/scheduler/backend/cache/node_tree.go, V(2)):
// the wording changed across releases, the node name and zone key did not.
const (
	// treeAdded and treeRemoved are v1.36's logger.V(2).Info messages
	// ("node" is klog.KObj(node), "zone" the zone key).
	treeAdded   = "Added node to NodeTree"
	treeRemoved = "Removed node from NodeTree"
	// treeAddedGroup and treeRemovedGroup are the earlier structured
	// messages (klog.InfoS), with the same keys.
	treeAddedGroup   = "Added node in listed group to NodeTree"
	treeRemovedGroup = "Removed node in listed group from NodeTree"
)

// NodeTreeLog is a running kube-scheduler's NodeTree as its log tells it:
// the "Added node …"/"Removed node …" records it writes at -v=2 or more,
// replayed from its last start.
type NodeTreeLog struct {
	Encoding Encoding
	// Version is the scheduler's version from its last "Starting
	// Kubernetes Scheduler" line, "" when the log has none.
	Version string
	// StartLine is the 1-based line of the last start, 0 when the log has
	// none: then it may begin after the start, and the nodes added before
	// are missing.
	StartLine int
	// Starts counts the starts in the log; each one empties the tree.
	Starts int
	// Records counts the records replayed since the last start.
	Records int
	// Zones are the tree's zones in its order (the order each zone was
	// first added, a zone emptied and added again going last), each with
	// its node names in the order they were added.
	Zones []TreeZone
	// Unknown are the names removed without having been added since the
	// start (the log begins after the start, or lost lines), in log order.
	Unknown []string
}

// TreeZone is one zone of the NodeTree: its zone key (region + ":\x00:" +
// zone, as component-helpers' GetZoneKey makes it; "" for no zone) and
// its node names in order.
type TreeZone struct {
	Key   string
	Nodes []string
}

// Order is the NodeTree's list order (kube-scheduler v1.20+ nodeTree.list,
// and the v1.18–v1.19 Next() from fresh cursors): round r takes the r-th
// name of each zone that has one, zones in tree order.
func (t *NodeTreeLog) Order() []string {
	var out []string
	for round := 0; ; round++ {
		emitted := false
		for _, z := range t.Zones {
			if round < len(z.Nodes) {
				out = append(out, z.Nodes[round])
				emitted = true
			}
		}
		if !emitted {
			return out
		}
	}
}

// Zone returns the zone key the log last gave name, and whether the tree
// holds name.
func (t *NodeTreeLog) Zone(name string) (string, bool) {
	for _, z := range t.Zones {
		for _, n := range z.Nodes {
			if n == name {
				return z.Key, true
			}
		}
	}
	return "", false
}

// NoNodeTreeError means the log holds no NodeTree record.
type NoNodeTreeError struct {
	// Lines is the number of lines read.
	Lines int
}

func (e *NoNodeTreeError) Error() string {
	return fmt.Sprintf("no %q record in %d lines: kube-scheduler writes them at -v=2 or more (--v=2), from its start", treeAdded, e.Lines)
}

// ParseNodeTree replays the NodeTree records of a kube-scheduler log (klog
// text or JSON, any release v1.18–v1.36, with or without the timestamps
// `kubectl logs --timestamps` adds): from the last "Starting Kubernetes
// Scheduler" line, each "Added node" appends the node to its zone (a new
// zone going last), each "Removed node" takes it out (an emptied zone
// goes), as kube-scheduler's nodeTree does. The record forms:
//
//   - v1.18–v1.20 Infof: `Added node "a" in group "r:\x00:z" to NodeTree`;
//   - v1.21–v1.3x InfoS: "Added node in listed group to NodeTree" node="a" zone="…";
//   - v1.36 logger.Info: "Added node to NodeTree" node="a" zone="…";
//
// and their "Removed node" twins; with --logging-format=json the same
// messages in "msg", the node as {"name": "a"}.
//
// Errors: *NoNodeTreeError when the log holds no such record, a
// *FormatError naming a record whose node or zone cannot be read, the
// reader's error.
func ParseNodeTree(r io.Reader) (*NodeTreeLog, error) {
	tr := &treeReplay{t: &NodeTreeLog{}}
	sc := bufio.NewReaderSize(r, 1<<16)
	var long []byte
	n := 0
	for {
		chunk, err := sc.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if len(long) > 0 {
			chunk = append(long, chunk...)
			long = long[:0]
		}
		if len(chunk) > 0 {
			n++
			// Most lines are neither: skip them without parsing.
			if bytes.Contains(chunk, []byte("NodeTree")) || bytes.Contains(chunk, []byte(startedMessage)) {
				if ferr := tr.line(n, strings.TrimRight(string(chunk), "\r\n")); ferr != nil {
					return nil, ferr
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if tr.seen == 0 {
		return nil, &NoNodeTreeError{Lines: n}
	}
	return tr.t, nil
}

// treeReplay is ParseNodeTree's state.
type treeReplay struct {
	t    *NodeTreeLog
	seen int // records in the whole log
}

// line handles one line that names the NodeTree or the start.
func (tr *treeReplay) line(n int, s string) error {
	s = stripTimestamp(s)
	var msg, node, zone string
	var err error
	enc := Text
	if strings.HasPrefix(s, "{") {
		enc = JSON
		rec, m, ok := parseJSONRecord(s)
		if !ok {
			return nil
		}
		msg = m
		if isTreeMessage(msg) {
			node, zone, err = jsonNodeZone(rec)
		} else if strings.HasPrefix(msg, startedMessage) {
			tr.start(n, jsonVersion(rec, msg))
			return nil
		}
	} else {
		h, ok := parseKlogHeader(s)
		if !ok {
			return nil
		}
		if m, kvs, ok := structured(h.msg); ok {
			msg = m
			switch {
			case isTreeMessage(msg):
				node, zone, err = textNodeZone(kvs)
			case msg == startedMessage || msg == startedMessage+" version":
				v, _, _ := stringValue(kvs, "version")
				tr.start(n, v)
				return nil
			}
		} else {
			msg = h.msg
			if v, ok := strings.CutPrefix(msg, startedMessage+" version "); ok {
				tr.start(n, strings.TrimSpace(v))
				return nil
			}
		}
	}
	var added bool
	switch msg {
	case treeAdded, treeAddedGroup:
		added = true
	case treeRemoved, treeRemovedGroup:
	default:
		// The Infof form, in a text or JSON record.
		var ok bool
		if node, zone, added, ok = infofNodeZone(msg); !ok {
			return nil
		}
	}
	if err != nil {
		return &FormatError{Line: n, Msg: fmt.Sprintf("a NodeTree record: %v", err)}
	}
	tr.seen++
	tr.t.Records++
	tr.t.Encoding = enc
	if added {
		tr.add(node, zone)
	} else {
		tr.remove(node, zone)
	}
	return nil
}

func isTreeMessage(msg string) bool {
	return msg == treeAdded || msg == treeRemoved || msg == treeAddedGroup || msg == treeRemovedGroup
}

// start empties the tree: a new process builds its own.
func (tr *treeReplay) start(n int, version string) {
	t := tr.t
	t.Version, t.StartLine, t.Starts, t.Records = version, n, t.Starts+1, 0
	t.Zones, t.Unknown = nil, nil
}

// add appends name to zone (new zones last); a name already in the zone
// is left (upstream logs "Did not add", not this record).
func (tr *treeReplay) add(name, zone string) {
	t := tr.t
	for i := range t.Zones {
		if t.Zones[i].Key == zone {
			t.Zones[i].Nodes = append(t.Zones[i].Nodes, name)
			return
		}
	}
	t.Zones = append(t.Zones, TreeZone{Key: zone, Nodes: []string{name}})
}

// remove takes name out of zone, dropping the zone once empty.
func (tr *treeReplay) remove(name, zone string) {
	t := tr.t
	for i := range t.Zones {
		z := &t.Zones[i]
		if z.Key != zone {
			continue
		}
		for j, n := range z.Nodes {
			if n == name {
				z.Nodes = append(z.Nodes[:j], z.Nodes[j+1:]...)
				if len(z.Nodes) == 0 {
					t.Zones = append(t.Zones[:i], t.Zones[i+1:]...)
				}
				return
			}
		}
	}
	t.Unknown = append(t.Unknown, name)
}

// textNodeZone reads node="…" and zone="…" of a structured text record.
func textNodeZone(kvs string) (node, zone string, err error) {
	node, kind, err := stringValue(kvs, "node")
	if err != nil || kind != valueQuoted || node == "" {
		return "", "", errors.New(`no node="…"`)
	}
	zone, kind, err = stringValue(kvs, "zone")
	if err != nil || kind != valueQuoted {
		return "", "", errors.New(`no zone="…"`)
	}
	return node, zone, nil
}

// jsonNodeZone reads "node" ({"name": …} as klog.KObj logs it, or a
// string) and "zone" of a JSON record.
func jsonNodeZone(rec map[string]json.RawMessage) (node, zone string, err error) {
	if s, ok := jsonString(rec, "node"); ok {
		node = s
	} else {
		var ref struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(rec["node"], &ref) == nil {
			node = ref.Name
		}
	}
	if node == "" {
		return "", "", errors.New(`no "node"`)
	}
	zone, ok := jsonString(rec, "zone")
	if !ok {
		return "", "", errors.New(`no "zone"`)
	}
	return node, zone, nil
}

// infofNodeZone reads v1.18–v1.20's `Added node "a" in group "z" to
// NodeTree` and `Removed node "a" in group "z" from NodeTree` (%q).
func infofNodeZone(msg string) (node, zone string, added, ok bool) {
	rest, found := strings.CutPrefix(msg, "Added node ")
	added = found
	if !found {
		if rest, found = strings.CutPrefix(msg, "Removed node "); !found {
			return "", "", false, false
		}
	}
	node, rest, ok1 := quotedPrefix(rest)
	rest, found = strings.CutPrefix(rest, " in group ")
	if !ok1 || !found {
		return "", "", false, false
	}
	zone, rest, ok2 := quotedPrefix(rest)
	want := " from NodeTree"
	if added {
		want = " to NodeTree"
	}
	if !ok2 || rest != want {
		return "", "", false, false
	}
	return node, zone, added, true
}

// quotedPrefix unquotes the Go-quoted string s starts with.
func quotedPrefix(s string) (string, string, bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err == nil
}
