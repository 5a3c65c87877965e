package load

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	ClientQPS = 100
	// ClientBurst is the burst that goes with ClientQPS.
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
	// Kinds are the kinds listed besides nodes and pods, into
	// Cluster.Objects (typically SchedulingKinds, for decisions); nil lists
	// none. A kind the user may not list (403 Forbidden) or that the server
	// does not serve (404 Not Found, e.g. resource.k8s.io/v1 before
	// Kubernetes v1.34) is not a failure: it is named on Warnings, with the
	// plugins whose verdicts become approximate, and in Cluster.Unlisted.
	Kinds []SchedulingKind
	// KeepEmptyDir keeps the pods' emptyDir volumes (see FileOptions).
	KeepEmptyDir bool
	// Warnings receives those warnings, one line each; nil discards them.
	Warnings io.Writer
	// Sink, when not nil, receives the nodes and pods as they are listed
	// (pods once every node is in), so that the model is built while the
	// listing goes on; the progress line then counts what it was given.
	Sink Sink
	// OnNodeTotal, when not nil, is called once, from the node listing's
	// goroutine, with the number of nodes the first page announces (its
	// items plus remainingItemCount; the items alone when the server sends
	// no count), so that the caller can size itself before the pods arrive.
	OnNodeTotal func(nodes int64)

	// clock drives the progress line; nil means the real clock. Tests set a
	// fake clock.
	clock clock.WithTicker
}

