// Command install installs one platform of a rendered krew manifest under a
// krew-style root, the way `kubectl krew install --manifest` does: it checks
// the archive's sha256, extracts it, applies the platform's files (default
// "*" -> "."), moves the result to <root>/store/<name>/<version>/ and links
// <root>/bin/kubectl-<name> to the platform's bin. hack/install-check.sh uses
// it to test the plugin through the real kubectl.
//
// It writes shell assignments (KREW_ROOT, INSTALL_DIR, BIN_DIR, LINK,
// PLUGIN_VERSION) to -env-out and the rendered caveats to -caveats-out.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/schedcache/kubectl-schedcache/hack/krew/manifest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "install:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		file       = flag.String("manifest", "", "rendered manifest (required)")
		archiveDir = flag.String("archive-dir", "", "read the archive named by the uri from this directory")
		root       = flag.String("root", "", "krew root to install into (required)")
		goos       = flag.String("os", runtime.GOOS, "platform os to install")
		goarch     = flag.String("arch", runtime.GOARCH, "platform arch to install")
		envOut     = flag.String("env-out", "", "write shell variable assignments to this file")
		caveatsOut = flag.String("caveats-out", "", "write the manifest's caveats to this file")
	)
	flag.Parse()
	if *file == "" || *root == "" || flag.NArg() > 0 {
		flag.Usage()
		return fmt.Errorf("-manifest and -root are required and no arguments are accepted")
	}
	data, err := os.ReadFile(*file)
	if err != nil {
		return err
	}
	p, err := manifest.Decode(data)
	if err != nil {
		return err
	}
	want := manifest.OSArch{OS: *goos, Arch: *goarch}
	pl, ok := p.MatchingPlatform(want)
	if !ok {
		return fmt.Errorf("plugin %q does not offer installation for %s", p.Metadata.Name, want)
	}
	archive, from, err := manifest.Fetcher{ArchiveDir: *archiveDir}.Fetch(pl.URI)
	if err != nil {
		return err
	}
	in, err := manifest.Install(*root, p, pl, archive, *goos)
	if err != nil {
		return fmt.Errorf("installing %s: %w", from, err)
	}
	fmt.Fprintf(os.Stderr, "installed %s %s for %s from %s\n  into %s\n  linked %s\n", p.Metadata.Name, p.Spec.Version, want, from, in.InstallDir, in.Link)
	if *envOut != "" {
		var b strings.Builder
		for _, kv := range [][2]string{
			{"KREW_ROOT", *root}, {"INSTALL_DIR", in.InstallDir}, {"BIN_DIR", in.BinDir},
			{"LINK", in.Link}, {"PLUGIN_VERSION", p.Spec.Version},
		} {
			fmt.Fprintf(&b, "%s=%s\n", kv[0], shellQuote(kv[1]))
		}
		if err := os.WriteFile(*envOut, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if *caveatsOut != "" {
		if err := os.WriteFile(*caveatsOut, []byte(p.Spec.Caveats), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
