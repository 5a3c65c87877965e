//go:build benchlive

package benchlive

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// procMem is the memory of one control-plane process, from /proc.
type procMem struct {
	Name           string
	RSSKiB, HWMKiB int64 // VmRSS and VmHWM (peak)
}

// controlPlaneMem returns the memory of the etcd and kube-apiserver this test
// process started (its children of those names).
func controlPlaneMem(t *testing.T) []procMem {
	dirs, err := filepath.Glob("/proc/[0-9]*/status")
	if err != nil {
		t.Fatal(err)
	}
	var out []procMem
	for _, status := range dirs {
		data, err := os.ReadFile(status)
		if err != nil {
			continue // exited meanwhile
		}
		name, ppid := statusField(data, "Name"), statusField(data, "PPid")
		if ppid != strconv.Itoa(os.Getpid()) || (name != "etcd" && name != "kube-apiserver") {
			continue
		}
		out = append(out, procMem{Name: name, RSSKiB: kib(statusField(data, "VmRSS")), HWMKiB: kib(statusField(data, "VmHWM"))})
	}
	return out
}

func memString(ps []procMem) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s RSS %d MiB (peak %d MiB)", p.Name, p.RSSKiB>>10, p.HWMKiB>>10))
	}
	if len(parts) == 0 {
		return "?"
	}
	return strings.Join(parts, ", ")
}

// statusField returns the value of "key:" in a /proc status-like file.
func statusField(data []byte, key string) string {
	for line := range strings.Lines(string(data)) {
		if k, v, ok := strings.Cut(line, ":"); ok && k == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// kib parses "1234 kB".
func kib(v string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
	return n
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func machine() string {
	model := "?"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	mem := "?"
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		mem = fmt.Sprintf("%.1f GiB", float64(kib(statusField(data, "MemTotal")))/(1<<20))
	}
	return fmt.Sprintf("%d CPUs (%s), %s, %s/%s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH)
}
