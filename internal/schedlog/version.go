package schedlog

import (
	"fmt"
	"strconv"
	"strings"
)

// The releases whose dump formats Parse knows.
const (
	MinVersion = "v1.18"
	MaxVersion = "v1.36"
)

// minor returns the minor release of a Kubernetes 1.x version such as
// "v1.36.3" or "v1.22.0-rc.1", or false.
func minor(version string) (int, bool) {
	v, ok := strings.CutPrefix(version, "v1.")
	if !ok {
		return 0, false
	}
	if i := strings.IndexAny(v, ".-+"); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// checkVersion refuses a log whose scheduler predates v1.18, the oldest
// release whose dump format was read from its sources.
func checkVersion(version string) error {
	if n, ok := minor(version); ok && n < 18 {
		return &UnsupportedVersionError{Version: version}
	}
	return nil
}

// layoutReleases maps each layout to the minor releases that write it.
var layoutReleases = map[Layout][2]int{
	LayoutV118:      {18, 18},
	LayoutV119:      {19, 22},
	LayoutV118To122: {18, 22},
	LayoutV123:      {23, 23},
	LayoutV124:      {24, 25},
	LayoutV126:      {26, 36},
}

// VersionNote returns a warning about d's version, or "": the log comes from
// a release newer than MaxVersion (read with the newest known layout), or
// its layout is not the one its version writes (the version line may come
// from an earlier run of the scheduler in the same log).
func VersionNote(d *Dump) string {
	n, ok := minor(d.Version)
	if !ok {
		return ""
	}
	r := layoutReleases[d.Layout]
	switch {
	case n > r[1] && d.Layout == LayoutV126:
		return fmt.Sprintf("the log comes from kube-scheduler %s, newer than %s, the newest release whose dump format is known; it was read as the %s layout", d.Version, MaxVersion, d.Layout)
	case n < r[0] || n > r[1]:
		return fmt.Sprintf("the dump is in the layout of kube-scheduler %s, but the log's last \"Starting Kubernetes Scheduler\" line says %s", d.Layout, d.Version)
	}
	return ""
}
