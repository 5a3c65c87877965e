package framework

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// dumpMessage is the message of the record kube-scheduler logs on SIGUSR2
// with its whole node cache (pkg/scheduler/backend/cache/debugger).
const dumpMessage = "Dump of cached NodeInfo"

// SchedulerResource is the scheduler's framework.Resource as printed (%+v)
// in the dump.
type SchedulerResource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	// ScalarResources is nil when the scheduler printed an empty map.
	ScalarResources map[string]int64
}

// SchedulerPod is one pod line of the dump.
type SchedulerPod struct {
	Name, Namespace, UID, Phase, NominatedNode string
}

// SchedulerNode is one NodeInfo of the scheduler's cache as dumped.
type SchedulerNode struct {
	Name string
	// Deleted is true when the NodeInfo has no Node object: the node was
	// deleted while pods were still on it, or pods arrived before the node.
	Deleted     bool
	Requested   SchedulerResource
	Allocatable SchedulerResource
	// Pods are the pods the cache has on the node (bound and assumed).
	Pods []SchedulerPod
	// NominatedPods are the queue's pods nominated to the node, if any.
	NominatedPods []SchedulerPod
}

// ParseCacheDump parses a "Dump of cached NodeInfo" log record (as returned
// by Scheduler.DumpCache) into nodes keyed by name.
//
// kube-scheduler v1.36.3 logs in klog's text format, which prints a string
// value holding line breaks (as the dump always does when a node exists) as
// `nodes=<`, then each line of the value prefixed by a tab, then a line ` >`
// (see testdata/scheduler-dump-v1.36.3.log). A value without line breaks
// (the empty cache) is Go-quoted: `nodes=""`. Both are accepted, and so is
// a record of the JSON logging format (--logging-format=json).
func ParseCacheDump(record string) (map[string]SchedulerNode, error) {
	value, err := dumpValue(record)
	if err != nil {
		return nil, err
	}
	return parseNodeBlocks(value)
}

// dumpValue extracts the (unescaped) string value of the record's nodes key.
func dumpValue(record string) (string, error) {
	trimmed := strings.TrimSpace(record)
	if strings.HasPrefix(trimmed, "{") {
		var entry struct {
			Msg   string  `json:"msg"`
			Nodes *string `json:"nodes"`
		}
		if err := json.Unmarshal([]byte(trimmed), &entry); err != nil {
			return "", fmt.Errorf("cache dump: bad JSON record: %w", err)
		}
		if entry.Msg != dumpMessage || entry.Nodes == nil {
			return "", fmt.Errorf("cache dump: JSON record is not a %q record with nodes", dumpMessage)
		}
		return *entry.Nodes, nil
	}

	header := strconv.Quote(dumpMessage) + " "
	i := strings.Index(record, header)
	if i < 0 {
		return "", fmt.Errorf("cache dump: no %s in record", header)
	}
	rest := record[i+len(header):]
	// klog writes key=value pairs after the message; this record has only
	// "nodes", but skip any other key that a later version might add.
	for !strings.HasPrefix(rest, "nodes=") {
		sp := strings.IndexByte(rest, ' ')
		if sp < 0 || strings.HasPrefix(rest, "\n") {
			return "", errors.New("cache dump: no nodes= value in record")
		}
		rest = rest[sp+1:]
	}
	rest = rest[len("nodes="):]

	switch {
	case strings.HasPrefix(rest, `"`):
		// A value without line breaks is printed with strconv.Quote: take
		// the quoted token (up to the first unescaped quote) and unquote it.
		end := 1
		for end < len(rest) && rest[end] != '"' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			return "", errors.New("cache dump: unterminated quoted nodes value")
		}
		v, err := strconv.Unquote(rest[:end+1])
		if err != nil {
			return "", fmt.Errorf("cache dump: bad quoted nodes value: %w", err)
		}
		return v, nil
	case strings.HasPrefix(rest, "<\n"):
		// A multi-line value: each line is prefixed with a tab and the block
		// ends with a line " >". The value's own final line break is implied.
		var b strings.Builder
		for _, line := range strings.Split(rest[len("<\n"):], "\n") {
			if line == " >" {
				return b.String(), nil
			}
			if !strings.HasPrefix(line, "\t") {
				return "", fmt.Errorf("cache dump: line %q of the nodes block is not tab-indented", line)
			}
			b.WriteString(line[1:])
			b.WriteByte('\n')
		}
		return "", errors.New("cache dump: nodes block has no closing \" >\"")
	default:
		return "", fmt.Errorf("cache dump: unexpected nodes value %.40q", rest)
	}
}
