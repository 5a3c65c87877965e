package cmd

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Suggestions for mistyped names. cobra suggests subcommands
// (Command.SuggestionsFor); pflag suggests nothing for an unknown flag, so
// withFlagSuggestion adds the flags of the command within the same edit
// distance cobra uses for commands.

// didYouMean formats suggestions for an error line: ` (did you mean "dump"?)`.
func didYouMean(suggestions []string) string {
	if len(suggestions) == 0 {
		return ""
	}
	quoted := make([]string, len(suggestions))
	for i, s := range suggestions {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return " (did you mean " + strings.Join(quoted, " or ") + "?)"
}

// withFlagSuggestion appends to pflag's "unknown flag: --NAME" error the
// flags of c whose names are close to NAME.
func withFlagSuggestion(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || name == "" {
		return err
	}
	distance := c.Root().SuggestionsMinimumDistance
	if distance <= 0 {
		distance = 2
	}
	var close []string
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if levenshtein(name, f.Name) <= distance || strings.HasPrefix(f.Name, name) {
			close = append(close, "--"+f.Name)
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	sort.Strings(close)
	close = dedupe(close)
	if len(close) == 0 {
		return err
	}
	return fmt.Errorf("%w%s", err, didYouMean(close))
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// levenshtein is the edit distance between a and b (insertions, deletions,
// substitutions), over bytes: flag names are ASCII.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
