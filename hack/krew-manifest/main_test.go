package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The repository's krew/schedcache.yaml renders, for one archive, to a
// manifest with the template's fields and that archive's platform only.
func TestRenderRepoTemplate(t *testing.T) {
	raw, err := os.ReadFile("../../krew/schedcache.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := render(raw, map[string]string{"kubectl-schedcache_v1.2.3_linux_arm64.tar.gz": "0123abcd"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.UnmarshalStrict(out, &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if m.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || m.Kind != "Plugin" || m.Metadata.Name != "schedcache" {
		t.Errorf("apiVersion/kind/name = %s/%s/%s", m.APIVersion, m.Kind, m.Metadata.Name)
	}
	if m.Spec.Version != "v1.2.3" {
		t.Errorf("version = %q, want v1.2.3", m.Spec.Version)
	}
	if len(m.Spec.Platforms) != 1 {
		t.Fatalf("%d platforms, want 1", len(m.Spec.Platforms))
	}
	p := m.Spec.Platforms[0]
	wantURI := "https://github.com/schedcache/kubectl-schedcache/releases/download/v1.2.3/kubectl-schedcache_v1.2.3_linux_arm64.tar.gz"
	if p.Bin != "kubectl-schedcache" || p.URI != wantURI || p.SHA256 != "0123abcd" {
		t.Errorf("platform bin/uri/sha256 = %s %s %s", p.Bin, p.URI, p.SHA256)
	}
	if p.Selector.MatchLabels["os"] != "linux" || p.Selector.MatchLabels["arch"] != "arm64" || len(p.Selector.MatchLabels) != 2 {
		t.Errorf("matchLabels = %v", p.Selector.MatchLabels)
	}
	if m.Spec.ShortDescription != "Show a cluster as kube-scheduler's cache sees it" {
		t.Errorf("shortDescription = %q", m.Spec.ShortDescription)
	}
	if m.Spec.Homepage != "https://github.com/schedcache/kubectl-schedcache" {
		t.Errorf("homepage = %q", m.Spec.Homepage)
	}
	// The caveats name the install directory of this version: v{{ .Version }}.
	if !strings.Contains(m.Spec.Caveats, `/store/schedcache/v1.2.3"`) || strings.Contains(m.Spec.Caveats, "{{") {
		t.Errorf("caveats not rendered for v1.2.3:\n%s", m.Spec.Caveats)
	}
	if !strings.HasPrefix(m.Spec.Description, "Builds a local model of kube-scheduler's internal cache") {
		t.Errorf("description = %q", m.Spec.Description)
	}
}

// With -all, the template's six platforms each need their archive: the
// names .goreleaser.yaml gives them, .zip and a .exe binary on Windows.
func TestRenderRepoTemplateAllPlatforms(t *testing.T) {
	raw, err := os.ReadFile("../../krew/schedcache.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			ext := ".tar.gz"
			if goos == "windows" {
				ext = ".zip"
			}
			sums["kubectl-schedcache_v0.2.0-rc.1_"+goos+"_"+arch+ext] = goos + arch
		}
	}
	out, err := render(raw, sums, true)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.UnmarshalStrict(out, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Spec.Platforms) != 6 {
		t.Fatalf("%d platforms, want 6", len(m.Spec.Platforms))
	}
	for _, p := range m.Spec.Platforms {
		l := p.Selector.MatchLabels
		if p.SHA256 != l["os"]+l["arch"] {
			t.Errorf("%v: sha256 %s", l, p.SHA256)
		}
		if wantBin := map[bool]string{true: "kubectl-schedcache.exe", false: "kubectl-schedcache"}[l["os"] == "windows"]; p.Bin != wantBin {
			t.Errorf("%v: bin %s, want %s", l, p.Bin, wantBin)
		}
	}
	delete(sums, "kubectl-schedcache_v0.2.0-rc.1_darwin_arm64.tar.gz")
	if _, err := render(raw, sums, true); err == nil || !strings.Contains(err.Error(), "no archive kubectl-schedcache_v0.2.0-rc.1_darwin_arm64.tar.gz") {
		t.Errorf("-all with a platform missing: err = %v", err)
	}
}

func TestRenderErrors(t *testing.T) {
	const tmpl = "apiVersion: a\nkind: Plugin\nmetadata: {name: x}\nspec:\n  version: \"{{ .TagName }}\"\n  shortDescription: s\n" +
		"  platforms:\n  - {bin: x, uri: 'https://h/{{ .TagName }}/x_{{ .TagName }}_linux_amd64.tar.gz', selector: {matchLabels: {os: linux, arch: amd64}}}\n"
	one := map[string]string{"x_v1.0.0_linux_amd64.tar.gz": "00"}
	for _, tc := range []struct {
		name, tmpl string
		sums       map[string]string
		want       string
	}{
		{"other template", tmpl + "  caveats: 'see {{ .Tag }}'\n", one, "only the {{ .TagName }} and {{ .Version }} templates are supported"},
		{"no short description", strings.Replace(tmpl, "  shortDescription: s\n", "", 1), one, "spec.shortDescription are required"},
		{"unknown field", tmpl + "  shortDescripton: typo\n", one, "unknown field"},
		{"archive without platform", tmpl, map[string]string{"x_v1.0.0_linux_arm64.tar.gz": "00"}, "no platform of the template has it"},
		{"two tags", tmpl, map[string]string{"x_v1.0.0_linux_amd64.tar.gz": "00", "x_v1.0.1_linux_arm64.tar.gz": "00"}, "archives of two tags"},
		{"name without tag", tmpl, map[string]string{"x.tar.gz": "00"}, "want NAME_vX.Y.Z[-pre]_OS_ARCH"},
		{"not YAML", "spec: [", one, "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := render([]byte(tc.tmpl), tc.sums, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// run hashes the archive file itself: sha256("abc") is the FIPS 180-2
// example value.
func TestRunHashesArchive(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "kubectl-schedcache_v0.1.0_linux_amd64.tar.gz")
	if err := os.WriteFile(archive, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run([]string{"-template", "../../krew/schedcache.yaml", archive}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "sha256: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"; !strings.Contains(out.String(), want) {
		t.Errorf("manifest lacks %q:\n%s", want, out.String())
	}
	if err := run([]string{"-template", "../../krew/schedcache.yaml"}, &out); err == nil || !strings.Contains(err.Error(), "no archive given") {
		t.Errorf("no archive: err = %v", err)
	}
}
