// Package layers checks the import graph against the layering
// CONTRIBUTING.md states ("Layout"): which project packages each layer may
// import, and that the scheduler framework (k8s.io/kubernetes) is reached
// through internal/decide only. It reads `go list -json` of the module's
// packages (their non-test imports), so a new import that breaks a rule
// fails `go test ./...` in CI.
package layers

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/schedcache/kubectl-schedcache/"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
}

// packages lists the module's packages (from the repository root).
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages, want the module's", len(pkgs))
	}
	return pkgs
}

// rule says which project packages the packages under a path may import
// (allowed; nil: none), or which they must not (denied, but for the
// packages under except).
type rule struct {
	path    string
	allowed []string
	denied  []string
	except  []string
	why     string
}

// outputKinds are the packages of the output kinds and of what renders
// them.
func outputKinds() []string {
	return []string{"pkg/apis", "pkg/printers", "internal/views", "internal/report"}
}

// layerRules are CONTRIBUTING.md's rules.
func layerRules() []rule {
	return []rule{
		{path: "pkg/cache", allowed: []string{}, why: "the cache model is pure: it imports no project package"},
		{path: "pkg/apis/v1alpha1", allowed: []string{}, why: "the output kinds import no project package"},
		{path: "pkg/printers", allowed: []string{"pkg/apis/v1alpha1", "internal/termtext"}, why: "printers see the output kinds only"},
		{path: "internal/report", allowed: []string{"pkg/apis/v1alpha1", "pkg/printers", "internal/termtext"}, why: "the report page sees what printers see"},
		{path: "pkg/cmd", denied: []string{"internal/decide"}, why: "the command line reaches the engine through internal/pipeline"},
		{path: "pkg/cmd", denied: []string{"internal/whatif", "internal/simulate", "internal/scaledown", "internal/scaleup"}, except: []string{"internal/simulate/script"},
			why: "the command line runs the scenarios (drain, --until-fits, simulate, config comparison, scale-down, --scale-up) through internal/pipeline; it may parse --script with internal/simulate/script"},
		// The engine and the scenarios answer in their own types; internal/views
		// maps them to the output kinds (the reader and the model carry a few
		// kinds).
		{path: "internal/decide", denied: outputKinds(), why: "the engine's answers are mapped to the output kinds by internal/views"},
		{path: "internal/whatif", denied: outputKinds(), why: "the what-if edits and scenarios are mapped to the output kinds by internal/views"},
		{path: "internal/scaledown", denied: outputKinds(), why: "the scale-down plan is mapped to the output kinds by internal/views"},
		{path: "internal/scaleup", denied: outputKinds(), why: "the scale-up answer is mapped to the output kinds by internal/views"},
		{path: "internal/simulate", denied: outputKinds(), why: "the simulation's timeline and final states are mapped to the output kinds by internal/views"},
	}
}

// check returns the rule's violations by p: "IMPORT (WHY)".
func (r rule) check(p pkg) []string {
	var bad []string
	for _, imp := range p.Imports {
		own, ok := strings.CutPrefix(imp, module)
		if !ok {
			continue
		}
		switch {
		case r.allowed != nil && !under(own, r.allowed):
			bad = append(bad, own+" ("+r.why+")")
		case r.denied != nil && under(own, r.denied) && !under(own, r.except):
			bad = append(bad, own+" ("+r.why+")")
		}
	}
	return bad
}

// under reports whether path is one of paths or below one.
func under(path string, paths []string) bool {
	for _, p := range paths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// TestLayers: every package keeps its layer's imports.
func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	rules := layerRules()
	for _, p := range packages(t) {
		own := strings.TrimPrefix(p.ImportPath, module)
		for _, r := range rules {
			if own != r.path && !strings.HasPrefix(own, r.path+"/") {
				continue
			}
			seen[r.path] = true
			for _, bad := range r.check(p) {
				t.Errorf("%s imports %s", own, bad)
			}
		}
	}
	for _, r := range rules {
		if !seen[r.path] {
			t.Errorf("no package under %s: the rule checks nothing", r.path)
		}
	}
}

// TestOnlyDecideImportsKubernetes: k8s.io/kubernetes (the scheduler
// framework, whose API moves every release) is imported by internal/decide
// and the tools of hack/ only.
func TestOnlyDecideImportsKubernetes(t *testing.T) {
	// Not spelled as an import path: hack/verify-code-patterns.sh greps
	// for those outside internal/decide.
	const kubernetes = "k8s.io/kubernetes"
	for _, p := range packages(t) {
		own := strings.TrimPrefix(p.ImportPath, module)
		if under(own, []string{"internal/decide", "hack"}) {
			continue
		}
		for _, imp := range p.Imports {
			if imp == kubernetes || strings.HasPrefix(imp, kubernetes+"/") {
				t.Errorf("%s imports %s: only internal/decide may", own, imp)
			}
		}
	}
}

// TestRuleCatchesAViolation: the check itself can fail.
func TestRuleCatchesAViolation(t *testing.T) {
	p := pkg{ImportPath: module + "pkg/printers", Imports: []string{module + "pkg/apis/v1alpha1", module + "internal/decide", "fmt"}}
	rules := layerRules()
	if bad := rules[2].check(p); len(bad) != 1 || !strings.HasPrefix(bad[0], "internal/decide") {
		t.Errorf("violations %v, want internal/decide alone", bad)
	}
	c := pkg{ImportPath: module + "pkg/cmd", Imports: []string{module + "internal/decide/x"}}
	if bad := rules[4].check(c); len(bad) != 1 {
		t.Errorf("pkg/cmd importing internal/decide/x: violations %v, want 1", bad)
	}
	s := pkg{ImportPath: module + "pkg/cmd", Imports: []string{module + "internal/simulate", module + "internal/simulate/script", module + "internal/whatif", module + "internal/pipeline"}}
	if bad := rules[5].check(s); len(bad) != 2 || !strings.HasPrefix(bad[0], "internal/simulate ") || !strings.HasPrefix(bad[1], "internal/whatif ") {
		t.Errorf("pkg/cmd importing the scenarios: violations %v, want internal/simulate and internal/whatif (not the --script parser, not the pipeline)", bad)
	}
}
