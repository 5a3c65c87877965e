package decide

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// TestDocumentedProfile checks the plugin table of docs/why.md against the
// framework built for the default profile.
func TestDocumentedProfile(t *testing.T) {
	data, err := os.ReadFile("../../docs/why.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) == 4 {
			documented[strings.TrimSpace(cells[1])] = strings.TrimSpace(cells[2])
		}
	}
	e, err := New(context.Background(), Input{Snapshot: cache.NewEmptySnapshot()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p := e.frameworks[DefaultSchedulerName].ListPlugins()
	for point, set := range map[string]config.PluginSet{
		"PreEnqueue": p.PreEnqueue, "PreFilter": p.PreFilter, "Filter": p.Filter,
		"PostFilter": p.PostFilter, "PreScore": p.PreScore, "Score (weight)": p.Score,
	} {
		var names []string
		for _, pl := range set.Enabled {
			if point == "Score (weight)" {
				names = append(names, fmt.Sprintf("%s (%d)", pl.Name, pl.Weight))
			} else {
				names = append(names, pl.Name)
			}
		}
		if got := strings.Join(names, ", "); got != documented[point] {
			t.Errorf("%s:\n framework: %s\n docs:      %s", point, got, documented[point])
		}
	}
}
