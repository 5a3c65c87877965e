package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// Help documents the script format; "simulate --help" shows it.
const Help = `A script is a YAML list of steps run in order against the loaded cache.
Each step has an op and the fields that op uses:

  assume         pod, [node]     AssumePod on node; without node, where
                                 kube-scheduler would place it (or unschedulable)
  finishBinding  pod             FinishBinding: starts the TTL of an assumed pod
  bind           pod, [outcome]  FinishBinding, then confirm (add), fail (forget)
                                 or lost (nothing); default: --bind
  add            pod, [node]     AddPod (the Add event), on the pod's node or node
  update         pod, [requests], [node]
                                 UpdatePod; requests set the first container's
                                 requests; node changes the new object's node
  forget         pod, [node]     ForgetPod; node changes the object's node
  remove         pod, [node]     RemovePod (the Delete event)
  advance        duration        move the clock, e.g. 31s (nothing else happens)
  cleanup                        the cleanup loop, once, at the current time
  addNode        node | nodeObject
  updateNode     node | nodeObject
  removeNode     node | nodeObject

pod is NAMESPACE/NAME (NAME alone: namespace default) of a pod given with
--pod-file or --pending, defined inline by an earlier step, or in the input;
or an inline Pod manifest (without metadata.uid, a pod already known by
namespace/name keeps its UID). node names a node of the input or of an
earlier nodeObject; nodeObject is an inline Node manifest. Time moves only
with advance, and pods expire only at cleanup. A mistake in the script
(unknown op, pod or node, bad duration, missing field) stops the run with
exit code 2; errors the cache returns are reported in the timeline. A
script holds at most 50,000 steps and 4 MiB.`

// Script operations.
const (
	OpAssume        = "assume"
	OpFinishBinding = "finishBinding"
	OpBind          = "bind"
	OpAdd           = "add"
	OpUpdate        = "update"
	OpForget        = "forget"
	OpRemove        = "remove"
	OpAdvance       = "advance"
	OpCleanup       = "cleanup"
	OpAddNode       = "addNode"
	OpUpdateNode    = "updateNode"
	OpRemoveNode    = "removeNode"
)

// opSpec says which fields an op takes.
type opSpec struct {
	pod      bool // pod is required
	node     bool // node is optional
	nodeArg  bool // exactly one of node and nodeObject is required
	duration bool // duration is required
	requests bool // requests is optional
	outcome  bool // outcome is optional
}

var opOrder = []string{OpAssume, OpFinishBinding, OpBind, OpAdd, OpUpdate, OpForget, OpRemove,
	OpAdvance, OpCleanup, OpAddNode, OpUpdateNode, OpRemoveNode}

var opSpecs = map[string]opSpec{
	OpAssume:        {pod: true, node: true},
	OpFinishBinding: {pod: true},
	OpBind:          {pod: true, outcome: true},
	OpAdd:           {pod: true, node: true},
	OpUpdate:        {pod: true, node: true, requests: true},
	OpForget:        {pod: true, node: true},
	OpRemove:        {pod: true, node: true},
	OpAdvance:       {duration: true},
	OpCleanup:       {},
	OpAddNode:       {nodeArg: true},
	OpUpdateNode:    {nodeArg: true},
	OpRemoveNode:    {nodeArg: true},
}

// Step is one parsed script step.
type Step struct {
	Op string
	// Pod is set for pod operations.
	Pod *PodArg
	// Node names a node ("" when not given).
	Node string
	// NodeObject is an inline node manifest, defaulted.
	NodeObject *v1.Node
	// Duration is the advance of the clock.
	Duration time.Duration
	// Requests override the first container's requests (update).
	Requests v1.ResourceList
	// Outcome of a bind step; empty: Options.Bind.
	Outcome Outcome
}

// PodArg names a pod, or gives it inline.
type PodArg struct {
	Namespace, Name string
	// Inline is the manifest given inline, defaulted (UID left as given).
	Inline *v1.Pod
}

