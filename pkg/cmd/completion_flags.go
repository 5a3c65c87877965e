package cmd

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// Completion of flag values: -o, --sort-by and --columns from the command's
// own table, -n from the input's namespaces, and --context, --cluster and
// --user from the kubeconfig (the names kubectl completes for them, read
// through cli-runtime's loader, so --kubeconfig and KUBECONFIG count).

// completeOutput offers -o's formats; custom-columns= alone is completed
// without a space after it, for the spec to follow.
func (f *OutputFlags) completeOutput(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	formats := []string{"table", "wide", formatCSV, formatCustomColumns + "="}
	for _, a := range f.PrintFlags.AllowedFormats() {
		if a != "name" {
			formats = append(formats, a)
		}
	}
	out := withPrefix(formats, toComplete)
	if len(out) == 1 && strings.HasSuffix(out[0], "=") {
		// custom-columns= alone: the spec follows without a space.
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeColumns offers the column names of the command's table, lower
// case, as --columns and --sort-by take them in any case. --columns takes a
// list: the names already given are kept as the prefix of each candidate.
func (f *OutputFlags) completeColumns(list bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if f.emptyTable == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		t, err := f.emptyTable(printers.TableOptions{Wide: true})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		done, last := "", toComplete
		if list {
			if i := strings.LastIndex(toComplete, ","); i >= 0 {
				done, last = toComplete[:i+1], toComplete[i+1:]
			}
		}
		var out []string
		for _, name := range t.ColumnNames() {
			name = strings.ToLower(name)
			if strings.HasPrefix(name, strings.ToLower(last)) {
				out = append(out, done+name)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

func (f *InputFlags) namespaceNames(ctx context.Context) ([]string, error) {
	if len(f.Filenames) > 0 {
		c, err := f.forCompletion().Load(ctx, quietStreams(), new(pipeline.Notes))
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		var names []string
		for _, p := range c.Pods {
			if !seen[p.Namespace] {
				seen[p.Namespace] = true
				names = append(names, p.Namespace)
			}
		}
		return names, nil
	}
	client, _, err := f.client(io.Discard)
	if err != nil {
		return nil, err
	}
	list, err := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(list.Items))
	for _, n := range list.Items {
		names = append(names, n.Name)
	}
	return names, nil
}

// completeKubeconfig completes --context, --cluster or --user with the
// names the kubeconfig defines.
func completeKubeconfig(f *InputFlags, what string) cobra.CompletionFunc {
	return completeNames(func(context.Context, string) ([]string, error) {
		cfg, err := f.ConfigFlags.ToRawKubeConfigLoader().RawConfig()
		if err != nil {
			return nil, err
		}
		var names []string
		switch what {
		case "context":
			names = slices.Collect(maps.Keys(cfg.Contexts))
		case "cluster":
			names = slices.Collect(maps.Keys(cfg.Clusters))
		case "user":
			names = slices.Collect(maps.Keys(cfg.AuthInfos))
		}
		return names, nil
	})
}

// registerCompletions registers the completions of the input flags.
func (f *InputFlags) registerCompletions(cmd *cobra.Command) {
	for _, what := range []string{"context", "cluster", "user"} {
		if cmd.Flags().Lookup(what) != nil {
			_ = cmd.RegisterFlagCompletionFunc(what, completeKubeconfig(f, what))
		}
	}
	if cmd.Flags().Lookup("namespace") != nil {
		_ = cmd.RegisterFlagCompletionFunc("namespace", completeNamespaces(f))
	}
}

// registerCompletions registers the completions of the output flags.
func (f *OutputFlags) registerCompletions(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("output", f.completeOutput)
	_ = cmd.RegisterFlagCompletionFunc("sort-by", f.completeColumns(false))
	_ = cmd.RegisterFlagCompletionFunc("columns", f.completeColumns(true))
}
