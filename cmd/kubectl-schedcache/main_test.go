package main

import (
	"testing"

	"github.com/chai2010/gettext-go"
)

// The test binary links what main links and runs the same package
// initialization, but not main: what this test sees, internal/startup
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
