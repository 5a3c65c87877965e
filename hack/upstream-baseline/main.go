// Command upstream-baseline feeds a `kubectl get -o json` file to
// kube-scheduler's own cache (k8s.io/kubernetes v1.36.3,
// pkg/scheduler/backend/cache) the plain client-go way, as the baseline
// that `make bench-baseline` times kubectl-schedcache's `dump -f` against
// (docs/PERFORMANCE.md). It is a measuring tool, not part of the plugin.
//
// What it does is what a small Go program using the upstream packages
// would do: read the file, decode it with client-go's scheme (the
// UniversalDeserializer: the List, then each item), drop managedFields (the
// scheduler's informer transform), then AddNode every node and AddPod every
// assigned pod that is neither Succeeded nor Failed (the scheduler's
// informer field selector), and finally take the cache's Dump. It prints
// one line: the nodes and pods the cache holds.
//
//	go run ./hack/upstream-baseline FILE
package main

import (
	"context"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	schedcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	schedmetrics "k8s.io/kubernetes/pkg/scheduler/metrics"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: upstream-baseline FILE")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-baseline:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	decoder := scheme.Codecs.UniversalDeserializer()
	obj, _, err := decoder.Decode(data, nil, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	list, ok := obj.(*corev1.List)
	if !ok {
		return fmt.Errorf("%s: a %T, want a v1 List", path, obj)
	}
	schedmetrics.Register() // the cache updates its gauges every second, as in kube-scheduler
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cache := schedcache.New(ctx, nil, false)
	logger := klog.Background()
	for i := range list.Items {
		item, _, err := decoder.Decode(list.Items[i].Raw, nil, nil)
		if err != nil {
			return fmt.Errorf("%s: item %d: %w", path, i+1, err)
		}
		list.Items[i] = runtime.RawExtension{} // as an informer, keep only the object
		if err := add(cache, logger, item); err != nil {
			return fmt.Errorf("%s: item %d: %w", path, i+1, err)
		}
	}
	d := cache.Dump()
	pods := 0
	for _, n := range d.Nodes {
		pods += len(n.Pods)
	}
	fmt.Printf("nodes %d pods %d\n", len(d.Nodes), pods)
	return nil
}

// add feeds one object to the cache as the scheduler's event handlers do.
func add(cache schedcache.Cache, logger klog.Logger, obj runtime.Object) error {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	switch o := obj.(type) {
	case *corev1.Node:
		cache.AddNode(logger, o)
	case *corev1.Pod:
		if o.Spec.NodeName == "" || o.Status.Phase == corev1.PodSucceeded || o.Status.Phase == corev1.PodFailed {
			return nil
		}
		return cache.AddPod(logger, o)
	}
	return nil
}
