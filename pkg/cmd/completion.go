package cmd

import (
	"context"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
)

// Completion of node, pod and namespace names, for arguments and flags,
// from the same input the command would read (-f files, or the current
// cluster). Warnings are discarded: the shell only wants candidates.

// completeNames is the one completion of names: list gives the candidates
// for what was typed so far (toComplete); those it starts are offered,
// sorted, without file completion. A listing error is shown by the shell
// and offers nothing.
func completeNames(list func(ctx context.Context, toComplete string) ([]string, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		names, err := list(cmd.Context(), toComplete)
		if err != nil {
			cobra.CompErrorln(err.Error())
			return nil, cobra.ShellCompDirectiveError
		}
		return withPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeNodeNames completes node names.
func completeNodeNames(f *InputFlags) cobra.CompletionFunc {
	return completeNames(func(ctx context.Context, _ string) ([]string, error) { return f.nodeNames(ctx) })
}

// completeNamespaces completes -n: the namespaces of the -f files' pods,
// or the live cluster's namespaces.
func completeNamespaces(f *InputFlags) cobra.CompletionFunc {
	return completeNames(func(ctx context.Context, _ string) ([]string, error) { return f.namespaceNames(ctx) })
}

// completePodNames completes a pod flag (requested --pod, --evict): every
// pod of -f files, or the pending pods of a live cluster (listing every pod
// of a large cluster on each TAB would be too slow), named as podRefs says.
func completePodNames(f *InputFlags) cobra.CompletionFunc {
	return completeNames(func(ctx context.Context, toComplete string) ([]string, error) {
		return f.podRefs(ctx, toComplete, false)
	})
}

// completePendingPods completes why's POD arguments: pending pods only
// (a bound pod has nothing to explain), named as podRefs says; with -A
// nothing, since -A takes no POD argument.
func completePendingPods(f *InputFlags) cobra.CompletionFunc {
	return completeNames(func(ctx context.Context, toComplete string) ([]string, error) {
		if f.AllNamespaces {
			return nil, nil
		}
		return f.podRefs(ctx, toComplete, true)
	})
}

// podRefs names the pods (pending only, or every pod of -f files) in the
// forms a pod argument takes (parsePodRef): NAME for those of the pod
// namespace (-n, else the context's), as kubectl completes; once a "/" is
// typed, NAMESPACE/NAME for every namespace.
func (f *InputFlags) podRefs(ctx context.Context, toComplete string, pendingOnly bool) ([]string, error) {
	pods, err := f.podsForCompletion(ctx, pendingOnly)
	if err != nil {
		return nil, err
	}
	qualified := strings.Contains(toComplete, "/")
	ns := f.PodNamespace()
	var names []string
	for _, p := range pods {
		switch {
		case qualified:
			names = append(names, p.Namespace+"/"+p.Name)
		case p.Namespace == ns:
			names = append(names, p.Name)
		}
	}
	return names, nil
}

func (f *InputFlags) nodeNames(ctx context.Context) ([]string, error) {
	if len(f.Filenames) > 0 {
		c, err := f.forCompletion().Load(ctx, quietStreams(), new(pipeline.Notes))
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

// podsForCompletion lists the pods to complete: of -f files, every pod
// (pending only if asked); of a live cluster, the pending pods.
func (f *InputFlags) podsForCompletion(ctx context.Context, pendingOnly bool) ([]*v1.Pod, error) {
	if len(f.Filenames) > 0 {
		c, err := f.forCompletion().Load(ctx, quietStreams(), new(pipeline.Notes))
		if err != nil {
			return nil, err
		}
		var pods []*v1.Pod
		for _, p := range c.Pods {
			if !pendingOnly || p.Spec.NodeName == "" {
				pods = append(pods, p)
			}
		}
		return pods, nil
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
	pods := make([]*v1.Pod, len(list.Items))
	for i := range list.Items {
		pods[i] = &list.Items[i]
	}
	return pods, nil
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
