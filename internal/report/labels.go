package report

import "strings"

// labeller names a big grid cell by the part of its node's name that
// differs from the other nodes of the page: cloud node names share long
// prefixes (gke-prod-general-pool-1a2b3c4d-…) and suffixes
// (….ec2.internal), and a cell 128 px wide cut at its end showed twenty
// cells reading the same "gke-prod-gene…". The full name stays first in
// the cell's title.
type labeller struct {
	prefix, suffix int // bytes dropped from each end
}

// newLabeller finds the prefix and the suffix common to every name, each
// cut back to a separator so that a label starts on a whole word and the
// suffix is a domain (.ec2.internal); with fewer than two names it drops nothing.
func newLabeller(names []string) labeller {
	if len(names) < 2 {
		return labeller{}
	}
	pre, suf := names[0], names[0]
	shortest := len(names[0])
	for _, n := range names[1:] {
		pre = pre[:commonPrefix(pre, n)]
		suf = suf[len(suf)-commonSuffix(suf, n):]
		shortest = min(shortest, len(n))
	}
	l := labeller{prefix: strings.LastIndexAny(pre, "-._") + 1}
	// Only a domain is dropped from the end: a shared "-1" is part of
	// each name's number, not noise.
	if i := strings.IndexByte(suf, '.'); i >= 0 {
		l.suffix = len(suf) - i
	}
	// Every label keeps at least one byte: a name that is all prefix and
	// suffix (worker-1 beside worker-1-a) is labelled by its prefix part.
	if l.prefix+l.suffix >= shortest {
		l.suffix = 0
		if l.prefix >= shortest {
			l.prefix = 0
		}
	}
	return l
}

// label is name without the common prefix and suffix.
func (l labeller) label(name string) string {
	if l.prefix+l.suffix >= len(name) {
		return name
	}
	return name[l.prefix : len(name)-l.suffix]
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[len(a)-1-i] != b[len(b)-1-i] {
			return i
		}
	}
	return n
}
