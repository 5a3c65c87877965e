package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The repository's own .goreleaser.yaml renders to a manifest with the krews
// section's fields and one platform for the archive given.
func TestRenderRepoConfig(t *testing.T) {
	raw, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	o := options{version: "v1.2.3", goos: "linux", goarch: "arm64", archive: "dist/kubectl-schedcache_v1.2.3_linux_arm64.tar.gz"}
	out, err := render(raw, o, "0123abcd")
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
	// The caveats name the install directory of this version, as GoReleaser
	// renders v{{ .Version }}.
	if !strings.Contains(m.Spec.Caveats, `/store/schedcache/v1.2.3"`) || strings.Contains(m.Spec.Caveats, "{{") {
		t.Errorf("caveats not rendered for v1.2.3:\n%s", m.Spec.Caveats)
	}
	if !strings.HasPrefix(m.Spec.Description, "Builds a local model of kube-scheduler's internal cache") {
		t.Errorf("description = %q", m.Spec.Description)
	}
}

func TestRenderErrors(t *testing.T) {
	const base = `
builds: [{binary: kubectl-x}]
release: {github: {owner: o, name: n}}
`
	o := options{version: "v1.0.0", goos: "linux", goarch: "amd64", archive: "a.tar.gz"}
	for _, tc := range []struct{ name, config, want string }{
		{"other template", base + "krews: [{name: x, short_description: s, caveats: 'see {{ .Tag }}'}]", "krews[0].caveats: only the {{ .Version }} template is supported"},
		{"no krews", base, "want exactly one krews entry, found 0"},
		{"no short description", base + "krews: [{name: x}]", "krews[0].name and .short_description are required"},
		{"no binary", "release: {github: {owner: o, name: n}}\nkrews: [{name: x, short_description: s}]", "builds[0].binary is not set"},
		{"not YAML", "krews: [", "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := render([]byte(tc.config), o, "00")
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
	err := run([]string{"-config", "../../.goreleaser.yaml", "-version", "v0.1.0", "-os", "linux", "-arch", "amd64", "-archive", archive}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"; !strings.Contains(out.String(), want) {
		t.Errorf("manifest lacks %q:\n%s", want, out.String())
	}
	if err := run([]string{"-version", "0.1.0", "-os", "linux", "-arch", "amd64", "-archive", archive}, &out); err == nil ||
		!strings.Contains(err.Error(), `-version "0.1.0": want vX.Y.Z[-pre]`) {
		t.Errorf("version without v: err = %v", err)
	}
}
