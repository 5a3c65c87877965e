package script

import (
	"errors"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
)

func TestParse(t *testing.T) {
	steps, err := Parse([]byte(`
- op: assume
  pod: web
  node: n1
- op: update
  pod: {metadata: {name: inline}, spec: {containers: [{name: c, resources: {limits: {cpu: 200m}}}]}}
  requests: {cpu: 300m}
- op: advance
  duration: 1m30s
- op: bind
  pod: ns/web
  outcome: lost
- op: addNode
  nodeObject: {metadata: {name: n9}, status: {allocatable: {cpu: "1"}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if a := steps[0].Pod; a.Namespace != "default" || a.Name != "web" || a.Inline != nil || steps[0].Node != "n1" {
		t.Errorf("step 1: %+v %+v", steps[0], a)
	}
	inline := steps[1].Pod.Inline
	if inline == nil || inline.Namespace != "default" || inline.UID != "" {
		t.Fatalf("step 2 inline pod: %+v", steps[1].Pod)
	}
	// Defaulted like a file: the request is copied from the limit.
	if q := inline.Spec.Containers[0].Resources.Requests[v1.ResourceCPU]; q.String() != "200m" {
		t.Errorf("inline pod request %s, want 200m from the limit", q.String())
	}
	if q := steps[1].Requests[v1.ResourceCPU]; q.String() != "300m" {
		t.Errorf("requests %v", steps[1].Requests)
	}
	if steps[2].Duration != 90*time.Second || steps[3].Outcome != Lost || steps[4].NodeObject.Name != "n9" {
		t.Errorf("steps 3-5: %+v %+v %+v", steps[2], steps[3], steps[4])
	}
}

// TestParseErrors: every mistake names the 1-based step (and the op
// once known).
func TestParseErrors(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"not YAML", "- op: [", "script: invalid YAML"},
		{"not a list", "op: assume", "script: want a YAML list of steps"},
		{"empty", "", "script: no steps"},
		{"empty list", "[]", "script: no steps"},
		{"missing op", "- pod: a/b", "script step 1: missing field op"},
		{"unknown op", "- op: cleanup\n- op: assumed\n  pod: a/b", `script step 2: unknown op "assumed" (want one of assume, finishBinding, bind, add, update, forget, remove, advance, cleanup, addNode, updateNode, removeNode)`},
		{"unknown field", "- op: assume\n  pod: a/b\n  nod: x", `script step 1: unknown field "nod"`},
		{"missing pod", "- op: add\n  node: n1", "script step 1 (add): missing field pod"},
		{"missing duration", "- op: advance", "script step 1 (advance): missing field duration"},
		{"bad duration", "- op: advance\n  duration: soon", `script step 1 (advance): invalid duration "soon": want a positive duration such as 31s or 2m`},
		{"negative duration", "- op: advance\n  duration: -1s", `script step 1 (advance): invalid duration "-1s"`},
		{"field not used", "- op: cleanup\n  pod: a/b", "script step 1 (cleanup): field pod is not used by cleanup"},
		{"node not used", "- op: finishBinding\n  pod: a/b\n  node: n1", "script step 1 (finishBinding): field node is not used by finishBinding"},
		{"requests not used", "- op: add\n  pod: a/b\n  requests: {cpu: 1}", "field requests is not used by add"},
		{"outcome not used", "- op: add\n  pod: a/b\n  outcome: lost", "field outcome is not used by add"},
		{"duration not used", "- op: cleanup\n  duration: 1s", "field duration is not used by cleanup"},
		{"nodeObject not used", "- op: assume\n  pod: a/b\n  nodeObject: {metadata: {name: x}}", "field nodeObject is not used by assume"},
		{"node op without node", "- op: removeNode", "script step 1 (removeNode): missing field node (or nodeObject)"},
		{"node and nodeObject", "- op: addNode\n  node: a\n  nodeObject: {metadata: {name: a}}", "give node or nodeObject, not both"},
		{"bad outcome", "- op: bind\n  pod: a/b\n  outcome: maybe", `unknown binding outcome "maybe"`},
		{"bad pod name", "- op: add\n  pod: a/b/c", `pod: invalid pod name "a/b/c"`},
		{"bad pod type", "- op: add\n  pod: 5", "pod: want NAMESPACE/NAME or a Pod manifest"},
		{"inline pod without name", "- op: add\n  pod: {spec: {}}", "pod: inline pod has no metadata.name"},
		{"inline pod unknown field", "- op: add\n  pod: {metadata: {name: x}, spek: {}}", `pod: want NAMESPACE/NAME or a Pod manifest: unknown field "spek"`},
		{"inline node without name", "- op: addNode\n  nodeObject: {status: {}}", "nodeObject: inline node has no metadata.name"},
		{"bad requests", "- op: update\n  pod: a/b\n  requests: {cpu: lots}", "script step 1 (update): requests:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.script))
			var se *Error
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a *Error containing %q", err, tc.want)
			}
		})
	}
}

// TestParseBounds: a script beyond MaxSteps or MaxBytes
// is refused before it is run (or, for the size, parsed).
func TestParseBounds(t *testing.T) {
	step := "- {op: cleanup}\n"
	if _, err := Parse([]byte(strings.Repeat(step, MaxSteps))); err != nil {
		t.Errorf("%d steps: %v", MaxSteps, err)
	}
	_, err := Parse([]byte(strings.Repeat(step, MaxSteps+1)))
	if want := "script: 50001 steps, more than 50000"; err == nil || err.Error() != want {
		t.Errorf("one step more: error %v, want %q", err, want)
	}
	// The same in flow style, counted after parsing.
	_, err = Parse([]byte("[" + strings.Repeat("{op: cleanup}, ", MaxSteps) + "{op: cleanup}]"))
	if want := "script: 50001 steps, more than 50000"; err == nil || err.Error() != want {
		t.Errorf("one step more, flow style: error %v, want %q", err, want)
	}
	// Block items are counted before parsing: a line of "-" alone or
	// followed by a space starts one; "-1" or an indented "-" does not.
	if got := blockItems([]byte("- a\n-\n  - b\n-1\n-\tc\r\n- d")); got != 4 {
		t.Errorf("blockItems %d, want 4", got)
	}
	_, err = Parse([]byte("- {op: cleanup}" + strings.Repeat(" ", MaxBytes)))
	if want := "script: 4194319 bytes, more than the 4 MiB a script may hold (at most 50000 steps)"; err == nil || err.Error() != want {
		t.Errorf("4 MiB and more: error %v, want %q", err, want)
	}
}
