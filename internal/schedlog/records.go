package schedlog

import (
	"encoding/json"
	"strings"
)

// addMismatch records one "Cache mismatch" record of the scheduler's
// comparer (debugger/comparer.go). get looks a list value up by any of its
// key spellings: "missedNodes" (v1.23+) or "missed nodes" (v1.21–v1.22).
func (p *parser) addMismatch(get func(keys ...string) ([]string, bool)) {
	m := p.mismatchAt()
	if v, ok := get("missedNodes", "missed nodes"); ok {
		m.MissedNodes = v
		m.RedundantNodes, _ = get("redundantNodes", "redundant nodes")
	}
	if v, ok := get("missedPods", "missed pods"); ok {
		m.MissedPods = v
		m.RedundantPods, _ = get("redundantPods", "redundant pods")
	}
}

func (p *parser) mismatchAt() *Mismatch {
	if p.mismatch == nil {
		p.mismatch = &Mismatch{Line: p.n}
	}
	return p.mismatch
}

// warningfMismatch reads the v1.18–v1.20 form, klog.Warningf("cache
// mismatch: missed nodes: %s; redundant nodes: %s") and the same for pods.
func (p *parser) warningfMismatch(msg string) {
	rest := strings.TrimPrefix(msg, "cache mismatch: ")
	for _, what := range []string{"nodes", "pods"} {
		missed, ok := strings.CutPrefix(rest, "missed "+what+": ")
		if !ok {
			continue
		}
		missed, redundant, ok := strings.Cut(missed, "; redundant "+what+": ")
		if !ok {
			return
		}
		m := p.mismatchAt()
		if what == "nodes" {
			m.MissedNodes, m.RedundantNodes = listValue(missed), listValue(redundant)
		} else {
			m.MissedPods, m.RedundantPods = listValue(missed), listValue(redundant)
		}
	}
}

// jsonLine handles a --logging-format=json record. Only lines that can be
// one of the debugger's records are decoded.
func (p *parser) jsonLine(s string) {
	if !strings.Contains(s, "Dump of") && !strings.Contains(s, "Node name: ") &&
		!strings.Contains(s, "ache mismatch") && !strings.Contains(s, startedMessage) {
		return
	}
	m, msg, ok := parseJSONRecord(s)
	if !ok {
		return
	}
	switch {
	case msg == nodesMessage || msg == nodesMessage+"\n":
		p.startDump(jsonTime(m), JSON)
		if v, ok := jsonString(m, "nodes"); ok {
			p.blockLines(v)
			p.endNodes()
			return
		}
		// v1.19–v1.22 klog.Info (which ends the message with a line
		// break) or v1.23 klog.InfoS; one record per node follows.
		p.cur.perNode, p.cur.structuredHeader = true, msg == nodesMessage
	case strings.HasPrefix(msg, "\n"+nodeNamePrefix):
		if p.cur == nil || !p.cur.perNode || p.cur.nodesDone {
			return
		}
		p.blockLines(msg[1:])
		p.endNodeRecord()
	case msg == queueMessage:
		p.structuredQueue(func(key string) (string, valueKind, error) {
			if v, ok := jsonString(m, key); ok {
				return v, valueQuoted, nil
			}
			return "", valueMissing, nil
		})
	case strings.HasPrefix(msg, queueMessage+":\n"):
		if p.perNodeQueue() {
			for _, l := range splitLines(strings.TrimPrefix(msg, queueMessage+":\n")) {
				p.queuePod(l)
			}
			p.complete(p.n)
		}
	case msg == "Cache mismatch" || msg == "cache mismatch":
		p.addMismatch(func(keys ...string) ([]string, bool) {
			for _, k := range keys {
				var v []string
				if raw, ok := m[k]; ok && json.Unmarshal(raw, &v) == nil {
					return v, true
				}
			}
			return nil, false
		})
	case strings.HasPrefix(msg, "cache mismatch: "):
		p.warningfMismatch(strings.TrimSuffix(msg, "\n"))
	case strings.HasPrefix(msg, startedMessage):
		p.version = jsonVersion(m, msg)
	}
}

// jsonVersion finds the version of a "Starting Kubernetes Scheduler" JSON
// record: a string, or version.Info as an object, or in the message (≤ v1.21).
func jsonVersion(m map[string]json.RawMessage, msg string) string {
	if v, ok := jsonString(m, "version"); ok {
		return v
	}
	var info struct {
		GitVersion string `json:"gitVersion"`
	}
	if raw, ok := m["version"]; ok && json.Unmarshal(raw, &info) == nil && info.GitVersion != "" {
		return info.GitVersion
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(msg), startedMessage+" version"))
}
