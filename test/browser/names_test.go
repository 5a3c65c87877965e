//go:build browser

package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gkeNodes are three nodes whose names share "gke-prod-" (two of them
// "gke-prod-general-pool-1a2b3c4d-"): a cell 128 px wide cut at its end
// read "gke-prod-gene…" for all three.
var gkeNodes = []string{"gke-prod-general-pool-1a2b3c4d-xk2p", "gke-prod-general-pool-1a2b3c4d-zz91", "gke-prod-gpu-pool-9f8e7d6c-ab12"}

func writeGKECluster(t *testing.T) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for _, n := range gkeNodes {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: Node
  metadata: {name: %s, uid: uid-%s, labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: europe-west1-b}}
  status:
    allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
    conditions: [{type: Ready, status: "True"}]
`, n, n, n)
	}
	in := filepath.Join(t.TempDir(), "gke.yaml")
	if err := os.WriteFile(in, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestReportNamesCellsByWhatDiffers: each big cell shows the part of its
// node's name that differs from the others, whole (not cut by the cell's
// width), and keeps the full name first in its title.
func TestReportNamesCellsByWhatDiffers(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gke.html")
	writeReport(t, out, "-f", writeGKECluster(t))
	b := newBrowser(t)
	b.open(t, out)
	var cells []struct {
		Label, Title string
		Cut          bool
	}
	b.eval(t, `Array.from(document.querySelectorAll("#grid .c"), c => {
		const b = c.querySelector("b");
		return {label: b.textContent, title: c.title.split("\n")[0], cut: b.scrollWidth > b.clientWidth};
	})`, &cells)
	want := map[string]string{
		"gke-prod-general-pool-1a2b3c4d-xk2p": "general-pool-1a2b3c4d-xk2p",
		"gke-prod-general-pool-1a2b3c4d-zz91": "general-pool-1a2b3c4d-zz91",
		"gke-prod-gpu-pool-9f8e7d6c-ab12":     "gpu-pool-9f8e7d6c-ab12",
	}
	var titles []string
	for _, c := range cells {
		titles = append(titles, c.Title)
		if want[c.Title] != c.Label {
			t.Errorf("cell of %s reads %q, want %q", c.Title, c.Label, want[c.Title])
		}
		if c.Cut {
			t.Errorf("cell of %s: its label %q is cut by the cell's width", c.Title, c.Label)
		}
	}
	slices.Sort(titles)
	if !slices.Equal(titles, gkeNodes) {
		t.Errorf("cells' titles %q, want %q", titles, gkeNodes)
	}
	b.clean(t)
	b.screenshot(t, filepath.Join(shotsDir(t), "gke-names.png"), false)
}

// TestReportTablesUnclipped: the pending and requested tables are shown
// whole, in the page's own flow: no box around them scrolls or cuts them.
func TestReportTablesUnclipped(t *testing.T) {
	out := filepath.Join(t.TempDir(), "example.html")
	writeReport(t, out, "-f", filepath.Join("examples", "cluster.yaml"))
	b := newBrowser(t)
	b.open(t, out)
	b.showAll(t)
	for _, id := range []string{"pending-table", "requested-table"} {
		var clipped []string
		b.eval(t, `(() => {
			const out = [];
			for (let e = document.getElementById(`+jsString(id)+`).parentElement; e && e !== document.body; e = e.parentElement) {
				const s = getComputedStyle(e);
				if (s.overflowY !== "visible" || s.overflowX !== "visible" || e.scrollHeight > e.clientHeight + 1)
					out.push(e.tagName + "." + e.className + " overflow " + s.overflowX + "/" + s.overflowY + " height " + e.clientHeight + "/" + e.scrollHeight);
			}
			return out;
		})()`, &clipped)
		if len(clipped) > 0 {
			t.Errorf("#%s is inside boxes that clip or scroll it: %q", id, clipped)
		}
	}
	b.clean(t)
}
