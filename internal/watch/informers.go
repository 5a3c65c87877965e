package watch

import (
	"context"
	"fmt"
	"sync"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// start creates the node and pod informers, registers the handlers and
// runs the informers until ctx is done. It returns the registrations,
// whose HasSynced tells when the initial state has been handled.
func (w *Watcher) start(ctx context.Context) ([]toolscache.ResourceEventHandlerRegistration, error) {
	client := w.opts.Client
	nodes := w.informer("nodes", &v1.Node{}, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		return client.CoreV1().Nodes().List(ctx, o)
	}, func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		return client.CoreV1().Nodes().Watch(ctx, o)
	})
	// kube-scheduler's pod informer (newPodInformer) selects non-terminal
	// pods on the server: a pod that becomes terminal is deleted from it.
	selector := func(o *metav1.ListOptions) { o.FieldSelector = load.PodFieldSelector }
	pods := w.informer("pods", &v1.Pod{}, func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
		selector(&o)
		return client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, o)
	}, func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		selector(&o)
		return client.CoreV1().Pods(metav1.NamespaceAll).Watch(ctx, o)
	})
	var regs []toolscache.ResourceEventHandlerRegistration
	for _, x := range []struct {
		inf toolscache.SharedIndexInformer
		h   toolscache.ResourceEventHandler
	}{{nodes, w.nodeHandlers()}, {pods, w.podHandlers()}} {
		reg, err := x.inf.AddEventHandler(x.h)
		if err != nil {
			return nil, err
		}
		regs = append(regs, reg)
		go x.inf.RunWithContext(ctx)
	}
	return regs, nil
}

// informer builds a shared informer over list and watch, with
// managedFields dropped (kube-scheduler's transform since v1.29), pods
// slimmed as internal/load slims them, and notes
// for failed requests, watches that end in an error and relists.
func (w *Watcher) informer(resource string, example runtime.Object,
	list func(context.Context, metav1.ListOptions) (runtime.Object, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)) toolscache.SharedIndexInformer {
	t := &tracker{w: w, resource: resource}
	lw := &toolscache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			obj, err := list(ctx, o)
			if err != nil {
				t.failed(ctx, "list", err)
				return obj, err
			}
			if o.Continue == "" { // a page after the first is the same list
				t.listed("list")
			}
			return obj, err
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			wi, err := watchFn(ctx, o)
			if err != nil {
				t.failed(ctx, "watch", err)
				return nil, err
			}
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				t.listed("watch-list")
			}
			t.watching()
			return t.wrap(wi), nil
		},
	}
	inf := toolscache.NewSharedIndexInformer(toolscache.ToListWatcherWithWatchListSemantics(lw, w.opts.Client), example, 0, toolscache.Indexers{})
	_ = inf.SetTransform(func(obj any) (any, error) {
		if m, err := meta.Accessor(obj); err == nil {
			m.SetManagedFields(nil)
		}
		// What the plugin's listing keeps of a pod, so that watching
		// a cluster costs what listing it does.
		if pod, ok := obj.(*v1.Pod); ok {
			load.SlimPod(pod)
		}
		return obj, nil
	})
	_ = inf.SetWatchErrorHandlerWithContext(func(ctx context.Context, _ *toolscache.Reflector, err error) {
		t.ended(ctx, err)
	})
	return inf
}

// tracker follows one resource's requests to tell the user about trouble
// and recovery, once each (see outage).
type tracker struct {
	w        *Watcher
	resource string

	mu      sync.Mutex
	lists   int    // initial-state requests (list or watch-list) made
	lastErr string // why the last watch ended, for the relist note
}

