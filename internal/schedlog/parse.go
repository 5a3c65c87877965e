package schedlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The messages of the debugger's records.
const (
	nodesMessage   = "Dump of cached NodeInfo"
	queueMessage   = "Dump of scheduling queue"
	startedMessage = "Starting Kubernetes Scheduler"
)

// readMode says how the parser reads the next line.
type readMode int

const (
	// modeRecords: ordinary log records.
	modeRecords readMode = iota
	// modeNodesValue: the tab-indented lines of `nodes=<` (v1.24+ text).
	modeNodesValue
	// modeQueueValue: the tab-indented lines of `pods=<` (v1.24+ text).
	modeQueueValue
	// modeNodeRecordStart: after a header with an empty message inside a
	// per-node dump (≤ v1.23): a node record if "Node name: " follows.
	modeNodeRecordStart
	// modeNodeRecord: the raw lines of one node record (≤ v1.23 text).
	modeNodeRecord
	// modeQueueRecord: the raw pod lines after "Dump of scheduling queue:" (≤ v1.23 text).
	modeQueueRecord
)

// building is the dump being read.
type building struct {
	d      Dump
	blocks blockParser
	// perNode: one record per node (≤ v1.23); structuredHeader: the header
	// was klog.InfoS (v1.23) rather than klog.Info (≤ v1.22).
	perNode, structuredHeader bool
	nodesDone                 bool
}

// parser reads a log line by line, keeping the newest complete dump.
type parser struct {
	n        int // current line number
	mode     readMode
	version  string
	cur      *building
	done     *Dump
	dumps    int
	failed   error // the newest started dump could not be read
	mismatch *Mismatch
	// partial: the last line read had no line break (the log was cut).
	partial bool
}

