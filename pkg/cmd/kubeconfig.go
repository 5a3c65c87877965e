package cmd

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// missingKubeconfig returns the error for a live command with nothing to connect
// to: no kubeconfig was found where client-go looks (KUBECONFIG, else
// ~/.kube/config), no --server was given and the plugin does not run in a
// pod, so that cfg is client-go's deprecated fallback to
// http://localhost:8080. It names where it looked and that -f reads files,
// rather than letting the request fail with "connection refused" on
// localhost:8080, which kubectl prints. nil when there is a configuration.
func missingKubeconfig(loader clientcmd.ClientConfig, cfg *rest.Config, serverFlag *string) error {
	if serverFlag != nil && *serverFlag != "" {
		return nil
	}
	if cfg.Host != clientcmd.ClusterDefaults.Server {
		return nil
	}
	raw, err := loader.RawConfig()
	if err != nil || len(raw.Clusters) > 0 {
		return nil
	}
	where := "~/.kube/config"
	if access := loader.ConfigAccess(); access != nil {
		if paths := access.GetLoadingPrecedence(); len(paths) > 0 {
			where = strings.Join(paths, ", ")
		}
	}
	if env := os.Getenv(clientcmd.RecommendedConfigPathEnvVar); env != "" {
		where = fmt.Sprintf("KUBECONFIG=%s", env)
	}
	return &load.Error{
		Kind: load.Unreachable,
		Msg: fmt.Sprintf("no kubeconfig found (looked at %s) and no --server: there is no cluster to connect to; "+
			"give --kubeconfig or --server, or read a cluster from files with -f FILE", oneLine(where)),
	}
}

// userAgent is the User-Agent of every request: the plugin's own version
// (BuildVersion, as "version" prints it) and platform,
// "kubectl-schedcache/v0.3.1 (linux/amd64)", where client-go's default
// would carry its own unstamped v0.0.0.
func userAgent() string {
	info := BuildVersion()
	return fmt.Sprintf("kubectl-schedcache/%s (%s)", info.GitVersion, info.Platform)
}

// describeRequestTimeout says what --request-timeout does here, in place of
// cli-runtime's text (`(default "0")` and "zero means don't timeout"),
// which contradicts the default bound internal/load applies.
func describeRequestTimeout(cmd *cobra.Command) {
	fl := cmd.Flags().Lookup("request-timeout")
	if fl == nil {
		return
	}
	fl.DefValue = "" // the value "0" means the default bound, not none
	fl.Usage = fmt.Sprintf("Bound on waiting for the API server, e.g. 5s: the first answer (connection, TLS handshake, headers) "+
		"must start within it and every request end within it (default: %s for each answer to start, no bound on a request's length)",
		load.DefaultHeaderTimeout)
}
