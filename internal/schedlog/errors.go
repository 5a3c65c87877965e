package schedlog

import (
	"errors"
	"fmt"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
)

// errorf is a plain error for the parser to place at a line.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// FormatError is a dump that cannot be read: truncated, interleaved with
// another record, or not in any known layout.
type FormatError struct {
	// Line is the 1-based input line at fault (for a truncated dump, the
	// line after the last one).
	Line int
	// DumpLine is the line where the faulty dump starts.
	DumpLine int
	// Msg says what is wrong.
	Msg string
}

func (e *FormatError) Error() string {
	if e.DumpLine > 0 && e.DumpLine != e.Line {
		return fmt.Sprintf("line %d: %s (in the cache dump that starts at line %d)", e.Line, e.Msg, e.DumpLine)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// NoDumpError means the log holds no "Dump of cached NodeInfo" record.
type NoDumpError struct {
	// Lines is the number of lines read.
	Lines int
	// Version is the scheduler version found in the log, if any.
	Version string
}

// HowToDump tells users how to make kube-scheduler write its cache dump.
const HowToDump = `kube-scheduler writes its cache dump to its log when it receives SIGUSR2
(the handler is installed once its informers have synced; before that the
signal kills it). kube-scheduler images have no shell or kill, so signal the
process from its node, e.g. with a node debug pod (which shares the node's
process namespace; delete the pod afterwards):
  kubectl debug node/<control-plane-node> --image=busybox --profile=sysadmin -- \
    sh -c 'kill -USR2 $(pidof kube-scheduler)'
or, on the node itself: sudo kill -USR2 $(pidof kube-scheduler).
Then read the log again (--from-pod, or the log file); --since 5m keeps a long log short.`

func (e *NoDumpError) Error() string {
	what := "kube-scheduler log"
	if e.Version != "" {
		what = "log of kube-scheduler " + e.Version
	}
	return fmt.Sprintf("no cache dump (\"Dump of cached NodeInfo\") in %s of %s\n%s", termtext.Count(e.Lines, "line"), what, HowToDump)
}

// UnsupportedVersionError means the log comes from a kube-scheduler release
// whose dump format is not known.
type UnsupportedVersionError struct {
	Version string
}

func (e *UnsupportedVersionError) Error() string {
	return fmt.Sprintf("the log comes from kube-scheduler %s; its dump format is known for %s through %s only",
		e.Version, MinVersion, MaxVersion)
}

// IsNoDump reports whether err is (or wraps) a *NoDumpError.
func IsNoDump(err error) bool {
	var e *NoDumpError
	return errors.As(err, &e)
}
