package cmd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	utilversion "k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/yaml"
)

func testBuildInfo(mainVersion string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/schedcache/kubectl-schedcache", Version: mainVersion},
		Deps: []*debug.Module{
			{Path: "k8s.io/client-go", Version: "v0.36.0", Replace: &debug.Module{Path: "k8s.io/client-go", Version: "v0.36.3"}},
			{Path: "k8s.io/kubernetes", Version: "v1.36.3"},
			{Path: "k8s.io/api", Version: "v0.36.3"},
		},
	}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

// TestBuildVersion: stamped values win; without them a go install'ed
// release reports its module version and a checkout build
// v0.0.0-dev+<commit>; replaced modules report the replacement's version.
func TestBuildVersion(t *testing.T) {
	rev := "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name                  string
		bi                    *debug.BuildInfo
		stamped               [3]string
		wantVersion, wantHash string
	}{
		{"stamped release", testBuildInfo("(devel)"), [3]string{"v0.3.0", rev, "2026-01-02T03:04:05Z"}, "v0.3.0", rev},
		{"stamped dev", testBuildInfo("(devel)"), [3]string{"v0.3.1-dev+0123456789ab", rev, ""}, "v0.3.1-dev+0123456789ab", rev},
		{"go install @tag", testBuildInfo("v0.2.1"), [3]string{}, "v0.2.1", "unknown"},
		{"go install @rc tag", testBuildInfo("v0.2.0-rc.1"), [3]string{}, "v0.2.0-rc.1", "unknown"},
		{"go build in a checkout", testBuildInfo("v0.0.0-20260102030405-0123456789ab+dirty", "vcs.revision", rev, "vcs.modified", "true"), [3]string{},
			"v0.0.0-dev+0123456789ab.dirty", rev},
		{"go build after a tag", testBuildInfo("v0.2.2-0.20260102030405-0123456789ab", "vcs.revision", rev), [3]string{},
			"v0.0.0-dev+0123456789ab", rev},
		{"no vcs information", testBuildInfo("(devel)"), [3]string{}, "v0.0.0-dev+unknown", "unknown"},
		{"no build info", nil, [3]string{}, "v0.0.0-dev+unknown", "unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := buildVersion(tc.bi, tc.stamped[0], tc.stamped[1], tc.stamped[2])
			if info.GitVersion != tc.wantVersion || info.GitCommit != tc.wantHash {
				t.Errorf("got version %q commit %q, want %q %q", info.GitVersion, info.GitCommit, tc.wantVersion, tc.wantHash)
			}
			if _, err := utilversion.ParseSemantic(info.GitVersion); err != nil {
				t.Errorf("%q is not a semantic version: %v", info.GitVersion, err)
			}
			wantLibs := map[string]string{"k8s.io/client-go": "v0.36.3", "k8s.io/kubernetes": "v1.36.3"}
			if tc.bi == nil {
				wantLibs = map[string]string{"k8s.io/client-go": "unknown", "k8s.io/kubernetes": "unknown"}
			}
			for m, v := range wantLibs {
				if info.KubernetesLibraries[m] != v {
					t.Errorf("%s: got %q, want %q", m, info.KubernetesLibraries[m], v)
				}
			}
			if info.Platform != runtime.GOOS+"/"+runtime.GOARCH || info.GoVersion != runtime.Version() {
				t.Errorf("platform %q go %q", info.Platform, info.GoVersion)
			}
		})
	}
}

// TestVersionCommand runs "version" through the root command: text, JSON
// and YAML carry the same facts, --client is accepted, and arguments or an
// unknown -o are usage errors. A test binary's build info lists no
// dependencies, so the library versions are "unknown" here; the e2e suite
// checks them on the built plugin (test/e2e/cli_test.go).
func TestVersionCommand(t *testing.T) {
	text := run(t, "", "version", "--client")
	if text.code != 0 {
		t.Fatalf("exit %d: %s", text.code, text.stderr)
	}
	for _, w := range []string{"\nplatform: " + runtime.GOOS + "/" + runtime.GOARCH + "\n", "\ngo: " + runtime.Version() + "\n",
		"\nclient-go: ", "\nkubernetes: "} {
		if !strings.Contains(text.stdout, w) {
			t.Errorf("text output lacks %q:\n%s", w, text.stdout)
		}
	}
	var fromJSON, fromYAML versionOutput
	js := run(t, "", "version", "-o", "json")
	if err := json.Unmarshal([]byte(js.stdout), &fromJSON); err != nil {
		t.Fatalf("-o json: %v\n%s", err, js.stdout)
	}
	ys := run(t, "", "version", "-o", "yaml")
	if err := yaml.UnmarshalStrict([]byte(ys.stdout), &fromYAML); err != nil {
		t.Fatalf("-o yaml: %v\n%s", err, ys.stdout)
	}
	c := fromJSON.ClientVersion
	if c.GitVersion == "" || c.GitCommit == "" || c.KubernetesLibraries["k8s.io/client-go"] == "" || c.KubernetesLibraries["k8s.io/kubernetes"] == "" {
		t.Errorf("incomplete JSON: %+v", c)
	}
	if !strings.Contains(text.stdout, "version: "+c.GitVersion+"\n") || fromYAML.ClientVersion.GitVersion != c.GitVersion {
		t.Errorf("formats disagree: text\n%s\nyaml %+v\njson %+v", text.stdout, fromYAML.ClientVersion, c)
	}
	for _, args := range [][]string{{"version", "extra"}, {"version", "-o", "wide"}} {
		r := run(t, "", args...)
		if r.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, r.code, ExitUsage, r.stderr)
		}
	}
	if r := run(t, "", "version", "-o", "table"); !strings.Contains(r.stderr, `unknown output format "table": allowed formats are json, yaml`) {
		t.Errorf("unknown -o: %q", r.stderr)
	}
}

// TestVersionScript runs hack/version.sh in a scratch repository: before
// any tag, on a tag, after it, with a pre-release tag and with local changes.
func TestVersionScript(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	script, err := filepath.Abs("../../hack/version.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commitFile := func(content string) string {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "f")
		git("commit", "-q", "-m", content)
		return git("rev-parse", "--short=12", "HEAD")
	}
	version := func() string {
		cmd := exec.Command(script)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("version.sh: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	c1 := commitFile("1")
	steps := []struct {
		do   func() string // returns the short commit expected in the version
		want string
	}{
		{func() string { return c1 }, "v0.0.0-dev+%s"},
		{func() string { git("tag", "v0.1.0"); return c1 }, "v0.1.0"},
		{func() string { return commitFile("2") }, "v0.1.1-dev+%s"},
		{func() string { c := git("rev-parse", "--short=12", "HEAD"); git("tag", "v0.2.0-rc.1"); return c }, "v0.2.0-rc.1"},
		{func() string { return commitFile("3") }, "v0.2.0-dev+%s"},
		{func() string {
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("changed"), 0o644); err != nil {
				t.Fatal(err)
			}
			return git("rev-parse", "--short=12", "HEAD")
		}, "v0.2.0-dev+%s.dirty"},
	}
	for i, s := range steps {
		c := s.do()
		want := strings.ReplaceAll(s.want, "%s", c)
		if got := version(); got != want {
			t.Errorf("step %d: got %q, want %q", i+1, got, want)
		}
		if _, err := utilversion.ParseSemantic(version()); err != nil {
			t.Errorf("step %d: not semver: %v", i+1, err)
		}
	}
}
