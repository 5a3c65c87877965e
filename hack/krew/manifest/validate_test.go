package manifest

import (
	"archive/tar"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func hasRule(probs []Problem, rule string) bool {
	return slices.ContainsFunc(probs, func(p Problem) bool { return p.Rule == rule })
}

func TestValidManifestPasses(t *testing.T) {
	dir := t.TempDir()
	sums := writeReleaseArchives(t, dir)
	path := filepath.Join(dir, "schedcache.yaml")
	probs := Validate(path, marshal(t, validPlugin(sums)), Options{
		Fetcher:       &Fetcher{ArchiveDir: dir},
		WantPlatforms: releasePlatforms,
		WorkDir:       t.TempDir(),
	})
	for _, p := range probs {
		t.Errorf("unexpected problem: %s", p)
	}
}

// TestBrokenManifestsAreRejected breaks one rule at a time and checks that
// the checker reports exactly that rule.
func TestBrokenManifestsAreRejected(t *testing.T) {
	linux := OSArch{"linux", "amd64"}
	cases := []struct {
		name     string
		fileName string                               // default schedcache.yaml
		mutate   func(p *Plugin)                      // edits the valid manifest
		raw      func(b []byte) []byte                // edits the YAML text
		archive  func(t *testing.T) (OSArch, []entry) // replaces one archive (sha is updated)
		rawData  func(t *testing.T) (OSArch, []byte)  // replaces one archive with raw bytes (sha is updated)
		also     []string                             // rules that may be reported as well
		want     string
	}{
		{name: "file name differs from metadata.name", fileName: "sched-cache.yaml", want: RuleFileName},
		{name: "file extension .yml", fileName: "schedcache.yml", want: RuleFileName},
		{name: "name with a dot", fileName: "sched.cache.yaml", mutate: func(p *Plugin) { p.Metadata.Name = "sched.cache" }, want: RuleName},
		{name: "windows reserved name", fileName: "con.yaml", mutate: func(p *Plugin) { p.Metadata.Name = "con" }, want: RuleName},
		{name: "apiVersion from the wrong group", mutate: func(p *Plugin) { p.APIVersion = "krew.googlecontainers.com/v1alpha2" }, want: RuleAPIVersion},
		{name: "kind", mutate: func(p *Plugin) { p.Kind = "Plugins" }, want: RuleKind},
		{name: "unknown field", raw: func(b []byte) []byte {
			return []byte(strings.Replace(string(b), "shortDescription:", "shortDescripton:", 1))
		}, want: RuleDecode},
		{name: "not YAML", raw: func([]byte) []byte { return []byte("{{ .TagName }}: [") }, want: RuleDecode},
		{name: "shortDescription missing", mutate: func(p *Plugin) { p.Spec.ShortDescription = "" }, want: RuleShortDescription},
		{name: "shortDescription two lines", mutate: func(p *Plugin) { p.Spec.ShortDescription = "Show the cache\nof the scheduler" }, want: RuleShortDescription},
		{name: "shortDescription 51 characters", mutate: func(p *Plugin) { p.Spec.ShortDescription = strings.Repeat("x", 51) }, want: RuleShortDescription},
		{name: "description missing", mutate: func(p *Plugin) { p.Spec.Description = "" }, want: RuleDescription},
		{name: "description line over 80 columns", mutate: func(p *Plugin) {
			p.Spec.Description = strings.Repeat("word ", 17) + "\n"
		}, want: RuleDescription},
		{name: "description with a usage example", mutate: func(p *Plugin) {
			p.Spec.Description = "Shows the cache.\n\n  $ kubectl schedcache dump\n"
		}, want: RuleDescription},
		{name: "description with a kubectl command line", mutate: func(p *Plugin) {
			p.Spec.Description = "Shows the cache.\n  kubectl schedcache dump -o yaml\n"
		}, want: RuleDescription},
		{name: "caveats line over 80 columns", mutate: func(p *Plugin) {
			p.Spec.Caveats = "Needs " + strings.Repeat("get and list ", 7) + "on nodes\n"
		}, want: RuleCaveats},
		{name: "version without v", mutate: func(p *Plugin) { p.Spec.Version = "0.1.0" }, want: RuleVersion},
		{name: "version not semver", mutate: func(p *Plugin) { p.Spec.Version = "v0.1" }, want: RuleVersion},
		{name: "version with leading zero", mutate: func(p *Plugin) { p.Spec.Version = "v0.01.0" }, want: RuleVersion},
		{name: "version missing", mutate: func(p *Plugin) { p.Spec.Version = "" }, want: RuleVersion},
		{name: "homepage missing", mutate: func(p *Plugin) { p.Spec.Homepage = "" }, want: RuleHomepage},
		{name: "no platforms", mutate: func(p *Plugin) { p.Spec.Platforms = nil }, want: RulePlatforms, also: []string{RulePlatformSet}},
		{name: "uri missing", mutate: func(p *Plugin) { p.Spec.Platforms[0].URI = "" }, want: RuleURI},
		{name: "uri not an archive", mutate: func(p *Plugin) { p.Spec.Platforms[0].URI += ".bin" }, want: RuleURI, also: []string{RuleArchive}},
		{name: "sha256 missing", mutate: func(p *Plugin) { p.Spec.Platforms[0].Sha256 = "" }, want: RuleSha256},
		{name: "sha256 upper case", mutate: func(p *Plugin) {
			p.Spec.Platforms[0].Sha256 = strings.ToUpper(p.Spec.Platforms[0].Sha256)
		}, want: RuleSha256},
		{name: "sha256 too short", mutate: func(p *Plugin) { p.Spec.Platforms[0].Sha256 = p.Spec.Platforms[0].Sha256[:63] }, want: RuleSha256},
		{name: "sha256 of another archive", mutate: func(p *Plugin) { p.Spec.Platforms[0].Sha256 = p.Spec.Platforms[1].Sha256 }, want: RuleSha256},
		{name: "bin missing", mutate: func(p *Plugin) { p.Spec.Platforms[0].Bin = "" }, want: RuleBin},
		{name: "bin outside the install dir", mutate: func(p *Plugin) { p.Spec.Platforms[0].Bin = "../kubectl-schedcache" }, want: RuleBin, also: []string{RuleInstall}},
		{name: "windows bin without .exe", mutate: func(p *Plugin) { p.Spec.Platforms[4].Bin = "kubectl-schedcache" }, want: RuleBin, also: []string{RuleInstall}},
		{name: "bin not in the archive", mutate: func(p *Plugin) { p.Spec.Platforms[0].Bin = "kubectl-sched-cache" }, want: RuleInstall},
		{name: "files empty list", mutate: func(p *Plugin) { p.Spec.Platforms[0].Files = []FileOperation{} }, want: RuleFiles, also: []string{RuleInstall, RuleLicense}},
		{name: "files without from", mutate: func(p *Plugin) { p.Spec.Platforms[0].Files = []FileOperation{{To: "."}} }, want: RuleFiles, also: []string{RuleInstall}},
		{name: "files without to", mutate: func(p *Plugin) { p.Spec.Platforms[0].Files = []FileOperation{{From: "*"}} }, want: RuleFiles, also: []string{RuleInstall}},
		{name: "files with unclean to", mutate: func(p *Plugin) { p.Spec.Platforms[0].Files = []FileOperation{{From: "*", To: "./bin/"}} }, want: RuleFiles, also: []string{RuleInstall}},
		{name: "files that drop LICENSE", mutate: func(p *Plugin) {
			p.Spec.Platforms[0].Files = []FileOperation{{From: "kubectl-schedcache", To: "."}}
		}, want: RuleLicense},
		{name: "files glob matching nothing", mutate: func(p *Plugin) {
			p.Spec.Platforms[0].Files = []FileOperation{{From: "bin/*", To: "."}}
		}, want: RuleInstall},
		{name: "selector missing", mutate: func(p *Plugin) { p.Spec.Platforms[0].Selector = nil }, want: RuleSelector, also: []string{RuleUnsupported, RulePlatformSet}},
		{name: "selector empty", mutate: func(p *Plugin) { p.Spec.Platforms[0].Selector = &LabelSelector{} }, want: RuleSelector, also: []string{RuleUnsupported, RulePlatformSet}},
		{name: "selector with matchExpressions", mutate: func(p *Plugin) {
			p.Spec.Platforms[0].Selector = &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "os", Operator: "In", Values: []string{"linux"}}}}
		}, want: RuleSelector, also: []string{RuleUnsupported, RulePlatformSet}},
		{name: "selector with an unsupported key", mutate: func(p *Plugin) { p.Spec.Platforms[0].Selector.MatchLabels["distro"] = "debian" }, want: RuleSelector, also: []string{RuleUnsupported, RulePlatformSet}},
		{name: "selector matching no supported platform", mutate: func(p *Plugin) { p.Spec.Platforms[0].Selector.MatchLabels["os"] = "plan9" }, want: RuleUnsupported, also: []string{RulePlatformSet}},
		{name: "two platforms for linux/amd64", mutate: func(p *Plugin) { p.Spec.Platforms[1].Selector.MatchLabels["arch"] = "amd64" }, want: RuleOverlap, also: []string{RulePlatformSet, RuleBinaryFormat}},
		{name: "os-only selector overlapping an os/arch one", mutate: func(p *Plugin) { delete(p.Spec.Platforms[1].Selector.MatchLabels, "arch") }, want: RuleOverlap, also: []string{RulePlatformSet}},
		{name: "a release platform left out", mutate: func(p *Plugin) { p.Spec.Platforms = p.Spec.Platforms[:5] }, want: RulePlatformSet},
		{name: "archive missing", mutate: func(p *Plugin) {
			p.Spec.Platforms[0].URI = strings.Replace(p.Spec.Platforms[0].URI, testTag+"_", "v9.9.9_", 1)
		}, want: RuleArchive},
		{name: "archive without LICENSE", archive: func(t *testing.T) (OSArch, []entry) {
			return linux, slices.DeleteFunc(releaseEntries(t, linux), func(e entry) bool { return e.name == "LICENSE" })
		}, want: RuleLicense},
		{name: "archive without the binary", archive: func(t *testing.T) (OSArch, []entry) {
			return linux, releaseEntries(t, linux)[1:]
		}, want: RuleInstall},
		{name: "archive with a non-executable binary", archive: func(t *testing.T) (OSArch, []entry) {
			e := releaseEntries(t, linux)
			e[0].mode = 0o644
			return linux, e
		}, want: RuleInstall},
		{name: "archive with a path traversal entry", archive: func(t *testing.T) (OSArch, []entry) {
			return linux, append(releaseEntries(t, linux), entry{name: "../evil", mode: 0o644, body: []byte("x")})
		}, want: RuleArchive},
		{name: "archive with a symlink", archive: func(t *testing.T) (OSArch, []entry) {
			return linux, append(releaseEntries(t, linux), entry{name: "COPYING", typ: tar.TypeSymlink})
		}, want: RuleArchive},
		{name: "archive with a binary for another arch", archive: func(t *testing.T) (OSArch, []entry) {
			e := releaseEntries(t, linux)
			e[0].body = fakeBinary(t, OSArch{"linux", "arm64"})
			return linux, e
		}, want: RuleBinaryFormat},
		{name: "archive with a binary for another os", archive: func(t *testing.T) (OSArch, []entry) {
			e := releaseEntries(t, linux)
			e[0].body = fakeBinary(t, OSArch{"darwin", "amd64"})
			return linux, e
		}, want: RuleBinaryFormat},
		{name: "not an archive", rawData: func(*testing.T) (OSArch, []byte) {
			return linux, []byte("<html>Not Found</html>")
		}, want: RuleArchive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			sums := writeReleaseArchives(t, dir)
			var data []byte
			var pair OSArch
			switch {
			case tc.archive != nil:
				var entries []entry
				pair, entries = tc.archive(t)
				data = packArchive(t, pair, entries)
			case tc.rawData != nil:
				pair, data = tc.rawData(t)
			}
			if data != nil {
				if err := os.WriteFile(filepath.Join(dir, archiveName(testTag, pair)), data, 0o644); err != nil {
					t.Fatal(err)
				}
				sums[pair] = Sha256Hex(data)
			}
			p := validPlugin(sums)
			if tc.mutate != nil {
				tc.mutate(p)
			}
			b := marshal(t, p)
			if tc.raw != nil {
				b = tc.raw(b)
			}
			fileName := tc.fileName
			if fileName == "" {
				fileName = "schedcache.yaml"
			}
			probs := Validate(filepath.Join(dir, fileName), b, Options{
				Fetcher:       &Fetcher{ArchiveDir: dir},
				WantPlatforms: releasePlatforms,
				WorkDir:       t.TempDir(),
			})
			if !hasRule(probs, tc.want) {
				t.Fatalf("want a %q problem, got %v", tc.want, probs)
			}
			for _, pr := range probs {
				if pr.Rule != tc.want && !slices.Contains(tc.also, pr.Rule) {
					t.Errorf("unexpected extra problem: %s", pr)
				}
			}
			t.Logf("rejected: %v", probs)
		})
	}
}

func TestValidateWithoutArchivesChecksTextOnly(t *testing.T) {
	p := validPlugin(map[OSArch]string{})
	for i := range p.Spec.Platforms {
		p.Spec.Platforms[i].Sha256 = strings.Repeat("a", 64)
	}
	if probs := Validate("schedcache.yaml", marshal(t, p), Options{}); len(probs) > 0 {
		t.Fatalf("unexpected problems: %v", probs)
	}
}
