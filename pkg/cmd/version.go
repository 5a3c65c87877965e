package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// Build information, stamped at link time with
// -ldflags "-X github.com/schedcache/kubectl-schedcache/pkg/cmd.version=v0.1.0 ...".
var (
	version = "dev"
	commit  = "unknown"
	date    = "unknown"
)

// VersionOptions prints the plugin's build information.
type VersionOptions struct {
	genericiooptions.IOStreams
}

// NewCmdVersion returns the "version" subcommand.
func NewCmdVersion(streams genericiooptions.IOStreams) *cobra.Command {
	o := &VersionOptions{IOStreams: streams}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the plugin version, commit, build date, Go and client-go versions",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return o.Run()
		},
	}
}

// Run writes one "key: value" line per build fact to Out.
func (o *VersionOptions) Run() error {
	_, err := fmt.Fprintf(o.Out, "version: %s\ncommit: %s\ndate: %s\ngo: %s\nclient-go: %s\n",
		pluginVersion(), commit, date, runtime.Version(), clientGoVersion())
	return err
}

// pluginVersion is the ldflags-stamped version, or, for "go install
// …@vX.Y.Z" builds that carry no ldflags, the main module's version.
func pluginVersion() string {
	if version != "dev" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return version
}

// clientGoVersion reads the linked k8s.io/client-go module version from the
// binary's build info, so it can never disagree with go.mod.
func clientGoVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/client-go" {
			return dep.Version
		}
	}
	return "unknown"
}
