// Package manifest renders, checks and installs krew plugin manifests the way
// krew-release-bot, the krew-index CI (validate-krew-manifest) and krew itself
// do, so a release can be verified locally without krew or network access.
//
// What it mirrors, from kubernetes-sigs/krew v0.4.5 (the krew that
// krew-index's CI runs, and still so in v0.5.0):
//   - Validate: internal/index/validation.ValidatePlugin (apiVersion, kind,
//     name, shortDescription, version as semver, platforms: uri, sha256, bin,
//     files, selector keys) and cmd/validate-krew-manifest (every platform
//     selects one of its allPlatforms, no two platforms overlap, each archive
//     installs and brings a LICENSE file);
//   - Extract and Install: internal/download (archive format from the
//     content, no ".." or absolute entries) and internal/installation
//     (sha256 of the archive, files[] moves, the bin link under KREW_ROOT/bin),
//     with archives from local files instead of the network (Fetcher);
//   - the krew-index review conventions (50-character shortDescription,
//     description and caveats wrapped at 80 columns).
//
// None of that can be imported: krew keeps its validation and installer in
// internal/ packages, and its only importable packages (pkg/index,
// pkg/constants) are the manifest types and constants, which would pull
// client-go's apimachinery into this module for five structs. One deliberate
// difference: selectors must use matchLabels (matchExpressions, which krew
// accepts, are reported), since the project's manifest never needs them.
package manifest

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/yaml"
)

const (
	// APIVersion is the only apiVersion krew accepts (constants.CurrentAPIVersion).
	APIVersion = "krew.googlecontainertools.github.com/v1alpha2"
	// Kind is the only kind krew accepts (constants.PluginKind).
	Kind = "Plugin"
	// Extension is the manifest file extension (constants.ManifestExtension).
	Extension = ".yaml"
)

// Plugin is a krew plugin manifest (sigs.k8s.io/krew/pkg/index.Plugin).
type Plugin struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   Metadata   `json:"metadata"`
	Spec       PluginSpec `json:"spec"`
}

// Metadata is the part of ObjectMeta a plugin manifest uses.
type Metadata struct {
	Name string `json:"name"`
}

// PluginSpec is the spec of a plugin manifest.
type PluginSpec struct {
	Version          string     `json:"version,omitempty"`
	ShortDescription string     `json:"shortDescription,omitempty"`
	Description      string     `json:"description,omitempty"`
	Caveats          string     `json:"caveats,omitempty"`
	Homepage         string     `json:"homepage,omitempty"`
	Platforms        []Platform `json:"platforms,omitempty"`
}

// Platform is one installable archive and the os/arch pairs it serves.
type Platform struct {
	Selector *LabelSelector  `json:"selector,omitempty"`
	URI      string          `json:"uri,omitempty"`
	Sha256   string          `json:"sha256,omitempty"`
	Files    []FileOperation `json:"files"`
	Bin      string          `json:"bin,omitempty"`
}

// FileOperation moves files matching From (a glob) from the extracted archive
// to To inside the plugin's install directory.
type FileOperation struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// LabelSelector mirrors metav1.LabelSelector. matchExpressions is decoded only
// so the checker can reject it with a clear message.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement mirrors metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// OSArch is a GOOS/GOARCH pair as krew matches it against selectors.
type OSArch struct {
	OS, Arch string
}

func (p OSArch) String() string { return p.OS + "/" + p.Arch }

// SupportedPlatforms are the os/arch pairs krew-index CI checks selectors
// against (allPlatforms in cmd/validate-krew-manifest/main.go).
var SupportedPlatforms = []OSArch{
	{"windows", "386"}, {"windows", "amd64"}, {"windows", "arm64"},
	{"linux", "386"}, {"linux", "amd64"}, {"linux", "arm"}, {"linux", "arm64"}, {"linux", "ppc64le"},
	{"darwin", "386"}, {"darwin", "amd64"}, {"darwin", "arm64"},
}

// Matches reports whether the selector selects the pair. Only matchLabels is
// evaluated; selectors with matchExpressions are rejected by Validate.
func (s *LabelSelector) Matches(p OSArch) bool {
	if s == nil || len(s.MatchLabels) == 0 || len(s.MatchExpressions) > 0 {
		return false
	}
	for k, v := range s.MatchLabels {
		switch {
		case k == "os" && v == p.OS, k == "arch" && v == p.Arch:
		default:
			return false
		}
	}
	return true
}

// Decode parses a manifest strictly: unknown or duplicate fields are errors,
// which catches typos such as "shortDescripton" that krew would silently drop.
func Decode(data []byte) (*Plugin, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("empty manifest")
	}
	var p Plugin
	if err := yaml.UnmarshalStrict(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// MatchingPlatform returns the first platform whose selector matches the pair,
// as krew's GetMatchingPlatform does.
func (p *Plugin) MatchingPlatform(want OSArch) (Platform, bool) {
	for _, pl := range p.Spec.Platforms {
		if pl.Selector.Matches(want) {
			return pl, true
		}
	}
	return Platform{}, false
}
