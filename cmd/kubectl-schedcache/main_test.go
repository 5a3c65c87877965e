package main

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/chai2010/gettext-go"

	"github.com/schedcache/kubectl-schedcache/internal/heaplimit"
)

// The test binary links what main links and runs the same package
// initialization, but not main: what these tests see, internal/startup
// set while the packages initialized.

// TestStartupSkipsKubectlTranslations fails when kubectl's catalogue was
// loaded during initialization (kubectl's get package translates its help
// texts as it initializes): internal/startup no longer imported by main, or
// initialized after kubectl's get package.
func TestStartupSkipsKubectlTranslations(t *testing.T) {
	if d := gettext.SetDomain(""); d == "k8s" {
		t.Fatalf("kubectl's translation catalogue was loaded at start (gettext domain %q)", d)
	}
}

// TestStartupSetsThePace fails when the packages initialized at Go's
// default pace instead of the plugin's.
func TestStartupSetsThePace(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set, and wins")
	}
	got := debug.SetGCPercent(heaplimit.GCPercent)
	if got != heaplimit.GCPercent {
		t.Fatalf("GC percent at start = %d, want %d", got, heaplimit.GCPercent)
	}
}
