package script

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the script parser and checks
// what must hold for any input: no panic, no hang; a failure is a
// *Error; a success has at least one step, each with a known op and
// a positive duration for advance. `make fuzz` runs it for a fixed time;
// the seeds are the script shapes of the hostile-input suite, small.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"- op: assume\n  pod: default/p\n  node: n1\n- op: advance\n  duration: 31s\n- op: cleanup\n",
		`[{"op": "add", "pod": {"metadata": {"name": "p"}, "spec": {"nodeName": "n"}}}]`,
		"- op: addNode\n  nodeObject: {metadata: {name: n}}\n- op: removeNode\n  node: n\n",
		"- op: update\n  pod: p\n  requests: {cpu: 1e30}\n",
		"- op: bind\n  pod: p\n  outcome: lost\n",
		"- op: advance\n  duration: 2562047h\n- op: advance\n  duration: 2562047h\n",
		"- op: advance\n  duration: 9999999999h\n",
		"- op: advance\n  duration: -1s\n",
		"- op: assume\n  pod: \"\\e]52;c;aGk=\\a\\n\\u009b31m\"\n",
		"- op: nope\n",
		"- {op: assume, pod: a/b/c}\n",
		"- op: assume\n  op: forget\n  pod: p\n",
		"[]",
		"{}",
		"a: " + strings.Repeat("[", 200) + strings.Repeat("]", 200),
		strings.Repeat("- ", 200) + "x\n",
		"\x00\x01\xff",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		steps, err := Parse(data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *Error", err, err)
			}
			return
		}
		if len(steps) == 0 {
			t.Fatal("no steps and no error")
		}
		for i, st := range steps {
			if _, ok := opSpecs[st.Op]; !ok {
				t.Fatalf("step %d: unknown op %q accepted", i+1, st.Op)
			}
			if st.Op == OpAdvance && st.Duration <= 0 {
				t.Fatalf("step %d: advance by %v accepted", i+1, st.Duration)
			}
		}
	})
}