// Parse reads a kube-scheduler log (klog text or JSON, any release v1.18–
// v1.36, with or without the timestamps `kubectl logs --timestamps` adds) and
// returns its newest complete cache dump with the queue dump that follows
// it. Errors:
//   - *NoDumpError when the log holds no dump;
//   - *FormatError naming the line when the newest dump is truncated,
//     interleaved with another record, or not in a known layout (an older
//     complete dump is never returned in its place);
//   - *UnsupportedVersionError when the log's "Starting Kubernetes
//     Scheduler" line names a release before v1.18;
//   - the reader's error.
func Parse(r io.Reader) (*Dump, error) {
	p := &parser{}
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if len(long) > 0 {
			chunk = append(long, chunk...)
			long = long[:0]
		}
		if len(chunk) > 0 {
			p.partial = chunk[len(chunk)-1] != '\n'
			p.line(string(bytes.TrimSuffix(chunk, []byte("\n"))))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return p.finish()
}

// line handles one input line.
func (p *parser) line(s string) {
	p.n++
	s = stripTimestamp(strings.TrimSuffix(s, "\r"))
	switch p.mode {
	case modeNodesValue, modeQueueValue:
		if p.valueLine(s) {
			return
		}
	case modeNodeRecordStart:
		p.mode = modeRecords
		if strings.HasPrefix(s, nodeNamePrefix) {
			p.mode = modeNodeRecord
			p.blockLine(s)
			return
		}
	case modeNodeRecord:
		if !isRecordStart(s) {
			p.blockLine(s)
			return
		}
		p.endNodeRecord()
	case modeQueueRecord:
		if !isRecordStart(s) {
			p.queuePod(s)
			return
		}
		p.complete(p.n - 1)
	}
	p.record(s)
}

// valueLine reads a line of a multi-line klog value; false means the value
// was broken off and the line must be read as a record.
func (p *parser) valueLine(s string) bool {
	if s == " >" {
		if p.mode == modeNodesValue {
			p.endNodes()
		} else {
			p.complete(p.n)
		}
		return true
	}
	v, ok := strings.CutPrefix(s, "\t")
	if !ok && s != "" { // "" is a blank value line whose tab was stripped
		p.fail("a line of another log record in the middle of the dump (the dump's lines start with a tab until a line \" >\"): %.80q", s)
		return false
	}
	if p.mode == modeNodesValue {
		p.blockLine(v)
	} else if v != "" {
		p.queuePod(v)
	}
	return true
}

// isRecordStart reports a line that starts a new log record.
func isRecordStart(s string) bool {
	if strings.HasPrefix(s, "{") {
		return true
	}
	_, ok := parseKlogHeader(s)
	return ok
}

// record handles a line outside any dump value: a klog text header or a
// JSON record, or anything else (ignored).
func (p *parser) record(s string) {
	if strings.HasPrefix(s, "{") {
		p.jsonLine(s)
		return
	}
	h, ok := parseKlogHeader(s)
	if !ok {
		return
	}
	if msg, kvs, ok := structured(h.msg); ok {
		p.structuredRecord(h.time, msg, kvs)
		return
	}
	switch msg := h.msg; {
	case msg == nodesMessage: // klog.Info, ≤ v1.22
		p.startDump(h.time, Text)
		p.cur.perNode = true
	case msg == "":
		if p.cur != nil && p.cur.perNode && !p.cur.nodesDone {
			p.mode = modeNodeRecordStart
		}
	case msg == queueMessage+":": // Infof("Dump of scheduling queue:\n%s"), ≤ v1.23
		if p.perNodeQueue() {
			p.mode = modeQueueRecord
		}
	case strings.HasPrefix(msg, "cache mismatch: "):
		p.warningfMismatch(msg)
	case strings.HasPrefix(msg, startedMessage+" version "): // Infof, ≤ v1.21
		p.version = strings.TrimSpace(strings.TrimPrefix(msg, startedMessage+" version "))
	}
}

// structuredRecord handles a klog.InfoS / logger.Info text record.
func (p *parser) structuredRecord(time, msg, kvs string) {
	switch msg {
	case nodesMessage:
		p.startDump(time, Text)
		v, kind, err := stringValue(kvs, "nodes")
		switch {
		case err != nil:
			p.fail("%v", err)
		case kind == valueMissing: // klog.InfoS header of v1.23; node records follow
			p.cur.perNode, p.cur.structuredHeader = true, true
		case kind == valueMultiLine:
			p.mode = modeNodesValue
		default:
			p.blockLines(v)
			p.endNodes()
		}
	case queueMessage:
		p.structuredQueue(func(key string) (string, valueKind, error) { return stringValue(kvs, key) })
	case "Cache mismatch", "cache mismatch":
		p.addMismatch(func(keys ...string) ([]string, bool) {
			for _, k := range keys {
				if v, kind, err := stringValue(kvs, k); err == nil && kind != valueMissing {
					return listValue(v), true
				}
			}
			return nil, false
		})
	case startedMessage, startedMessage + " version":
		if v, kind, err := stringValue(kvs, "version"); err == nil && kind == valueQuoted {
			p.version = v
		}
	}
}

// structuredQueue reads the v1.24+ queue record, its values looked up by get.
func (p *parser) structuredQueue(get func(key string) (string, valueKind, error)) {
	if p.cur == nil || !p.cur.nodesDone || p.cur.perNode {
		p.orphanQueue()
		return
	}
	if s, kind, err := get("summary"); err == nil && kind == valueQuoted {
		q := &p.cur.d.Queue
		if _, err := fmt.Sscanf(s, "activeQ:%d; backoffQ:%d; unschedulablePods:%d", &q.ActiveQ, &q.BackoffQ, &q.Unschedulable); err != nil {
			p.fail("bad scheduling queue summary %q", s)
			return
		}
		q.HasSummary = true
	}
	v, kind, err := get("pods")
	switch {
	case err != nil:
		p.fail("%v", err)
	case kind == valueMissing:
		p.fail("the scheduling queue dump has no pods value")
	case kind == valueMultiLine:
		p.mode = modeQueueValue
	default:
		for _, l := range splitLines(v) {
			p.queuePod(l)
		}
		p.complete(p.n)
	}
}

// perNodeQueue starts reading the ≤ v1.23 queue record; false when it
// belongs to no dump.
func (p *parser) perNodeQueue() bool {
	if p.cur == nil || !p.cur.perNode {
		p.orphanQueue()
		return false
	}
	p.cur.nodesDone = true
	return true
}

// orphanQueue handles a queue dump without its node dump: the log starts
// (or a broken dump ended) just before it.
func (p *parser) orphanQueue() {
	if p.cur == nil && p.failed == nil {
		p.failed = &FormatError{Line: p.n, Msg: "a scheduling queue dump without the cache dump before it: the log starts in the middle of a dump (widen --since, or send SIGUSR2 again)"}
	}
}

// startDump begins a new dump at the current line. A dump still open is
// incomplete; as the newest dump wins, its failure no longer matters.
func (p *parser) startDump(time string, enc Encoding) {
	p.failed = nil
	p.cur = &building{d: Dump{Encoding: enc, StartLine: p.n, Time: time, Version: p.version, Mismatch: p.mismatch}}
	p.mismatch = nil
	p.mode = modeRecords
}

// fail records that the dump being read cannot be used, and abandons it.
func (p *parser) fail(format string, args ...any) {
	e := &FormatError{Line: p.n, Msg: fmt.Sprintf(format, args...)}
	if p.cur != nil {
		e.DumpLine = p.cur.d.StartLine
	}
	p.failed = e
	p.cur = nil
	p.mode = modeRecords
}

func (p *parser) blockLine(s string) {
	if p.cur == nil {
		return
	}
	if err := p.cur.blocks.line(s, p.n); err != nil {
		p.fail("%v", err)
	}
}

func (p *parser) blockLines(v string) {
	for _, l := range splitLines(v) {
		if p.cur == nil {
			return
		}
		p.blockLine(l)
	}
}

// endNodes ends the v1.24+ nodes value.
func (p *parser) endNodes() {
	if p.cur == nil {
		return
	}
	if err := p.cur.blocks.finish(); err != nil {
		p.fail("%v", err)
		return
	}
	p.cur.nodesDone = true
	p.mode = modeRecords
}

// endNodeRecord ends one ≤ v1.23 node record, which must hold a whole block.
func (p *parser) endNodeRecord() {
	p.mode = modeRecords
	if p.cur == nil {
		return
	}
	if err := p.cur.blocks.finish(); err != nil {
		p.fail("%v before this line, which starts another log record: the dump is interleaved with another record or cut short", err)
		return
	}
	p.cur.blocks.state, p.cur.blocks.cur = wantName, nil
}

func (p *parser) queuePod(s string) {
	if p.cur == nil {
		return
	}
	pod, err := parsePodLine(s)
	if err != nil {
		p.fail("scheduling queue dump: %v", err)
		return
	}
	p.cur.d.Queue.Pods = append(p.cur.d.Queue.Pods, pod)
}

// complete ends the dump being read at line end.
func (p *parser) complete(end int) {
	p.mode = modeRecords
	if p.cur == nil {
		return
	}
	b := p.cur
	b.d.EndLine = end
	b.d.Nodes = b.blocks.nodes
	b.d.Layout = b.layout()
	p.done = &b.d
	p.dumps++
	p.cur = nil
}

// layout names the releases that write what was read.
func (b *building) layout() Layout {
	switch {
	case !b.perNode && b.d.Queue.HasSummary:
		return LayoutV126
	case !b.perNode:
		return LayoutV124
	case b.structuredHeader:
		return LayoutV123
	case b.blocks.pointers:
		return LayoutV119
	case b.blocks.values:
		return LayoutV118
	}
	return LayoutV118To122
}

// finish ends the input: a dump still open is truncated.
func (p *parser) finish() (*Dump, error) {
	p.n++ // errors point after the last line
	switch {
	case p.partial && (p.cur != nil || p.mode != modeRecords):
		p.n--
		p.fail("the log ends in the middle of a line of the dump")
	case p.mode == modeNodesValue || p.mode == modeQueueValue:
		p.fail("the log ends inside the dump, before its closing \" >\"")
	case p.mode == modeNodeRecord:
		p.endNodeRecord()
	case p.mode == modeQueueRecord:
		// Before v1.24 nothing marks the end of the queue's pod lines.
		p.cur.d.Warnings = append(p.cur.d.Warnings, fmt.Sprintf(
			"the log ends with the scheduling queue dump, which has no end marker before v1.24: if the log was cut, pending pods after line %d are missing", p.n-1))
		p.complete(p.n - 1)
	}
	if p.cur != nil {
		p.fail("the log ends before the scheduling queue dump that follows every cache dump")
	}
	lines := p.n - 1
	if err := checkVersion(p.version); err != nil {
		return nil, err
	}
	if p.failed != nil {
		if p.done != nil {
			return nil, fmt.Errorf("%w; an earlier complete dump is at lines %d–%d (cut the log after it to use it)", p.failed, p.done.StartLine, p.done.EndLine)
		}
		return nil, p.failed
	}
	if p.done == nil {
		return nil, &NoDumpError{Lines: lines, Version: p.version}
	}
	p.done.Dumps = p.dumps
	if note := VersionNote(p.done); note != "" {
		p.done.Warnings = append(p.done.Warnings, note)
	}
	return p.done, nil
}

// splitLines splits a value into lines, without the empty string a final
// line break would add.
func splitLines(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(v, "\n"), "\n")
}
