package manifest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// templatePath is the real krew-release-bot template of the repository.
const templatePath = "../../../krew/schedcache.yaml"

func fetchFrom(dir string) func(string) ([]byte, error) {
	return func(uri string) ([]byte, error) {
		b, _, err := Fetcher{ArchiveDir: dir}.Fetch(uri)
		return b, err
	}
}

// TestRepositoryTemplateRendersToAValidManifest renders krew/schedcache.yaml
// for goreleaser-like archives and runs every check on the result, so a
// template edit that breaks a krew-index rule fails `go test` before any
// release is built.
func TestRepositoryTemplateRendersToAValidManifest(t *testing.T) {
	tmpl, err := os.ReadFile(templatePath)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"release", "file"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			sums := writeReleaseArchives(t, dir)
			opts := RenderOptions{Fetch: fetchFrom(dir)}
			if mode == "file" {
				opts.RewriteURI = func(uri string) (string, error) { return FileURI(filepath.Join(dir, path.Base(uri))) }
			}
			out, err := Render("schedcache.yaml", tmpl, testTag, opts)
			if err != nil {
				t.Fatal(err)
			}
			probs := Validate(filepath.Join(dir, "schedcache.yaml"), out, Options{
				Fetcher:       &Fetcher{ArchiveDir: dir},
				WantPlatforms: releasePlatforms,
				WorkDir:       t.TempDir(),
			})
			for _, p := range probs {
				t.Errorf("rendered template: %s", p)
			}
			p, err := Decode(out)
			if err != nil {
				t.Fatal(err)
			}
			if p.Spec.Version != testTag {
				t.Errorf("version = %q, want %q", p.Spec.Version, testTag)
			}
			for _, pair := range releasePlatforms {
				pl, ok := p.MatchingPlatform(pair)
				if !ok {
					t.Fatalf("no platform for %s", pair)
				}
				wantURI := "https://github.com/schedcache/kubectl-schedcache/releases/download/v0.1.0/" + archiveName(testTag, pair)
				if mode == "file" {
					wantURI, _ = FileURI(filepath.Join(dir, archiveName(testTag, pair)))
				}
				if pl.URI != wantURI || pl.Sha256 != sums[pair] {
					t.Errorf("%s: uri %s sha256 %s, want %s %s", pair, pl.URI, pl.Sha256, wantURI, sums[pair])
				}
			}
			if !strings.Contains(p.Spec.Caveats, "/store/schedcache/"+testTag+"\"") {
				t.Errorf("caveats do not name the install dir of %s:\n%s", testTag, p.Spec.Caveats)
			}
		})
	}
}

// TestRenderMatchesKrewReleaseBot pins the template functions to the bot's
// behaviour (pkg/source/template.go): the URL is itself a template with
// .TagName and .Version, the output is "uri: ...\n    sha256: ...", and
// indent strips the 4-space sha256 indentation before re-indenting.
func TestRenderMatchesKrewReleaseBot(t *testing.T) {
	data := []byte("archive bytes")
	sum := Sha256Hex(data)
	var fetched []string
	opts := RenderOptions{Fetch: func(uri string) ([]byte, error) {
		fetched = append(fetched, uri)
		return data, nil
	}}
	tmpl := `version: {{ .TagName }}
platforms:
- bin: x
    {{addURIAndSha "https://example.com/{{ .TagName }}/x_{{ .Version }}.tar.gz" .TagName }}
- bin: y
  {{ indent 2 (addURIAndSha "https://example.com/y.zip" .TagName) }}
`
	out, err := Render("t.yaml", []byte(tmpl), "v1.2.3-rc.1", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := `version: v1.2.3-rc.1
platforms:
- bin: x
    uri: https://example.com/v1.2.3-rc.1/x_1.2.3.tar.gz
    sha256: ` + sum + `
- bin: y
  uri: https://example.com/y.zip
  sha256: ` + sum + `
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if len(fetched) != 2 || fetched[0] != "https://example.com/v1.2.3-rc.1/x_1.2.3.tar.gz" {
		t.Errorf("fetched %v", fetched)
	}
	for tag, v := range map[string]string{"v0.1.0": "0.1.0", "release-2.10.3": "2.10.3", "latest": "latest"} {
		if got := versionFromTag(tag); got != v {
			t.Errorf("versionFromTag(%q) = %q, want %q", tag, got, v)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		tmpl string
		opts RenderOptions
		want string
	}{
		"unknown top-level value": {tmpl: "{{ .Version }}", want: "can't evaluate field Version"},
		"fetch fails":             {tmpl: `{{ addURIAndSha "https://example.com/a.zip" .TagName }}`, opts: RenderOptions{Fetch: fetchFrom(t.TempDir())}, want: "a.zip"},
		"bad URL template":        {tmpl: `{{ addURIAndSha "{{ .Nope" .TagName }}`, opts: RenderOptions{Fetch: fetchFrom(t.TempDir())}, want: "unclosed action"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Render("t", []byte(tc.tmpl), "v1.0.0", tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestFetcherDownloadsWithoutArchiveDir(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/a.tar.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("payload"))
	}))
	defer srv.Close()
	f := Fetcher{HTTPClient: srv.Client()}
	b, _, err := f.Fetch(srv.URL + "/a.tar.gz")
	if err != nil || string(b) != "payload" {
		t.Fatalf("Fetch = %q, %v", b, err)
	}
	if _, _, err := f.Fetch(srv.URL + "/missing.tar.gz"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("missing archive: err = %v", err)
	}
	if _, _, err := (Fetcher{}).Fetch(srv.URL + "/a.tar.gz"); err == nil {
		t.Fatal("downloads must be off without an HTTP client")
	}
}
