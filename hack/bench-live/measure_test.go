//go:build benchlive

package benchlive

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// sample is one timed run of a command: wall time from its start to its exit
// and its own resource usage (wait4), as the rusage helper reports them.
type sample struct {
	Wall   time.Duration `json:"wall"`
	MaxRSS int64         `json:"maxRSSKiB"` // ru_maxrss: KiB on Linux
	CPU    time.Duration `json:"cpu"`       // user + system
}

// command is one timed contender.
type command struct {
	Key, Label string
	Run        func() (sample, error)
}

// measure runs every command once as an unrecorded warm-up (page cache,
// apiserver caches, kubectl's discovery cache), then runs more rounds, the
// commands alternating in the fixed order of cmds: a, b, c, a, b, c, ...
func measure(t *testing.T, cmds []command, runs int) map[string][]sample {
	out := map[string][]sample{}
	for round := range runs + 1 {
		for _, c := range cmds {
			s, err := c.Run()
			if err != nil {
				t.Fatalf("bench-live: %s: %v", c.Label, err)
			}
			if round == 0 {
				t.Logf("bench-live: warm-up (%s): %v, %d MiB", c.Key, s.Wall.Round(time.Millisecond), s.MaxRSS>>10)
				continue
			}
			t.Logf("bench-live: run %d (%s): %v, %d MiB", round, c.Key, s.Wall.Round(time.Millisecond), s.MaxRSS>>10)
			out[c.Key] = append(out[c.Key], s)
		}
	}
	return out
}

// runner runs the timed commands through the rusage helper (see
// rusage/main.go for why not directly).
type runner struct {
	helper string   // the rusage binary
	env    []string // added to every command's environment
}

// run runs a command with stdout to out (nil: /dev/null) and returns its
// wall time and resource usage as the helper measured them.
func (r runner) run(out io.Writer, name string, args ...string) (sample, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return sample{}, err
	}
	defer pr.Close()
	cmd := exec.Command(r.helper, append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), r.env...)
	cmd.Stdout = out // nil: the null device
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.ExtraFiles = []*os.File{pw} // fd 3
	err = cmd.Start()
	pw.Close()
	if err != nil {
		return sample{}, err
	}
	result, readErr := io.ReadAll(pr)
	if err := cmd.Wait(); err != nil {
		return sample{}, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	var s sample
	if err := errors.Join(readErr, json.Unmarshal(result, &s)); err != nil {
		return s, fmt.Errorf("%s %s: no result from %s: %v", name, strings.Join(args, " "), r.helper, err)
	}
	return s, nil
}

// median is the median of each field separately (the mean of the middle two
// for an even count).
func median(ss []sample) sample {
	wall := medianOf(ss, func(s sample) int64 { return int64(s.Wall) })
	rss := medianOf(ss, func(s sample) int64 { return s.MaxRSS })
	cpu := medianOf(ss, func(s sample) int64 { return int64(s.CPU) })
	return sample{Wall: time.Duration(wall), MaxRSS: rss, CPU: time.Duration(cpu)}
}

func medianOf(ss []sample, get func(sample) int64) int64 {
	if len(ss) == 0 {
		return 0
	}
	vals := make([]int64, len(ss))
	for i, s := range ss {
		vals[i] = get(s)
	}
	slices.Sort(vals)
	n := len(vals)
	if n%2 == 1 {
		return vals[n/2]
	}
	return (vals[n/2-1] + vals[n/2]) / 2
}

// table writes one line per command that ran: median, min and max wall time,
// median peak RSS and median CPU time, then the ratios of the medians.
func table(w io.Writer, cmds []command, runs map[string][]sample, medians map[string]sample) {
	fmt.Fprintf(w, "%-54s %11s %9s %9s %16s %11s\n", "command", "median wall", "min", "max", "median peak RSS", "median CPU")
	for _, c := range cmds {
		ss, m := runs[c.Key], medians[c.Key]
		if len(ss) == 0 {
			continue
		}
		byWall := func(x, y sample) int { return cmp.Compare(x.Wall, y.Wall) }
		lo, hi := slices.MinFunc(ss, byWall).Wall, slices.MaxFunc(ss, byWall).Wall
		fmt.Fprintf(w, "%-54s %10.3fs %8.3fs %8.3fs %12.1f MiB %10.3fs\n", c.Label, m.Wall.Seconds(), lo.Seconds(), hi.Seconds(), float64(m.MaxRSS)/1024, m.CPU.Seconds())
	}
	a, c := medians["a"], medians["c"]
	if b, ok := medians["b"]; ok {
		fmt.Fprintf(w, "a/b = %.3f wall (target <= 0.2), %.3f peak RSS\n", a.Wall.Seconds()/b.Wall.Seconds(), float64(a.MaxRSS)/float64(b.MaxRSS))
	} else {
		fmt.Fprintln(w, "a/b not measured (kubectl not timed above -kubectl-max-pods)")
	}
	fmt.Fprintf(w, "a/c = %.3f wall (target <= 1.5), %.3f peak RSS\n", a.Wall.Seconds()/c.Wall.Seconds(), float64(a.MaxRSS)/float64(c.MaxRSS))
	// The API server's own pauses (its heap of many GB at 150,000 pods) slow
	// whole rounds: the ratio within each round says more than the ratio
	// of medians taken from different rounds.
	if r := roundRatios(runs["a"], runs["c"]); len(r) > 0 {
		words := make([]string, len(r))
		for i, x := range r {
			words[i] = fmt.Sprintf("%.2f", x)
		}
		fmt.Fprintf(w, "a/c round by round: %s (median %.3f)\n", strings.Join(words, ", "), medianFloat(r))
	}
}

// roundRatios divides each round's wall time of a by the same round's of c.
func roundRatios(a, c []sample) []float64 {
	var out []float64
	for i := range min(len(a), len(c)) {
		if c[i].Wall > 0 {
			out = append(out, float64(a[i].Wall)/float64(c[i].Wall))
		}
	}
	return out
}

func medianFloat(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// TestRoundRatios checks the round-by-round ratios without a cluster.
func TestRoundRatios(t *testing.T) {
	a := []sample{{Wall: 50}, {Wall: 30}, {Wall: 60}}
	c := []sample{{Wall: 40}, {Wall: 40}, {Wall: 30}}
	r := roundRatios(a, c)
	if want := []float64{1.25, 0.75, 2}; !slices.Equal(r, want) {
		t.Fatalf("roundRatios = %v, want %v", r, want)
	}
	if got := medianFloat(r); got != 1.25 {
		t.Errorf("median of %v = %v, want 1.25", r, got)
	}
	if got := medianFloat([]float64{1, 4, 2, 3}); got != 2.5 {
		t.Errorf("even median = %v, want 2.5", got)
	}
}

// TestMedian checks median without a cluster:
// go test -tags benchlive -run TestMedian ./hack/bench-live
func TestMedian(t *testing.T) {
	s := func(wall time.Duration, rss int64) sample { return sample{Wall: wall, MaxRSS: rss} }
	if got, want := median([]sample{s(3, 10), s(1, 30), s(2, 20)}), s(2, 20); got != want {
		t.Errorf("odd: got %v, want %v", got, want)
	}
	// Each field on its own; the mean of the middle two.
	if got, want := median([]sample{s(4, 1), s(1, 8), s(2, 4), s(8, 2)}), s(3, 3); got != want {
		t.Errorf("even: got %v, want %v", got, want)
	}
}