func (a *PodArg) String() string { return a.Namespace + "/" + a.Name }

// Error is a mistake in a script, as opposed to an error the cache
// returns (which is part of the result). Step is 1-based; 0 for the
// script as a whole.
type Error struct {
	Step int
	Op   string
	Err  error
}

func (e *Error) Error() string {
	switch {
	case e.Step == 0:
		return "script: " + e.Err.Error()
	case e.Op == "":
		return fmt.Sprintf("script step %d: %v", e.Step, e.Err)
	}
	return fmt.Sprintf("script step %d (%s): %v", e.Step, e.Op, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// rawStep is a step as written; unknown fields are rejected.
type rawStep struct {
	Op         string          `json:"op"`
	Pod        json.RawMessage `json:"pod"`
	Node       string          `json:"node"`
	NodeObject json.RawMessage `json:"nodeObject"`
	Duration   string          `json:"duration"`
	Requests   json.RawMessage `json:"requests"`
	Outcome    string          `json:"outcome"`
}

// Bounds of a script, so that parsing, running and printing one as a table
// stays within the hostile-input suite's bounds (1 GiB peak RSS, 20 s of
// CPU; 50,000 advance steps printed as a table and 4 MiB of inline pods
// are measured in docs/PERFORMANCE.md#file-mode): a script is written by
// hand or by a small generator, and 50,000 steps take a few MiB.
const (
	// MaxBytes is the largest script read: 4 MiB.
	MaxBytes = 4 << 20
	// MaxSteps is the most steps a script may hold.
	MaxSteps = 50_000
)

// ErrTooLarge is the error of a script whose reading stopped at
// MaxBytes.
var ErrTooLarge = &Error{Err: fmt.Errorf("more than the %d MiB a script may hold (at most %d steps)", MaxBytes>>20, MaxSteps)}

// Parse parses a YAML (or JSON) list of steps; see Help. Errors
// are *Error naming the step. A script larger than MaxBytes or
// with more than MaxSteps steps is refused.
func Parse(data []byte) ([]Step, error) {
	if len(data) > MaxBytes {
		return nil, &Error{Err: fmt.Errorf("%d bytes, more than the %d MiB a script may hold (at most %d steps)", len(data), MaxBytes>>20, MaxSteps)}
	}
	// A block list (the usual form) is counted before it is parsed, so
	// that too many steps are refused without materializing them; other
	// forms are bounded by the size, and counted after parsing.
	if n := blockItems(data); n > MaxSteps {
		return nil, &Error{Err: fmt.Errorf("%d steps, more than %d", n, MaxSteps)}
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("invalid YAML: %w", err)}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(js, &raws); err != nil {
		return nil, &Error{Err: errors.New("want a YAML list of steps")}
	}
	if len(raws) == 0 {
		return nil, &Error{Err: errors.New("no steps")}
	}
	if len(raws) > MaxSteps {
		return nil, &Error{Err: fmt.Errorf("%d steps, more than %d", len(raws), MaxSteps)}
	}
	steps := make([]Step, len(raws))
	for i, raw := range raws {
		st, err := parseStep(raw)
		if err != nil {
			return nil, &Error{Step: i + 1, Op: st.Op, Err: err}
		}
		steps[i] = st
	}
	return steps, nil
}

// blockItems counts the lines that start an item of a top-level YAML block
// list ("-" in the first column, then a space or the end of the line).
func blockItems(data []byte) int {
	n := 0
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > 0 && line[0] == '-' && (len(line) == 1 || line[1] == ' ' || line[1] == '\t') {
			n++
		}
	}
	return n
}

// parseStep returns the step, with Op set as soon as it is known so that
// errors can name it.
func parseStep(raw json.RawMessage) (Step, error) {
	var r rawStep
	if err := strictUnmarshal(raw, &r); err != nil {
		return Step{}, err
	}
	if r.Op == "" {
		return Step{}, errors.New("missing field op")
	}
	spec, ok := opSpecs[r.Op]
	if !ok {
		return Step{}, fmt.Errorf("unknown op %q (want one of %s)", r.Op, strings.Join(opOrder, ", "))
	}
	st := Step{Op: r.Op, Node: r.Node}
	if err := checkFields(&r, spec); err != nil {
		return st, err
	}
	var err error
	if given(r.Pod) {
		if st.Pod, err = parsePodArg(r.Pod); err != nil {
			return st, fmt.Errorf("pod: %w", err)
		}
	}
	if given(r.NodeObject) {
		if st.NodeObject, err = parseNode(r.NodeObject); err != nil {
			return st, fmt.Errorf("nodeObject: %w", err)
		}
	}
	if r.Duration != "" {
		if st.Duration, err = time.ParseDuration(r.Duration); err != nil || st.Duration <= 0 {
			return st, fmt.Errorf("invalid duration %q: want a positive duration such as 31s or 2m", r.Duration)
		}
	}
	if given(r.Requests) {
		if err := strictUnmarshal(r.Requests, &st.Requests); err != nil {
			return st, fmt.Errorf("requests: %w", err)
		}
	}
	if r.Outcome != "" {
		if st.Outcome, err = ParseOutcome(r.Outcome); err != nil {
			return st, err
		}
	}
	return st, nil
}

// checkFields enforces spec: required fields present, others absent.
func checkFields(r *rawStep, spec opSpec) error {
	unused := func(field string) error { return fmt.Errorf("field %s is not used by %s", field, r.Op) }
	switch {
	case spec.pod && !given(r.Pod):
		return errors.New("missing field pod")
	case !spec.pod && given(r.Pod):
		return unused("pod")
	case spec.duration && r.Duration == "":
		return errors.New("missing field duration")
	case !spec.duration && r.Duration != "":
		return unused("duration")
	case !spec.node && !spec.nodeArg && r.Node != "":
		return unused("node")
	case !spec.nodeArg && given(r.NodeObject):
		return unused("nodeObject")
	case spec.nodeArg && r.Node != "" && given(r.NodeObject):
		return errors.New("give node or nodeObject, not both")
	case spec.nodeArg && r.Node == "" && !given(r.NodeObject):
		return errors.New("missing field node (or nodeObject)")
	case !spec.requests && given(r.Requests):
		return unused("requests")
	case !spec.outcome && r.Outcome != "":
		return unused("outcome")
	}
	return nil
}

func given(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// strictUnmarshal decodes JSON, rejecting unknown fields, with errors
// free of the "json: " prefix.
func strictUnmarshal(data []byte, into any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// parsePodArg reads "namespace/name", "name", or an inline Pod manifest,
// defaulted as a pod read from a file is, by the same function
// (load.DefaultFilePod); the UID is chosen when the step runs.
func parsePodArg(raw json.RawMessage) (*PodArg, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		return parsePodName(name)
	}
	pod := &v1.Pod{}
	if err := strictUnmarshal(raw, pod); err != nil {
		return nil, fmt.Errorf("want NAMESPACE/NAME or a Pod manifest: %w", err)
	}
	if pod.Name == "" {
		return nil, errors.New("inline pod has no metadata.name")
	}
	load.DefaultFilePod(pod)
	return &PodArg{Namespace: pod.Namespace, Name: pod.Name, Inline: pod}, nil
}

func parsePodName(s string) (*PodArg, error) {
	ns, name, ok := strings.Cut(s, "/")
	if !ok {
		ns, name = v1.NamespaceDefault, s
	}
	if ns == "" || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("invalid pod name %q: want NAMESPACE/NAME or NAME", s)
	}
	return &PodArg{Namespace: ns, Name: name}, nil
}

func parseNode(raw json.RawMessage) (*v1.Node, error) {
	node := &v1.Node{}
	if err := strictUnmarshal(raw, node); err != nil {
		return nil, fmt.Errorf("want a Node manifest: %w", err)
	}
	if node.Name == "" {
		return nil, errors.New("inline node has no metadata.name")
	}
	load.DefaultNode(node)
	return node, nil
}
