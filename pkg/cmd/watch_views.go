package cmd

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/views"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// The watch views of dump, requested and snapshot: the same kinds and
// tables as without --watch.

// dumpWatchView lists the pods of namespace ns only in the events' dumps
// (json, yaml) when ns is set; the table counts every pod.
func dumpWatchView(ns string) watchView {
	return watchView{
		// Rendering a NodeInfo's pods is what a dump costs: a batch
		// renders only the changed NodeInfos (the summary stays whole).
		build: func(m *model.Model, _ *cache.Snapshot, only []string) (runtime.Object, error) {
			if only != nil && len(only) == 0 {
				d, err := views.Dump(m, []string{})
				if err == nil {
					d.Nodes = []v1alpha1.NodeDump{}
				}
				return d, err
			}
			return views.Dump(m, only)
		},
		table: func(obj runtime.Object, t printers.TableOptions) (*printers.Table, error) {
			return printers.DumpTable(obj.(*v1alpha1.CacheDump), t)
		},
		sticky: func(obj runtime.Object, t *printers.TableOptions) {
			t.Scalars = printers.DumpScalars(obj.(*v1alpha1.CacheDump), t.Scalars)
		},
		only: func(obj runtime.Object, names map[string]bool) {
			d := obj.(*v1alpha1.CacheDump)
			d.Nodes = keepNodes(d.Nodes, names, func(n v1alpha1.NodeDump) string { return n.Name })
		},
		set: func(ev *v1alpha1.CacheWatchEvent, obj runtime.Object) {
			ev.Dump = dumpInNamespace(obj.(*v1alpha1.CacheDump), ns)
		},
	}
}

func requestedWatchView(o *RequestedOptions) watchView {
	return watchView{
		build: func(m *model.Model, _ *cache.Snapshot, _ []string) (runtime.Object, error) {
			return views.Requested(m, views.RequestedOptions{Selector: o.selector}), nil
		},
		table: func(obj runtime.Object, t printers.TableOptions) (*printers.Table, error) {
			return printers.RequestedTable(obj.(*v1alpha1.RequestedReport), t)
		},
		only: func(obj runtime.Object, names map[string]bool) {
			r := obj.(*v1alpha1.RequestedReport)
			r.Nodes = keepNodes(r.Nodes, names, func(n v1alpha1.NodeRequested) string { return n.Name })
		},
		set: func(ev *v1alpha1.CacheWatchEvent, obj runtime.Object) { ev.Requested = obj.(*v1alpha1.RequestedReport) },
	}
}

// snapshotWatchView renders the watcher's own Snapshot, which it brings up
// to date incrementally, as kube-scheduler does before each cycle.
func snapshotWatchView() watchView {
	return watchView{
		build: func(m *model.Model, s *cache.Snapshot, _ []string) (runtime.Object, error) {
			return views.SnapshotOf(s, m.Source), nil
		},
		table: func(obj runtime.Object, t printers.TableOptions) (*printers.Table, error) {
			return printers.SnapshotTable(obj.(*v1alpha1.Snapshot), t), nil
		},
		only: func(obj runtime.Object, names map[string]bool) {
			s := obj.(*v1alpha1.Snapshot)
			s.Nodes = keepNodes(s.Nodes, names, func(n v1alpha1.SnapshotNode) string { return n.Name })
		},
		set: func(ev *v1alpha1.CacheWatchEvent, obj runtime.Object) { ev.Snapshot = obj.(*v1alpha1.Snapshot) },
	}
}

func keepNodes[T any](nodes []T, names map[string]bool, name func(T) string) []T {
	out := []T{}
	for _, n := range nodes {
		if names[name(n)] {
			out = append(out, n)
		}
	}
	return out
}
