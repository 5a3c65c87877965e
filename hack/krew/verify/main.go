// Command verify checks a rendered krew manifest against the krew-index rules
// (see manifest.Validate): file name, name, apiVersion/kind, descriptions,
// version, platforms and selectors, and, for every platform, the archive's
// real sha256, a krew-style install of its files, the bin, a LICENSE file and
// the binary's os/arch.
//
//	verify -manifest dist/krew/schedcache.yaml -archive-dir dist \
//	  -artifacts dist/artifacts.json -checksums dist/checksums.txt
//
// With -artifacts (goreleaser's dist/artifacts.json) the manifest must serve
// exactly the os/arch pairs goreleaser archived, each with its own archive.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/schedcache/kubectl-schedcache/hack/krew/manifest"
)

func main() {
	ok, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

func run() (bool, error) {
	var (
		file       = flag.String("manifest", "", "rendered manifest (required)")
		archiveDir = flag.String("archive-dir", "", "read the archives named by the uri fields from this directory")
		download   = flag.Bool("download", false, "download http(s) archives when -archive-dir is not set")
		noArchives = flag.Bool("skip-archives", false, "check the manifest text only")
		platforms  = flag.String("platforms", "", "comma-separated os/arch pairs the manifest must serve exactly")
		artifacts  = flag.String("artifacts", "", "goreleaser artifacts.json; the manifest must serve exactly its archives")
		checksums  = flag.String("checksums", "", "goreleaser checksums.txt; every sha256 must match its entry")
	)
	flag.Parse()
	if *file == "" || flag.NArg() > 0 {
		flag.Usage()
		return false, fmt.Errorf("-manifest is required and no arguments are accepted")
	}
	var opts manifest.Options
	if !*noArchives {
		f := &manifest.Fetcher{ArchiveDir: *archiveDir}
		if *download {
			f.HTTPClient = manifest.DefaultHTTPClient
		}
		opts.Fetcher = f
	}
	if *platforms != "" {
		for _, s := range strings.Split(*platforms, ",") {
			goos, goarch, ok := strings.Cut(strings.TrimSpace(s), "/")
			if !ok {
				return false, fmt.Errorf("-platforms: %q is not os/arch", s)
			}
			opts.WantPlatforms = append(opts.WantPlatforms, manifest.OSArch{OS: goos, Arch: goarch})
		}
	}
	var archives map[manifest.OSArch]string
	if *artifacts != "" {
		var err error
		if archives, err = readArchives(*artifacts); err != nil {
			return false, err
		}
		for pair := range archives {
			opts.WantPlatforms = append(opts.WantPlatforms, pair)
		}
	}
	probs, err := manifest.ValidateFile(*file, opts)
	if err != nil {
		return false, err
	}
	if archives != nil {
		more, err := checkArchiveNames(*file, archives)
		if err != nil {
			return false, err
		}
		probs = append(probs, more...)
	}
	if *checksums != "" {
		more, err := checkChecksums(*file, *checksums)
		if err != nil {
			return false, err
		}
		probs = append(probs, more...)
	}
	for _, p := range probs {
		fmt.Printf("FAIL %s\n", p)
	}
	if len(probs) > 0 {
		fmt.Printf("%s: %d problem(s)\n", *file, len(probs))
		return false, nil
	}
	scope := "manifest text"
	if opts.Fetcher != nil {
		scope = "manifest and archives"
	}
	fmt.Printf("%s: OK (%s)\n", *file, scope)
	return true, nil
}

// checkChecksums compares every platform's sha256 with goreleaser's
// checksums.txt ("<hex>  <file name>" lines).
func checkChecksums(manifestPath, sumsPath string) ([]manifest.Problem, error) {
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		return nil, err
	}
	p, err := manifest.Decode(data)
	if err != nil {
		return nil, nil // reported by Validate
	}
	f, err := os.Open(sumsPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 {
			sums[fields[1]] = fields[0]
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var probs []manifest.Problem
	for i, pl := range p.Spec.Platforms {
		name := path.Base(pl.URI)
		switch want, ok := sums[name]; {
		case !ok:
			probs = append(probs, manifest.Problem{Rule: manifest.RuleSha256, Message: fmt.Sprintf("platforms[%d]: %s is not listed in %s", i, name, sumsPath)})
		case want != pl.Sha256:
			probs = append(probs, manifest.Problem{Rule: manifest.RuleSha256, Message: fmt.Sprintf("platforms[%d]: sha256 %s differs from %s in %s", i, pl.Sha256, want, sumsPath)})
		}
	}
	return probs, nil
}

// readArchives returns the archive file name goreleaser built per os/arch.
func readArchives(p string) (map[manifest.OSArch]string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var list []struct {
		Name   string `json:"name"`
		Type   string `json:"type"`
		Goos   string `json:"goos"`
		Goarch string `json:"goarch"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	out := map[manifest.OSArch]string{}
	for _, a := range list {
		if a.Type == "Archive" {
			out[manifest.OSArch{OS: a.Goos, Arch: a.Goarch}] = a.Name
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no archives", p)
	}
	return out, nil
}

// checkArchiveNames checks that the platform serving each os/arch points at
// the archive goreleaser built for that os/arch.
func checkArchiveNames(manifestPath string, archives map[manifest.OSArch]string) ([]manifest.Problem, error) {
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		return nil, err
	}
	p, err := manifest.Decode(data)
	if err != nil {
		return nil, nil // reported by Validate
	}
	var probs []manifest.Problem
	for pair, name := range archives {
		if pl, ok := p.MatchingPlatform(pair); ok && path.Base(pl.URI) != name {
			probs = append(probs, manifest.Problem{Rule: manifest.RulePlatformSet,
				Message: fmt.Sprintf("%s is served by %s, but goreleaser archived %s for it", pair, path.Base(pl.URI), name)})
		}
	}
	return probs, nil
}
