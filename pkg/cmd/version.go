package cmd

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"
)

// Build information, stamped at link time by the Makefile and GoReleaser with
// -ldflags "-X github.com/schedcache/kubectl-schedcache/pkg/cmd.version=v0.1.0 ...".
// version is a semantic version: the release tag (v0.x.y) on a tagged tree,
// v0.x.y-dev+<commit> otherwise (see hack/version.sh).
var (
	version = ""
	commit  = ""
	date    = ""
)

var versionExample = `  # The plugin's version, as kubectl version prints the client's
  kubectl schedcache version

  # For scripts and bug reports: every build fact as JSON
  kubectl schedcache version -o json`

// VersionInfo is the build of the plugin, printed by "version -o json|yaml"
// under "clientVersion", as kubectl version prints its own.
type VersionInfo struct {
	// GitVersion is a semantic version: v0.x.y for a release build,
	// v0.x.y-dev+<commit> for a build from an untagged tree.
	GitVersion string `json:"gitVersion"`
	// GitCommit is the full commit hash the binary was built from, or "unknown".
	GitCommit string `json:"gitCommit"`
	// BuildDate is the commit date (RFC 3339) of a release build, or "unknown".
	BuildDate string `json:"buildDate"`
	GoVersion string `json:"goVersion"`
	// Platform is GOOS/GOARCH.
	Platform string `json:"platform"`
	// KubernetesLibraries maps the linked Kubernetes modules (k8s.io/client-go,
	// k8s.io/kubernetes: the scheduler framework) to their versions.
	KubernetesLibraries map[string]string `json:"kubernetesLibraries"`
}

// versionOutput is the document "version -o json|yaml" prints.
type versionOutput struct {
	ClientVersion VersionInfo `json:"clientVersion"`
}

// kubernetesModules are the Kubernetes libraries whose versions "version" reports.
var kubernetesModules = []string{"k8s.io/client-go", "k8s.io/kubernetes"}

// VersionOptions prints the plugin's build information.
type VersionOptions struct {
	Output string
	// Client is accepted as kubectl version accepts it; the plugin never asks
	// the server for its version here, so it changes nothing.
	Client bool
	genericiooptions.IOStreams
}

// NewCmdVersion returns the "version" subcommand.
func NewCmdVersion(streams genericiooptions.IOStreams) *cobra.Command {
	o := &VersionOptions{IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the plugin version, commit, build date, Go, platform and Kubernetes library versions",
		Long: `Print the plugin's build: its semantic version (v0.x.y for a release,
v0.x.y-dev+<commit> for a build from an untagged tree), git commit, build date,
Go version, platform and the versions of the Kubernetes libraries it links
(k8s.io/client-go, and k8s.io/kubernetes whose scheduler framework "why" runs).
The server is never contacted: --client is accepted, as kubectl version accepts it.`,
		Example: versionExample,
		Args:    noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runCommand(o, nil, c, args)
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "Output format: json or yaml (default: key: value lines)")
	cmd.Flags().BoolVar(&o.Client, "client", o.Client, "Print the client (plugin) version only, as kubectl does; the plugin has no other")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"json", "yaml"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// Complete has nothing to derive: version reads no cluster and no file.
func (o *VersionOptions) Complete(_ genericclioptions.RESTClientGetter, _ *cobra.Command, _ []string) error {
	return nil
}

// Validate rejects output formats other than json and yaml.
func (o *VersionOptions) Validate() error {
	switch o.Output {
	case "", "json", "yaml":
		return nil
	}
	return fmt.Errorf("unknown output format %q: allowed formats are json, yaml", o.Output)
}

// Run writes the build information to Out: "key: value" lines, or the
// versionOutput document as JSON or YAML.
func (o *VersionOptions) Run() error {
	info := BuildVersion()
	switch o.Output {
	case "json":
		b, err := json.MarshalIndent(versionOutput{ClientVersion: info}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Out, "%s\n", b)
		return err
	case "yaml":
		b, err := yaml.Marshal(versionOutput{ClientVersion: info})
		if err != nil {
			return err
		}
		_, err = o.Out.Write(b)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "version: %s\ncommit: %s\ndate: %s\ngo: %s\nplatform: %s\n",
		info.GitVersion, info.GitCommit, info.BuildDate, info.GoVersion, info.Platform)
	for _, m := range kubernetesModules {
		fmt.Fprintf(&b, "%s: %s\n", strings.TrimPrefix(m, "k8s.io/"), info.KubernetesLibraries[m])
	}
	_, err := fmt.Fprint(o.Out, b.String())
	return err
}

// BuildVersion returns the binary's build information: the ldflags-stamped
// values when the build stamped them, else what the Go toolchain recorded
// (runtime/debug.ReadBuildInfo: the module version of "go install …@v0.x.y",
// the vcs.revision of a build in a git checkout).
func BuildVersion() VersionInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildVersion(bi, version, commit, date)
}

// buildVersion derives VersionInfo from build info bi (nil when unavailable)
// and the stamped values (empty when not stamped).
func buildVersion(bi *debug.BuildInfo, stampedVersion, stampedCommit, stampedDate string) VersionInfo {
	settings := map[string]string{}
	libs := map[string]string{}
	for _, m := range kubernetesModules {
		libs[m] = "unknown"
	}
	mainVersion := ""
	if bi != nil {
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		for _, dep := range bi.Deps {
			if _, ok := libs[dep.Path]; ok {
				libs[dep.Path] = moduleVersion(dep)
			}
		}
		mainVersion = bi.Main.Version
	}
	info := VersionInfo{
		GitVersion: stampedVersion, GitCommit: or(stampedCommit, settings["vcs.revision"], "unknown"),
		BuildDate: or(stampedDate, settings["vcs.time"], "unknown"),
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, KubernetesLibraries: libs,
	}
	if info.GitVersion == "" {
		info.GitVersion = unstampedVersion(mainVersion, settings["vcs.revision"], settings["vcs.modified"] == "true")
	}
	return info
}

// releaseVersion matches a release tag: v0.x.y with an optional pre-release
// (v0.2.0-rc.1) but no build metadata, and not a Go pseudo-version.
var releaseVersion = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// pseudoVersion matches the versions Go gives untagged commits:
// v0.0.0-20250102150405-abcdef123456 (and the .0.2025… forms after a tag).
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}(\+dirty)?$`)

// unstampedVersion is the version of a build without ldflags: the module
// version of "go install …@v0.x.y", else v0.0.0-dev+<commit>[.dirty].
func unstampedVersion(mainVersion, revision string, modified bool) string {
	if releaseVersion.MatchString(mainVersion) && !pseudoVersion.MatchString(mainVersion) {
		return mainVersion
	}
	meta := "unknown"
	if revision != "" {
		meta = shortCommit(revision)
	}
	if modified {
		meta += ".dirty"
	}
	return "v0.0.0-dev+" + meta
}

func shortCommit(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// moduleVersion is the version actually linked: a replace directive's
// target version wins over the required one.
func moduleVersion(m *debug.Module) string {
	if m.Replace != nil && m.Replace.Version != "" {
		return m.Replace.Version
	}
	return m.Version
}

func or(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
