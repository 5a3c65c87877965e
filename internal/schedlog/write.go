package schedlog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// WriteOptions configure Write.
type WriteOptions struct {
	// Layout and Encoding choose the format; the zero values mean
	// LayoutV126 and Text.
	Layout   Layout
	Encoding Encoding
	// Time is the klog header time, "mmdd hh:mm:ss.uuuuuu"; default
	// "0101 00:00:00.000000". JSON records get the matching "ts" of 2000.
	Time string
	// PID is the thread id in klog headers; default 1.
	PID int
}

// Write renders d's node dump and queue dump the way kube-scheduler logs
// them in opts.Layout (see the package documentation): the same records,
// messages, key order and klog quoting, so that Parse reads it back. The
// Mismatch, Version and line fields of d are not written. Tests and
// benchmarks use it to produce scheduler logs of any size from our own model.
func Write(w io.Writer, d *Dump, opts WriteOptions) error {
	if opts.Layout == "" {
		opts.Layout = LayoutV126
	}
	if opts.Encoding == "" {
		opts.Encoding = Text
	}
	if opts.Time == "" {
		opts.Time = "0101 00:00:00.000000"
	}
	if opts.PID == 0 {
		opts.PID = 1
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	lw := &logWriter{w: bw, opts: opts, pointers: opts.Layout != LayoutV118}
	switch opts.Layout {
	case LayoutV124, LayoutV126:
		lw.structured(d)
	case LayoutV118, LayoutV119, LayoutV118To122, LayoutV123:
		lw.perNode(d)
	default:
		return fmt.Errorf("unknown layout %q", opts.Layout)
	}
	if lw.err != nil {
		return lw.err
	}
	return bw.Flush()
}

type logWriter struct {
	w        *bufio.Writer
	opts     WriteOptions
	pointers bool
	err      error
}

// record writes one log record: msg (already quoted for structured text
// records) and, in text, the key/value text kvs; in JSON, the values.
func (lw *logWriter) record(caller, msg string, kvs []string) {
	if lw.err != nil {
		return
	}
	if lw.opts.Encoding == JSON {
		lw.jsonRecord(caller, msg, kvs)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "I%s %7d %s] %s", lw.opts.Time, lw.opts.PID, caller, msg)
	for i := 0; i+1 < len(kvs); i += 2 {
		b.WriteByte(' ')
		b.WriteString(kvs[i])
		writeKlogString(&b, kvs[i+1])
	}
	if s := b.String(); !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	_, lw.err = lw.w.WriteString(b.String())
}

// writeKlogString renders a string value as klog's text format does since
// v2.60: quoted without line breaks, else `=<`, tab-indented lines, " >".
func writeKlogString(b *strings.Builder, v string) {
	if !strings.Contains(v, "\n") {
		b.WriteByte('=')
		b.WriteString(strconv.Quote(v))
		return
	}
	b.WriteString("=<\n")
	rest := v
	for {
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		b.WriteByte('\t')
		b.WriteString(rest[:i+1])
		rest = rest[i+1:]
	}
	if rest != "" {
		b.WriteByte('\t')
		b.WriteString(rest)
		b.WriteByte('\n')
	}
	b.WriteString(" >")
}

func (lw *logWriter) jsonRecord(caller, msg string, kvs []string) {
	if m, _, ok := structured(msg); ok {
		msg = m
	}
	var b strings.Builder
	ts := 946684800000.0 // 2000-01-01T00:00:00Z in milliseconds
	fmt.Fprintf(&b, `{"ts":%.3f,"caller":%q,"msg":`, ts, "debugger/"+caller)
	writeJSONString(&b, msg)
	b.WriteString(`,"v":0`)
	for i := 0; i+1 < len(kvs); i += 2 {
		fmt.Fprintf(&b, ",%q:", kvs[i])
		writeJSONString(&b, kvs[i+1])
	}
	b.WriteString("}\n")
	_, lw.err = lw.w.WriteString(b.String())
}

func writeJSONString(b *strings.Builder, s string) {
	data, _ := json.Marshal(s) // a string always marshals
	b.Write(data)
}

// structured writes the v1.24+ records: the nodes joined by a blank line,
// then the queue.
func (lw *logWriter) structured(d *Dump) {
	blocks := make([]string, len(d.Nodes))
	for i := range d.Nodes {
		blocks[i] = lw.block(&d.Nodes[i])
	}
	lw.record("dumper.go:52", strconv.Quote(nodesMessage), []string{"nodes", strings.Join(blocks, "\n\n")})
	kvs := []string{"pods", podLines(d.Queue.Pods)}
	if lw.opts.Layout == LayoutV126 {
		q := d.Queue
		kvs = append([]string{"summary", fmt.Sprintf("activeQ:%d; backoffQ:%d; unschedulablePods:%d", q.ActiveQ, q.BackoffQ, q.Unschedulable)}, kvs...)
	}
	lw.record("dumper.go:62", strconv.Quote(queueMessage), kvs)
}

// perNode writes the ≤ v1.23 records: a header, one record per node whose
// message starts with a line break, and the queue's Infof record.
func (lw *logWriter) perNode(d *Dump) {
	header := nodesMessage
	if lw.opts.Layout == LayoutV123 {
		header = strconv.Quote(nodesMessage)
	} else if lw.opts.Encoding == JSON {
		header += "\n" // klog.Info ends an unstructured message with a line break
	}
	lw.record("dumper.go:47", header, nil)
	for i := range d.Nodes {
		lw.record("dumper.go:50", "\n"+lw.block(&d.Nodes[i]), nil)
	}
	lw.record("dumper.go:61", queueMessage+":\n"+podLines(d.Queue.Pods), nil)
}

// block renders one NodeInfo as printNodeInfo does.
func (lw *logWriter) block(n *Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s\n%s%t\n%s%s\n%s%s\n%s%d%s\n", nodeNamePrefix, n.Name, deletedPrefix, n.Deleted,
		requestedPrefix, lw.resource(&n.Requested), allocatablePrefix, lw.resource(&n.Allocatable),
		scheduledPrefix, len(n.Pods), countSuffix)
	b.WriteString(podLines(n.Pods))
	if len(n.NominatedPods) > 0 {
		fmt.Fprintf(&b, "%s%d%s\n", nominatedPrefix, len(n.NominatedPods), countSuffix)
		b.WriteString(podLines(n.NominatedPods))
	}
	return b.String()
}

// resource renders %+v of a framework.Resource (a pointer from v1.19).
func (lw *logWriter) resource(r *Resource) string {
	var b strings.Builder
	if lw.pointers {
		b.WriteByte('&')
	}
	fmt.Fprintf(&b, "{MilliCPU:%d Memory:%d EphemeralStorage:%d AllowedPodNumber:%d ScalarResources:map[",
		r.MilliCPU, r.Memory, r.EphemeralStorage, r.AllowedPodNumber)
	names := make([]string, 0, len(r.ScalarResources))
	for name := range r.ScalarResources {
		names = append(names, name)
	}
	sort.Strings(names) // fmt prints map keys sorted
	for i, name := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s:%d", name, r.ScalarResources[name])
	}
	b.WriteString("]}")
	return b.String()
}

func podLines(pods []Pod) string {
	var b strings.Builder
	for _, p := range pods {
		fmt.Fprintf(&b, "%s%s, namespace: %s, uid: %s, phase: %s, nominated node: %s\n", podPrefix, p.Name, p.Namespace, p.UID, p.Phase, p.NominatedNode)
	}
	return b.String()
}
