package load

import (
	"context"
	"fmt"
	"io"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/pager"
	"k8s.io/utils/clock"
)

const (
	// PodFieldSelector is the field selector of kube-scheduler's pod
	// informer (newPodInformer): terminal pods never reach its cache.
	PodFieldSelector = "status.phase!=" + string(corev1.PodSucceeded) + ",status.phase!=" + string(corev1.PodFailed)
	// DefaultPageSize is the number of objects per list request when
	// ListOptions.PageSize is not set; it is client-go tools/pager's default.
	DefaultPageSize = 500
	// ClientQPS and ClientBurst are the client-side rate limits ConfigureClient
	// raises a rest.Config to, so that paging 150,000 pods 500 at a time (300
	// requests) is not throttled by client-go's defaults of 5 and 10.
	ClientQPS   = 100
	ClientBurst = 200
)

// ListOptions configures List.
type ListOptions struct {
	// PageSize is the maximum number of objects per list request (the
	// "limit" parameter). Zero or less means DefaultPageSize (500).
	PageSize int64
	// Progress, when not nil, receives a single progress line such as
	// "listed 1,500 nodes, 42,000/150,000 pods" if the listing takes more
	// than a second, rewritten in place (carriage return) at most ten times
	// a second and ended with a newline. The caller decides whether to pass
	// one (typically stderr, only when it is a terminal). Nil: no progress.
	Progress io.Writer
	// Host is the API server's address (typically rest.Config.Host), used in
	// Unreachable messages and in Cluster.Source. It may be empty.
	Host string

	// clock drives the progress line; nil means the real clock. Tests set a
	// fake clock.
	clock clock.WithTicker
}

// List lists every Node and every non-terminal Pod of all namespaces from
// the cluster behind client, the way kube-scheduler's informers see them.
//
// Nodes and pods are listed concurrently, each in pages of opts.PageSize
// through client-go's tools/pager, with consistent reads (no
// resourceVersion). Pods are listed with PodFieldSelector. As its page
// arrives, each item has its managedFields dropped, pods the fields no
// accounting reads (see slimPod), equal values are shared between items
// (share.go), and it is kept in list order; pages are never copied into a
// second, full list. The objects must be treated as read-only.
//
// The first failure cancels the other listing. Errors are *Error with Kind
// Forbidden (with the RBAC rule needed in Hint), Unauthorized, Unreachable
// (naming opts.Host) or Other. When ctx is canceled List returns promptly, at
// the latest when the request in flight returns, with an error wrapping
// context.Canceled; a ctx deadline counts as Unreachable.
func List(ctx context.Context, client kubernetes.Interface, opts ListOptions) (*Cluster, error) {
	pageSize := opts.PageSize
	if pageSize <= 0 {
		pageSize = DefaultPageSize
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}

	nodeCount, podCount := newCounter(), newCounter()
	if opts.Progress != nil {
		clk := opts.clock
		if clk == nil {
			clk = clock.RealClock{}
		}
		p := startProgress(opts.Progress, clk, nodeCount, podCount)
		defer p.Stop()
	}

	var (
		nodes []*corev1.Node
		pods  []*corev1.Pod
		wg    sync.WaitGroup
	)
	wg.Go(func() {
		share := newListSharer() // one per goroutine: not safe for concurrent use
		list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return client.CoreV1().Nodes().List(ctx, o)
		}
		err := eachItem(ctx, pageSize, nodeCount, list, metav1.ListOptions{}, func(obj runtime.Object) error {
			node, ok := obj.(*corev1.Node)
			if !ok {
				return fmt.Errorf("unexpected %T in a node list", obj)
			}
			node.ManagedFields = nil
			share.node(node)
			nodes = append(nodes, node)
			nodeCount.listed.Add(1)
			return nil
		})
		if err != nil {
			fail(apiError(ctx, err, "list", "nodes", opts.Host))
		}
	})
	wg.Go(func() {
		share := newListSharer()
		list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, o)
		}
		err := eachItem(ctx, pageSize, podCount, list, metav1.ListOptions{FieldSelector: PodFieldSelector}, func(obj runtime.Object) error {
			pod, ok := obj.(*corev1.Pod)
			if !ok {
				return fmt.Errorf("unexpected %T in a pod list", obj)
			}
			pod.ManagedFields = nil
			slimPod(pod)
			share.pod(pod)
			pods = append(pods, pod)
			podCount.listed.Add(1)
			return nil
		})
		if err != nil {
			fail(apiError(ctx, err, "list", "pods", opts.Host))
		}
	})
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}

	source := "cluster"
	if opts.Host != "" {
		source += " " + opts.Host
	}
	return &Cluster{Nodes: nodes, Pods: pods, Source: source}, nil
}

// eachItem calls fn for every item of the paged list that list returns,
// recording each page in c. fn runs on the calling goroutine, in list order.
func eachItem(ctx context.Context, pageSize int64, c *counter, list pager.ListPageFunc, opts metav1.ListOptions, fn func(runtime.Object) error) error {
	p := pager.New(func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		obj, err := list(ctx, o)
		if err != nil {
			return nil, err
		}
		m, err := meta.ListAccessor(obj)
		if err != nil {
			return nil, err
		}
		c.page(meta.LenList(obj), m.GetRemainingItemCount(), m.GetContinue() == "")
		return obj, nil
	})
	p.PageSize = pageSize
	return p.EachListItem(ctx, opts, fn)
}

// ConfigureClient prepares cfg for listing large clusters and reporting
// server warnings:
//   - protobuf on the wire (ContentType application/vnd.kubernetes.protobuf,
//     accepting protobuf then JSON);
//   - QPS and Burst raised to at least ClientQPS (100) and ClientBurst (200);
//     a negative QPS (rate limiting off) is kept, and cfg.RateLimiter, when
//     set, still takes precedence over both;
//   - when warnings is not nil, server warnings (HTTP Warning headers) written
//     to it once each, as "Warning: <message>", through cfg.WarningHandler
//     (not client-go's process-wide default handler).
func ConfigureClient(cfg *rest.Config, warnings io.Writer) {
	cfg.ContentType = runtime.ContentTypeProtobuf
	cfg.AcceptContentTypes = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	if cfg.QPS >= 0 && cfg.QPS < ClientQPS {
		cfg.QPS = ClientQPS
	}
	if cfg.Burst < ClientBurst {
		cfg.Burst = ClientBurst
	}
	if warnings != nil {
		cfg.WarningHandler = rest.NewWarningWriter(warnings, rest.WarningWriterOptions{Deduplicate: true})
		cfg.WarningHandlerWithContext = nil // it would take precedence over WarningHandler
	}
}