// listed is called after each request for the whole state that
// succeeded. A relist after the initial state is noted, with why the
// watch ended; not when it ends an outage, whose notes say it all.
func (t *tracker) listed(kind string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lists++
	if t.lists > 1 && t.w.synced.Load() {
		why := t.lastErr
		if why == "" {
			why = "the watch ended"
		}
		t.lastErr = ""
		if !t.w.outage.down() {
			t.w.notes.always(fmt.Sprintf("%s: %s; getting every object again (%s), the changes follow as events", t.resource, why, kind))
		}
	}
}

// watching records that a watch runs: the end of an outage, when every
// resource is watched again.
func (t *tracker) watching() {
	if t.w.outage.watching(t.resource, t.w.changes.Load()) {
		t.w.due() // the note goes with the next batch
	}
}

// failed handles a failed request (verb "list" or "watch"). A refused one
// (Forbidden, Unauthorized) ends Run at once with the listing's error
// (but during an outage it is one more failure: a kube-apiserver just
// started refuses requests until its RBAC and token caches have synced),
// naming the verb and the ClusterRole that grants it; before the initial
// state, so does a failed list or a server that cannot be reached, as
// the plain command fails. Later failures are an
// outage. After Ctrl-C nothing is said.
func (t *tracker) failed(ctx context.Context, verb string, err error) {
	if ctx.Err() != nil || t.w.stopped.Load() {
		return
	}
	host := t.w.opts.Host
	switch {
	case (apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err)) && (!t.w.synced.Load() || !t.w.outage.down()):
		t.w.fail(load.RequestError(ctx, err, verb, t.resource, host))
		return
	case !t.w.synced.Load():
		// A server that cannot be reached fails the watch-list as the
		// list (client-go would retry it with backoff); another failed
		// watch-list falls back to a list in client-go.
		if verb == "list" || load.Unreached(err, host) != nil {
			t.w.fail(load.RequestError(ctx, err, verb, t.resource, host))
		}
		return
	}
	t.mu.Lock()
	t.lastErr = err.Error()
	t.mu.Unlock()
	t.w.outage.failed(t.resource, cause(ctx, err, verb, t.resource, host))
}

// ended handles the error that ended a list-and-watch cycle (client-go
// then starts another): a watch that ended in an error event (410 Gone,
// said by the relist note), or a failed request already handled.
func (t *tracker) ended(ctx context.Context, err error) {
	if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
		return
	}
	if t.w.synced.Load() && t.w.outage.down() {
		return // said when the outage started
	}
	t.failed(ctx, "watch", err)
}

// cause is a failed request's error as one line: the listing's wording,
// without the request's URL.
func cause(ctx context.Context, err error, verb, resource, host string) string {
	if u := load.Unreached(err, host); u != nil {
		return u.Error()
	}
	return load.RequestError(ctx, err, verb, resource, host).Error()
}

// wrap passes a watch's events through, noting error events (410 Gone:
// the resource version is too old, a relist follows).
func (t *tracker) wrap(wi watch.Interface) watch.Interface {
	nw := &notingWatch{Interface: wi, ch: make(chan watch.Event), stop: make(chan struct{})}
	go func() {
		defer close(nw.ch)
		for ev := range wi.ResultChan() {
			if ev.Type == watch.Error {
				err := apierrors.FromObject(ev.Object)
				t.mu.Lock()
				t.lastErr = err.Error()
				if status, ok := err.(apierrors.APIStatus); ok {
					s := status.Status()
					t.lastErr = fmt.Sprintf("%s (%d %s)", s.Message, s.Code, s.Reason)
				}
				t.mu.Unlock()
			}
			select {
			case nw.ch <- ev:
			case <-nw.stop:
				return
			}
		}
	}()
	return nw
}

// notingWatch is a watch whose events go through a tracker.
type notingWatch struct {
	watch.Interface
	ch   chan watch.Event
	stop chan struct{}
	once sync.Once
}

func (n *notingWatch) ResultChan() <-chan watch.Event { return n.ch }

func (n *notingWatch) Stop() {
	n.once.Do(func() { close(n.stop) })
	n.Interface.Stop()
}
