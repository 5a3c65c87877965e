// Command krew-manifest writes the krew plugin manifest for one release
// archive from the krews section of .goreleaser.yaml, as GoReleaser writes it
// for a release: the same name, version, descriptions, caveats and homepage,
// one platform (the archive's os/arch, its sha256, the release download URL).
// hack/package-host.sh uses it so that `make test` checks the krew install
// without building GoReleaser; `make dist` and `make release` still write the
// manifest with GoReleaser.
//
//	go run ./hack/krew-manifest -version v0.1.0 -os linux -arch amd64 \
//	    -archive dist/kubectl-schedcache_v0.1.0_linux_amd64.tar.gz -o schedcache.yaml
//
// The only template the configuration may use in the manifest's fields is
// {{ .Version }} (the version without its leading v, as in GoReleaser);
// any other is an error, so a new template cannot slip through unrendered.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// config is the part of .goreleaser.yaml the manifest is made from.
type config struct {
	Builds []struct {
		Binary string `json:"binary"`
	} `json:"builds"`
	Krews []struct {
		Name             string `json:"name"`
		Homepage         string `json:"homepage"`
		ShortDescription string `json:"short_description"`
		Description      string `json:"description"`
		Caveats          string `json:"caveats"`
	} `json:"krews"`
	Release struct {
		GitHub struct {
			Owner string `json:"owner"`
			Name  string `json:"name"`
		} `json:"github"`
	} `json:"release"`
}

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
	SHA256   string `json:"sha256"`
	Selector struct {
		MatchLabels map[string]string `json:"matchLabels"`
	} `json:"selector"`
}

type options struct {
	config, version, goos, goarch, archive, output string
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
	fs.StringVar(&o.config, "config", ".goreleaser.yaml", "GoReleaser configuration to read the krews section from")
	fs.StringVar(&o.version, "version", "", "release version, vX.Y.Z[-pre] (required)")
	fs.StringVar(&o.goos, "os", "", "the archive's GOOS (required)")
	fs.StringVar(&o.goarch, "arch", "", "the archive's GOARCH (required)")
	fs.StringVar(&o.archive, "archive", "", "the release archive (required)")
	fs.StringVar(&o.output, "o", "", "write the manifest to this file instead of stdout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.version == "" || o.goos == "" || o.goarch == "" || o.archive == "" {
		return errors.New("-version, -os, -arch and -archive are required")
	}
	if !strings.HasPrefix(o.version, "v") {
		return fmt.Errorf("-version %q: want vX.Y.Z[-pre]", o.version)
	}
	raw, err := os.ReadFile(o.config)
	if err != nil {
		return err
	}
	archive, err := os.ReadFile(o.archive)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(archive)
	out, err := render(raw, o, hex.EncodeToString(sum[:]))
	if err != nil {
		return fmt.Errorf("%s: %w", o.config, err)
	}
	if o.output == "" {
		_, err = stdout.Write(out)
		return err
	}
	return os.WriteFile(o.output, out, 0o644)
}

var versionTemplate = regexp.MustCompile(`\{\{\s*\.Version\s*\}\}`)

// render makes the manifest YAML from the GoReleaser configuration raw.
func render(raw []byte, o options, sha256 string) ([]byte, error) {
	var c config
	// The configuration has many more sections: only these are read.
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if len(c.Krews) != 1 {
		return nil, fmt.Errorf("want exactly one krews entry, found %d", len(c.Krews))
	}
	if len(c.Builds) == 0 || c.Builds[0].Binary == "" {
		return nil, errors.New("builds[0].binary is not set")
	}
	if c.Release.GitHub.Owner == "" || c.Release.GitHub.Name == "" {
		return nil, errors.New("release.github.owner and .name are not set")
	}
	k := c.Krews[0]
	if k.Name == "" || k.ShortDescription == "" {
		return nil, errors.New("krews[0].name and .short_description are required")
	}
	bare := strings.TrimPrefix(o.version, "v")
	var m manifest
	m.APIVersion = "krew.googlecontainertools.github.com/v1alpha2"
	m.Kind = "Plugin"
	m.Metadata.Name = k.Name
	m.Spec.Version = o.version
	var p platform
	p.Bin = c.Builds[0].Binary
	p.URI = fmt.Sprintf("https://github.com/%s/%s/releases/download/%s/%s",
		c.Release.GitHub.Owner, c.Release.GitHub.Name, o.version, filepath.Base(o.archive))
	p.SHA256 = sha256
	p.Selector.MatchLabels = map[string]string{"os": o.goos, "arch": o.goarch}
	m.Spec.Platforms = []platform{p}
	for _, f := range []struct {
		name     string
		src      string
		dst      *string
		required bool
	}{
		{"short_description", k.ShortDescription, &m.Spec.ShortDescription, true},
		{"homepage", k.Homepage, &m.Spec.Homepage, false},
		{"caveats", k.Caveats, &m.Spec.Caveats, false},
		{"description", k.Description, &m.Spec.Description, false},
	} {
		s := versionTemplate.ReplaceAllLiteralString(f.src, bare)
		if strings.Contains(s, "{{") {
			return nil, fmt.Errorf("krews[0].%s: only the {{ .Version }} template is supported", f.name)
		}
		*f.dst = s
	}
	body, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append([]byte("# Written by hack/krew-manifest from .goreleaser.yaml's krews section.\n"), body...), nil
}
