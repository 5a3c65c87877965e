package script

import (
	"fmt"
	"strings"
)

// Outcome is what happens to a pod's binding after FinishBinding.
type Outcome string

// The binding outcomes.
const (
	// Confirm: the bind succeeded and the pod's Add event arrives
	// (Assumed → Added).
	Confirm Outcome = "confirm"
	// Fail: the bind failed and the scheduler forgets the pod
	// (Assumed → Initial).
	Fail Outcome = "fail"
	// Lost: the bind call returned but the Add event never arrives. With a
	// TTL the cleanup loop expires the pod (Assumed → Expired); with TTL 0
	// it stays assumed, holding its requests, forever.
	Lost Outcome = "lost"
)

// Outcomes lists every Outcome, for help and error messages.
var Outcomes = []Outcome{Confirm, Fail, Lost}

// ParseOutcome parses "confirm", "fail" or "lost".
func ParseOutcome(s string) (Outcome, error) {
	for _, o := range Outcomes {
		if string(o) == s {
			return o, nil
		}
	}
	return "", fmt.Errorf("unknown binding outcome %q (want %s)", s, outcomeList())
}

func outcomeList() string {
	names := make([]string, len(Outcomes))
	for i, o := range Outcomes {
		names[i] = string(o)
	}
	return strings.Join(names, ", ")
}