// List lists every Node and every non-terminal Pod of all namespaces from
// the cluster behind client, the way kube-scheduler's informers see them,
// and the objects of opts.Kinds.
//
// Every resource is listed concurrently, each in pages of opts.PageSize
// through client-go's tools/pager, with consistent reads (no
// resourceVersion). Pods are listed with PodFieldSelector. As its page
// arrives, each item goes through the same handling as objects read from
// files (collect.go): managedFields dropped, pods slimmed of the fields no
// accounting reads (see slimPod), equal values shared between items
// (share.go); it is kept in list order, and pages are never copied into a
// second, full list. The objects must be treated as read-only. Objects of
// opts.Kinds come in the order of opts.Kinds, each kind in list order.
//
// The first failure cancels the other listings. Errors are *Error with
// Kind Forbidden (with the RBAC rule needed in Hint), Unauthorized,
// Unreachable (naming opts.Host) or Other; for opts.Kinds, 403 and 404 are
// warnings instead. When ctx is canceled List returns promptly, at the
// latest when the request in flight returns, with an error wrapping
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

	nodeCount, podCount, objectCount := newCounter(), newCounter(), newCounter()
	feed := &sinkFeed{sink: opts.Sink}
	if opts.Progress != nil {
		clk := opts.clock
		if clk == nil {
			clk = clock.RealClock{}
		}
		var objects *counter
		if len(opts.Kinds) > 0 {
			objects = objectCount
		}
		p := startProgress(opts.Progress, clk, nodeCount, podCount, objects)
		p.feed = feed
		defer p.Stop()
	}

	var (
		nodes    []*corev1.Node
		pods     []*corev1.Pod
		objects  = make([][]runtime.Object, len(opts.Kinds))
		unlisted = make([]error, len(opts.Kinds))
		wg       sync.WaitGroup
		// The sink gets pods once every node is in (nodesDone); fed
		// counts the pods given so far.
		nodesDone = make(chan struct{})
		fed       int
	)
	wg.Go(func() {
		defer close(nodesDone)
		share := newListSharer() // one per goroutine: not safe for concurrent use
		told := opts.OnNodeTotal == nil
		list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			l, err := client.CoreV1().Nodes().List(ctx, o)
			if err == nil && !told {
				told = true
				total := int64(len(l.Items))
				if r := l.RemainingItemCount; r != nil {
					total += *r
				}
				opts.OnNodeTotal(total)
			}
			return l, err
		}
		err := eachItem(ctx, pageSize, nodeCount, list, metav1.ListOptions{}, func(obj runtime.Object) error {
			node, ok := obj.(*corev1.Node)
			if !ok {
				return fmt.Errorf("unexpected %T in a node list", obj)
			}
			prepareNode(node, share, false)
			nodes = append(nodes, node)
			feed.node(node)
			nodeCount.listed.Add(1)
			return nil
		})
		if err != nil {
			fail(apiError(ctx, err, "list", "nodes", opts.Host))
		}
	})
	wg.Go(func() {
		share := newListSharer()
		share.keepEmptyDir = opts.KeepEmptyDir
		list := func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, o)
		}
		err := eachItem(ctx, pageSize, podCount, list, metav1.ListOptions{FieldSelector: PodFieldSelector}, func(obj runtime.Object) error {
			pod, ok := obj.(*corev1.Pod)
			if !ok {
				return fmt.Errorf("unexpected %T in a pod list", obj)
			}
			if keep, _ := preparePod(pod, share, false); keep {
				pods = append(pods, pod)
			}
			select {
			case <-nodesDone:
				for ; fed < len(pods); fed++ {
					feed.pod(pods[fed])
				}
			default:
			}
			podCount.listed.Add(1)
			return nil
		})
		if err != nil {
			fail(apiError(ctx, err, "list", "pods", opts.Host))
		}
	})
	for i, kind := range opts.Kinds {
		list := lister(client, kind)
		if list == nil {
			fail(&Error{Kind: Other, Msg: fmt.Sprintf("cannot list %s: not a scheduling kind", kind.GVR.GroupResource())})
			continue
		}
		wg.Go(func() {
			// Each kind counts its own pages; the progress line shows the
			// objects listed so far, without a total.
			err := eachItem(ctx, pageSize, newCounter(), list, metav1.ListOptions{}, func(obj runtime.Object) error {
				prepareObject(obj)
				objects[i] = append(objects[i], obj)
				objectCount.listed.Add(1)
				return nil
			})
			switch {
			case err == nil:
			case ctx.Err() == nil && (apierrors.IsForbidden(err) || apierrors.IsNotFound(err)):
				unlisted[i] = err
			default:
				fail(apiError(ctx, err, "list", kind.GVR.GroupResource().String(), opts.Host))
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	for ; fed < len(pods); fed++ {
		feed.pod(pods[fed])
	}

	c := &Cluster{Nodes: nodes, Pods: pods, Source: "cluster"}
	if opts.Host != "" {
		c.Source += " " + opts.Host
	}
	var failed []unlistedKind
	for i, kind := range opts.Kinds {
		if unlisted[i] != nil {
			c.Unlisted = append(c.Unlisted, kind)
			failed = append(failed, unlistedKind{kind, unlisted[i]})
			continue
		}
		c.Objects = append(c.Objects, objects[i]...)
	}
	if opts.Warnings != nil {
		warnUnlisted(opts.Warnings, failed, pods)
	}
	return c, nil
}

// unlistedWarning says which kind could not be listed, why, and whose
// verdicts become approximate.
func unlistedWarning(kind SchedulingKind, err error) string {
	why := "forbidden"
	if apierrors.IsNotFound(err) {
		why = "the server does not serve " + kind.GVR.GroupVersion().String()
	} else if m := forbiddenUser.FindStringSubmatch(err.Error()); m != nil {
		why += fmt.Sprintf(" for user %q", m[1])
	}
	return clean(fmt.Sprintf("cannot list %s (%s): the verdicts of %s may be approximate",
		kind.GVR.GroupResource(), why, strings.Join(kind.Plugins, ", ")))
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
//     (not client-go's process-wide default handler);
//   - one bound (DefaultHeaderTimeout, or cfg.Timeout: --request-timeout)
//     from the first dial to the first byte of the first answer, shared by
//     every request made until then (GET /version, the listings) and never
//     granted twice: once it has passed, every such request fails at once
//     with the same *HeaderTimeoutError, which says where the connection
//     stopped (connection, TLS handshake, answer); client-go's TLS
//     handshake timeout becomes that bound. After the first answer, a
//     response-header timeout of DefaultHeaderTimeout on each request
//     unless cfg.Timeout is set. When warnings is not nil, a note is
//     written to it after WaitingNoteAfter of silence from the server
//     ("waiting for the API server at ... (Ctrl-C to stop)"). Ctrl-C (the
//     request's context) ends a request at once, while it dials or
//     handshakes too.
func ConfigureClient(cfg *rest.Config, warnings io.Writer) {
	guardSilence(cfg, warnings, DefaultHeaderTimeout, WaitingNoteAfter)
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
