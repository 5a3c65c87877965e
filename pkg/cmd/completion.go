package cmd

import (
	"context"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// Completion of node and pod names for flags, from the same input the
// command would read (-f files, or the current cluster). Warnings are
// discarded: the shell only wants candidates.

// completeNodeNames completes node names.
func completeNodeNames(f *InputFlags) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		names, err := f.nodeNames(cmd.Context())
		if err != nil {
			cobra.CompErrorln(err.Error())
			return nil, cobra.ShellCompDirectiveError
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completePodNames completes "namespace/name" of pods: every pod of -f files,
// or the pending pods of a live cluster (listing every pod of a large cluster
// on each TAB would be too slow).
func completePodNames(f *InputFlags) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		names, err := f.podNames(cmd.Context())
		if err != nil {
			cobra.CompErrorln(err.Error())
			return nil, cobra.ShellCompDirectiveError
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

func (f *InputFlags) nodeNames(ctx context.Context) ([]string, error) {
	if len(f.Filenames) > 0 {
		c, err := f.forCompletion().Load(ctx, quietStreams())
		if err != nil {
			return nil, err
		}
		var names []string
		for _, n := range c.Nodes {
			names = append(names, n.Name)
		}
		return names, nil
	}
	client, _, err := f.client(io.Discard)
	if err != nil {
		return nil, err
	}
	list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range list.Items {
		names = append(names, n.Name)
	}
	return names, nil
}

func (f *InputFlags) podNames(ctx context.Context) ([]string, error) {
	if len(f.Filenames) > 0 {
		c, err := f.forCompletion().Load(ctx, quietStreams())
		if err != nil {
			return nil, err
		}
		var names []string
		for _, p := range c.Pods {
			names = append(names, p.Namespace+"/"+p.Name)
		}
		return names, nil
	}
	client, _, err := f.client(io.Discard)
	if err != nil {
		return nil, err
	}
	list, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{
		FieldSelector: "spec.nodeName=," + load.PodFieldSelector,
	})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range list.Items {
		names = append(names, p.Namespace+"/"+p.Name)
	}
	return names, nil
}

// forCompletion copies f with duplicate file names dropped: cobra's
// __complete parses the flags a second time, and a slice flag appends.
func (f *InputFlags) forCompletion() *InputFlags {
	c := *f
	c.Filenames = nil
	seen := map[string]bool{}
	for _, name := range f.Filenames {
		if !seen[name] {
			seen[name] = true
			c.Filenames = append(c.Filenames, name)
		}
	}
	return &c
}

func quietStreams() genericiooptions.IOStreams {
	return genericiooptions.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
}

func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
