package termtext

import (
	"fmt"
	"strings"
)

// FoldShown is how many of the other subjects a folded line names.
const FoldShown = 3

// Fold is the one way a repeated message of one kind becomes one line:
// the message about the first subject, then "(and N more: a, b, c, …)"
// naming up to FoldShown of the others. subjects are the names the
// repeats are about, the first one's already in first; a single subject
// gives first alone. Subjects are escaped with Line.
func Fold(first string, subjects []string) string {
	if len(subjects) <= 1 {
		return first
	}
	more := subjects[1:]
	shown := make([]string, 0, FoldShown+1)
	for _, s := range more[:min(len(more), FoldShown)] {
		shown = append(shown, Line(s))
	}
	if len(more) > FoldShown {
		shown = append(shown, "…")
	}
	return fmt.Sprintf("%s (and %d more: %s)", first, len(more), strings.Join(shown, ", "))
}
