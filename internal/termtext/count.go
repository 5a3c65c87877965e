package termtext

import (
	"strconv"
	"strings"
)

// Count is a count and its noun agreeing with it: Count(1, "pod") is
// "1 pod", Count(2, "pending pod") "2 pending pods", Count(0, "class")
// "0 classes". The noun is English and regular in its last word (Noun);
// for another word, such as a verb, use Agree.
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun is noun for a count of one, its plural for any other count: "s"
// appended to the last word, "es" after s, x, z, ch and sh, "ies" for a
// consonant and y.
func Noun(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	lower := strings.ToLower(noun)
	switch {
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return noun + "es"
	case len(lower) > 1 && strings.HasSuffix(lower, "y") && !strings.ContainsAny(lower[len(lower)-2:len(lower)-1], "aeiou"):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Agree is one for a count of one and many for any other: the verb or
// irregular word that goes with a count ("1 pod was", "2 pods were").
func Agree(n int, one, many string) string {
	if n == 1 || n == -1 {
		return one
	}
	return many
}
