package framework

import (
	"fmt"
	"strconv"
	"strings"
)

// Line prefixes of one node block, as printed by the scheduler's
// CacheDumper.printNodeInfo and printPod (v1.24+).
const (
	nodeNamePrefix    = "Node name: "
	deletedPrefix     = "Deleted: "
	requestedPrefix   = "Requested Resources:" // followed by a space
	allocatablePrefix = "Allocatable Resources:"
	scheduledPrefix   = "Scheduled Pods(number: "
	nominatedPrefix   = "Nominated Pods(number: "
	podPrefix         = "name: "
)

// parseNodeBlocks parses the unescaped nodes value: node blocks separated by
// blank lines, in random order. It is strict: an unknown line or a pod
// count that does not match the pod lines is an error, so a format change
// in a new scheduler release is noticed instead of silently misread.
func parseNodeBlocks(value string) (map[string]SchedulerNode, error) {
	nodes := map[string]SchedulerNode{}
	var cur *SchedulerNode
	var pods *[]SchedulerPod // the list pod lines go to
	var want map[*[]SchedulerPod]int

	finish := func() error {
		if cur == nil {
			return nil
		}
		for list, n := range want {
			if len(*list) != n {
				return fmt.Errorf("cache dump: node %s: header says %d pods, found %d", cur.Name, n, len(*list))
			}
		}
		if _, dup := nodes[cur.Name]; dup {
			return fmt.Errorf("cache dump: node %s listed twice", cur.Name)
		}
		nodes[cur.Name] = *cur
		cur, pods, want = nil, nil, nil
		return nil
	}

	for i, line := range strings.Split(value, "\n") {
		fail := func(err error) error { return fmt.Errorf("cache dump: line %d %q: %w", i+1, line, err) }
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, nodeNamePrefix) {
			if err := finish(); err != nil {
				return nil, err
			}
			cur = &SchedulerNode{Name: strings.TrimPrefix(line, nodeNamePrefix)}
			want = map[*[]SchedulerPod]int{}
			continue
		}
		if cur == nil {
			return nil, fail(fmt.Errorf("expected %q", nodeNamePrefix))
		}
		var err error
		switch {
		case strings.HasPrefix(line, deletedPrefix):
			cur.Deleted, err = strconv.ParseBool(strings.TrimPrefix(line, deletedPrefix))
		case strings.HasPrefix(line, requestedPrefix):
			cur.Requested, err = parseResource(strings.TrimPrefix(line, requestedPrefix))
		case strings.HasPrefix(line, allocatablePrefix):
			cur.Allocatable, err = parseResource(strings.TrimPrefix(line, allocatablePrefix))
		case strings.HasPrefix(line, scheduledPrefix):
			pods = &cur.Pods
			want[pods], err = parseCount(strings.TrimPrefix(line, scheduledPrefix))
		case strings.HasPrefix(line, nominatedPrefix):
			pods = &cur.NominatedPods
			want[pods], err = parseCount(strings.TrimPrefix(line, nominatedPrefix))
		case strings.HasPrefix(line, podPrefix):
			if pods == nil {
				return nil, fail(fmt.Errorf("pod line before a pod count line"))
			}
			var p SchedulerPod
			p, err = parsePodLine(line)
			*pods = append(*pods, p)
		default:
			err = fmt.Errorf("unknown line")
		}
		if err != nil {
			return nil, fail(err)
		}
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return nodes, nil
}

// parseCount parses the "N):" that ends a pod count line.
func parseCount(s string) (int, error) {
	n, ok := strings.CutSuffix(s, "):")
	if !ok {
		return 0, fmt.Errorf("pod count line does not end with \"):\"")
	}
	return strconv.Atoi(n)
}

// parsePodLine parses
// "name: N, namespace: NS, uid: U, phase: P, nominated node: NN". Names,
// namespaces, UIDs, phases and node names never contain ", ".
func parsePodLine(line string) (SchedulerPod, error) {
	var p SchedulerPod
	rest := strings.TrimPrefix(line, podPrefix)
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
			return p, fmt.Errorf("pod line lacks %q", strings.TrimPrefix(f.sep, ", "))
		}
		*f.dst, rest = before, after
	}
	p.NominatedNode = rest
	return p, nil
}

// parseResource parses the %+v of a *framework.Resource, e.g.
// "&{MilliCPU:100 Memory:2048 EphemeralStorage:0 AllowedPodNumber:0
// ScalarResources:map[example.com/gpu:1]}". Resource names are qualified
// names, so they hold neither spaces nor ':' and a map entry splits at its
// last ':'.
func parseResource(s string) (SchedulerResource, error) {
	s = strings.TrimSpace(s)
	var r SchedulerResource
	if s == "<nil>" {
		return r, nil
	}
	body, ok := strings.CutPrefix(s, "&{")
	if ok {
		body, ok = strings.CutSuffix(body, "}")
	}
	if !ok {
		return r, fmt.Errorf("resource %q is not &{...}", s)
	}
	const scalarKey = "ScalarResources:map["
	if i := strings.Index(body, scalarKey); i >= 0 {
		entries, ok := strings.CutSuffix(body[i+len(scalarKey):], "]")
		if !ok {
			return r, fmt.Errorf("resource %q: ScalarResources map is not last", s)
		}
		body = body[:i]
		r.ScalarResources = map[string]int64{}
		for _, e := range strings.Fields(entries) {
			c := strings.LastIndexByte(e, ':')
			if c <= 0 {
				return r, fmt.Errorf("resource %q: bad scalar entry %q", s, e)
			}
			v, err := strconv.ParseInt(e[c+1:], 10, 64)
			if err != nil {
				return r, fmt.Errorf("resource %q: scalar %q: %w", s, e, err)
			}
			r.ScalarResources[e[:c]] = v
		}
		if len(r.ScalarResources) == 0 {
			r.ScalarResources = nil // as for a resource printed with map[]: easy to compare
		}
	}
	for _, f := range strings.Fields(body) {
		key, val, ok := strings.Cut(f, ":")
		if !ok {
			return r, fmt.Errorf("resource %q: bad field %q", s, f)
		}
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return r, fmt.Errorf("resource %q: field %s: %w", s, key, err)
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
			return r, fmt.Errorf("resource %q: unknown field %s", s, key)
		}
	}
	return r, nil
}
