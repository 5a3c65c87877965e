// Command render renders the krew-release-bot template (krew/schedcache.yaml)
// into a concrete krew manifest, with the same template functions as the bot
// (see manifest.Render).
//
// By default the rendered uri fields are the GitHub release URLs, exactly as
// krew-release-bot would write them for that tag, and the sha256 values come
// from the local archives named by those URLs in -archive-dir (goreleaser's
// dist/). Such a manifest is what gets submitted, and can be tried with
// `kubectl krew install --manifest=<out> --archive=dist/<archive>`.
// With -uri=file the uri fields are file:// URIs of the local archives
// instead. Without -archive-dir the archives are downloaded, as the bot does.
//
// The tag is -tag, or "v" + version from goreleaser's dist/metadata.json
// (-metadata), which is how .goreleaser.yaml names the archives.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/schedcache/kubectl-schedcache/hack/krew/manifest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		tmplPath   = flag.String("template", "", "krew-release-bot template (required)")
		tag        = flag.String("tag", "", "release tag, e.g. v0.1.0")
		metadata   = flag.String("metadata", "", "goreleaser dist/metadata.json; the tag is \"v\" + its version (used when -tag is empty)")
		archiveDir = flag.String("archive-dir", "", "serve release URLs from this directory (by file name) instead of downloading them")
		uriMode    = flag.String("uri", "release", "uri written into the manifest: release (the URL in the template) or file (file:// of the local archive)")
		out        = flag.String("o", "", "output file (default stdout)")
	)
	flag.Parse()
	if *tmplPath == "" || flag.NArg() > 0 {
		flag.Usage()
		return fmt.Errorf("-template is required and no arguments are accepted")
	}
	if *tag == "" && *metadata != "" {
		v, err := versionFromMetadata(*metadata)
		if err != nil {
			return err
		}
		*tag = "v" + v
	}
	if *tag == "" {
		return fmt.Errorf("-tag or -metadata is required")
	}

	f := manifest.Fetcher{ArchiveDir: *archiveDir}
	if *archiveDir == "" {
		f.HTTPClient = manifest.DefaultHTTPClient
	}
	opts := manifest.RenderOptions{
		Fetch: func(uri string) ([]byte, error) {
			b, _, err := f.Fetch(uri)
			return b, err
		},
	}
	switch *uriMode {
	case "release":
	case "file":
		if *archiveDir == "" {
			return fmt.Errorf("-uri=file needs -archive-dir")
		}
		opts.RewriteURI = func(uri string) (string, error) {
			return manifest.FileURI(filepath.Join(*archiveDir, path.Base(uri)))
		}
	default:
		return fmt.Errorf("-uri must be release or file, got %q", *uriMode)
	}

	tmpl, err := os.ReadFile(*tmplPath)
	if err != nil {
		return err
	}
	rendered, err := manifest.Render(filepath.Base(*tmplPath), tmpl, *tag, opts)
	if err != nil {
		return err
	}
	// Like the bot, which reads the plugin name from the rendered spec.
	p, err := manifest.Decode(rendered)
	if err != nil {
		return fmt.Errorf("rendered manifest does not parse: %w", err)
	}
	if *out == "" {
		_, err = os.Stdout.Write(rendered)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(*out, rendered, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "rendered %s %s (%d platforms, uri=%s) to %s\n", p.Metadata.Name, p.Spec.Version, len(p.Spec.Platforms), *uriMode, *out)
	return nil
}

func versionFromMetadata(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	var m struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("%s: %w", p, err)
	}
	if m.Version == "" {
		return "", fmt.Errorf("%s has no version", p)
	}
	return m.Version, nil
}
