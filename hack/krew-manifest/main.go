// Command krew-manifest renders krew/schedcache.yaml, the template of the
// plugin's krew-index manifest, for the release archives of one build: the
// tag they carry in their names fills {{ .TagName }} (and, without its v,
// {{ .Version }}); each platform of the template whose archive is given gets
// that archive's sha256, and the platforms without an archive are left out.
// `make dist`, `make dist-host` and `make release` run it on GoReleaser's
// archives (with -all for the six-platform builds), hack/package-host.sh on
// the host archive that `make test` installs.
//
//	go run ./hack/krew-manifest -template krew/schedcache.yaml -o dist/krew/schedcache.yaml \
//	    dist/kubectl-schedcache_v0.1.0_linux_amd64.tar.gz dist/kubectl-schedcache_v0.1.0_windows_amd64.zip …
//
// Any template other than those two is an error, so a new one cannot slip
// through unrendered; so is an archive that no platform names, archives of
// different tags, and, with -all, a platform without its archive.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// manifest is krew's Plugin (krew.googlecontainertools.github.com/v1alpha2).
type manifest struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string     `json:"version"`
		Platforms        []platform `json:"platforms"`
		ShortDescription string     `json:"shortDescription"`
		Homepage         string     `json:"homepage,omitempty"`
		Caveats          string     `json:"caveats,omitempty"`
		Description      string     `json:"description,omitempty"`
	} `json:"spec"`
}

type platform struct {
	Bin      string `json:"bin"`
	URI      string `json:"uri"`
	SHA256   string `json:"sha256,omitempty"`
	Selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	} `json:"selector"`
}

type options struct {
	template, output string
	all              bool
	archives         []string
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "krew-manifest:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("krew-manifest", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.template, "template", "krew/schedcache.yaml", "the manifest template")
	fs.StringVar(&o.output, "o", "", "write the manifest to this file instead of stdout")
	fs.BoolVar(&o.all, "all", false, "every platform of the template must have its archive")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.archives = fs.Args()
	if len(o.archives) == 0 {
		return errors.New("no archive given")
	}
	raw, err := os.ReadFile(o.template)
	if err != nil {
		return err
	}
	sums := map[string]string{}
	for _, a := range o.archives {
		data, err := os.ReadFile(a)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[filepath.Base(a)] = hex.EncodeToString(sum[:])
	}
	out, err := render(raw, sums, o.all)
	if err != nil {
		return fmt.Errorf("%s: %w", o.template, err)
	}
	if o.output == "" {
		_, err = stdout.Write(out)
		return err
	}
	return os.WriteFile(o.output, out, 0o644)
}

// archiveTag is the release tag in an archive's name:
// kubectl-schedcache_<tag>_<os>_<arch>.tar.gz (.zip on Windows).
var archiveTag = regexp.MustCompile(`_(v[0-9][^_]*)_[a-z0-9]+_[a-z0-9]+\.(?:tar\.gz|zip)$`)

var (
	tagNameTemplate = regexp.MustCompile(`\{\{\s*\.TagName\s*\}\}`)
	versionTemplate = regexp.MustCompile(`\{\{\s*\.Version\s*\}\}`)
)

// render makes the manifest YAML from the template raw for the archives
// whose base names map to their sha256 in sums.
func render(raw []byte, sums map[string]string, all bool) ([]byte, error) {
	tag := ""
	for name := range sums {
		m := archiveTag.FindStringSubmatch(name)
		if m == nil {
			return nil, fmt.Errorf("archive %s: want NAME_vX.Y.Z[-pre]_OS_ARCH.tar.gz or .zip", name)
		}
		if tag != "" && m[1] != tag {
			return nil, fmt.Errorf("archives of two tags: %s and %s", tag, m[1])
		}
		tag = m[1]
	}
	text := tagNameTemplate.ReplaceAll(raw, []byte(tag))
	text = versionTemplate.ReplaceAll(text, []byte(strings.TrimPrefix(tag, "v")))
	for i, line := range bytes.Split(text, []byte("\n")) {
		if bytes.Contains(line, []byte("{{")) && !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			return nil, fmt.Errorf("line %d: only the {{ .TagName }} and {{ .Version }} templates are supported", i+1)
		}
	}
	var m manifest
	if err := yaml.UnmarshalStrict(text, &m); err != nil {
		return nil, err
	}
	if m.Metadata.Name == "" || m.Spec.ShortDescription == "" {
		return nil, errors.New("metadata.name and spec.shortDescription are required")
	}
	var kept []platform
	used := map[string]bool{}
	for _, p := range m.Spec.Platforms {
		name := path.Base(p.URI)
		sum, ok := sums[name]
		if !ok {
			if all {
				return nil, fmt.Errorf("no archive %s for platform %v", name, p.Selector.MatchLabels)
			}
			continue
		}
		p.SHA256, used[name] = sum, true
		kept = append(kept, p)
	}
	for name := range sums {
		if !used[name] {
			return nil, fmt.Errorf("archive %s: no platform of the template has it as its uri", name)
		}
	}
	m.Spec.Platforms = kept
	body, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append([]byte("# Written by hack/krew-manifest from krew/schedcache.yaml.\n"), body...), nil
}
