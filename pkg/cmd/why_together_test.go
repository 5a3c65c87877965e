package cmd

import (
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// togetherNote is the note of fixtures/together.yaml, whose header works
// it out: two GPU pods each scheduled alone on the one free GPU; placed
// together, ml/train-b stays Pending.
const togetherNote = "note: each pod is judged alone, as if it were the next; placed one after another in queue order, 1 of the 2 pods scheduled here would stay Pending (ml/train-b): 'simulate --pending' places them together\n"

// TestWhyTogether (issue 37, 4c): why -A, its JSON and the report page say
// that the pods called scheduled cannot all be placed together, as
// simulate --pending places them.
func TestWhyTogether(t *testing.T) {
	f := fixture("together")
	r := run(t, "", "why", "-A", "-f", f)
	want := "POD          RESULT      NODE   MESSAGE\nml/train-a   scheduled   n1     <none>\nml/train-b   scheduled   n1     <none>\n"
	if r.code != 0 || r.stdout != want || r.stderr != togetherNote+"2 pods: 2 scheduled\n" {
		t.Errorf("why -A: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	r = run(t, "", "why", "-A", "-f", f, "-o", "json")
	var rep v1alpha1.SchedulingReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if g := rep.Together; g == nil || g.Scheduled != 2 || g.FitWhereNamed || !g.Placed || strings.Join(g.StayPending, ",") != "ml/train-b" {
		t.Errorf("together: %+v", g)
	}

	sim := run(t, "", "simulate", "--pending", "-A", "-f", f)
	if sim.code != 1 || !strings.Contains(sim.stdout, "ml/train-b   Unschedulable") {
		t.Errorf("simulate --pending disagrees with the note: exit %d\n%s", sim.code, sim.stdout)
	}

	r = run(t, "", "report", "-f", f)
	if !strings.Contains(r.stdout, "<li>"+html.EscapeString(strings.TrimSuffix(togetherNote, "\n"))+"</li>") {
		t.Errorf("the report page lacks the note")
	}

	// One pod: nothing to place together, no note and no field.
	r = run(t, "", "why", "-f", f, "ml/train-a", "-o", "json")
	if strings.Contains(r.stdout, `"together"`) || strings.Contains(r.stderr, "judged alone") {
		t.Errorf("named pod: %s%s", r.stdout, r.stderr)
	}
}
