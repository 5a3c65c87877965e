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
			t.starting("list")
			obj, err := list(ctx, o)
			t.done(err)
			return obj, err
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				t.starting("watch-list")
			}
			wi, err := watchFn(ctx, o)
			t.done(err)
			if err != nil {
				return nil, err
			}
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
	_ = inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *toolscache.Reflector, err error) {
		t.failed(err)
	})
	return inf
}

// tracker follows one resource's requests to tell the user about trouble
// and recovery, once each.
type tracker struct {
	w        *Watcher
	resource string

	mu      sync.Mutex
	lists   int    // initial-state requests (list or watch-list) made
	lastErr string // why the last watch ended, for the relist note
	trouble bool
}

// starting is called before each request for the whole state.
func (t *tracker) starting(kind string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lists++
	if t.lists > 1 && t.w.synced.Load() {
		why := t.lastErr
		if why == "" {
			why = "the watch ended"
		}
		t.lastErr = ""
		t.w.notes.always(fmt.Sprintf("%s: %s; getting every object again (%s), the changes follow as events", t.resource, why, kind))
	}
}

// done records the outcome of a request.
func (t *tracker) done(err error) {
	if err == nil {
		t.mu.Lock()
		if t.trouble {
			t.trouble = false
			t.w.notes.note("watch "+t.resource, fmt.Sprintf("%s: watching again", t.resource))
		}
		t.mu.Unlock()
		return
	}
	t.failed(err)
}

// failed notes a failed request or watch; before the initial state is
// complete a refused one is fatal.
func (t *tracker) failed(err error) {
	if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
		t.w.failed(fmt.Errorf("cannot list and watch %s: %w\n--watch needs get, list and watch on nodes and pods (see README, RBAC)", t.resource, err))
	}
	t.mu.Lock()
	t.trouble = true
	t.lastErr = err.Error()
	t.mu.Unlock()
	t.w.notes.note("watch "+t.resource, fmt.Sprintf("%s: %v; retrying", t.resource, err))
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
