package watch

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
)

// The event handlers mirror kube-scheduler v1.36's
// (pkg/scheduler/eventhandlers.go: addNodeToCache, updateNodeInCache,
// deleteNodeFromCache, addPod, updatePod, deletePod): nodes go to
// AddNode/UpdateNode/RemoveNode; an assigned pod (spec.nodeName set) to
// AddPod/UpdatePod/RemovePod; an update that sets spec.nodeName is the
// bind, AddPod; unassigned pods are the queue's, kept aside here; a
// tombstone is always removed from the cache. Failed operations are logged
// by the scheduler and its cache keeps going; here they are notes.

func (w *Watcher) nodeHandlers() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			node, ok := obj.(*v1.Node)
			if !ok {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			w.cache.AddNode(node)
			w.touched(node.Name, "node added")
			w.event(true)
		},
		UpdateFunc: func(oldObj, newObj any) {
			oldNode, ok1 := oldObj.(*v1.Node)
			newNode, ok2 := newObj.(*v1.Node)
			if !ok1 || !ok2 {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			w.cache.UpdateNode(oldNode, newNode)
			w.touched(newNode.Name, updated("node", oldNode.ResourceVersion, newNode.ResourceVersion))
			w.event(changedRV(oldNode.ResourceVersion, newNode.ResourceVersion))
		},
		DeleteFunc: func(obj any) {
			node, ok := obj.(*v1.Node)
			if t, isTomb := obj.(toolscache.DeletedFinalStateUnknown); isTomb {
				node, ok = t.Obj.(*v1.Node)
			}
			if !ok {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if err := w.cache.RemoveNode(node); err != nil {
				w.notes.note("cache", fmt.Sprintf("RemoveNode failed, as it would in kube-scheduler: %v", err))
			}
			w.touched(node.Name, "node removed")
			w.event(true)
		},
	}
}

// updated names an update; one that changed nothing (same resourceVersion)
// comes from a relist.
func updated(what, oldRV, newRV string) string {
	if !changedRV(oldRV, newRV) {
		return what + " relisted unchanged"
	}
	return what + " updated"
}

// changedRV reports whether an update changed the object: not a relist's
// unchanged copy (same resourceVersion).
func changedRV(oldRV, newRV string) bool { return oldRV == "" || oldRV != newRV }

func podName(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func (w *Watcher) podHandlers() toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			pod, ok := obj.(*v1.Pod)
			if !ok {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if pod.Spec.NodeName != "" {
				w.cacheOp("AddPod", pod, w.cache.AddPod(pod))
				w.touched(pod.Spec.NodeName, "pod "+podName(pod)+" added")
			} else {
				w.setPending(nil, pod)
			}
			w.event(true)
		},
		UpdateFunc: func(oldObj, newObj any) {
			oldPod, ok1 := oldObj.(*v1.Pod)
			newPod, ok2 := newObj.(*v1.Pod)
			if !ok1 || !ok2 {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			switch {
			case oldPod.Spec.NodeName != "":
				w.cacheOp("UpdatePod", newPod, w.cache.UpdatePod(oldPod, newPod))
				w.touched(newPod.Spec.NodeName, updated("pod "+podName(newPod), oldPod.ResourceVersion, newPod.ResourceVersion))
			case newPod.Spec.NodeName != "":
				w.cacheOp("AddPod", newPod, w.cache.AddPod(newPod))
				w.touched(newPod.Spec.NodeName, "pod "+podName(newPod)+" bound")
				w.setPending(oldPod, nil)
			default:
				w.setPending(oldPod, newPod)
			}
			w.event(changedRV(oldPod.ResourceVersion, newPod.ResourceVersion))
		},
		DeleteFunc: func(obj any) {
			pod, ok := obj.(*v1.Pod)
			tomb := false
			if t, isTomb := obj.(toolscache.DeletedFinalStateUnknown); isTomb {
				pod, ok = t.Obj.(*v1.Pod)
				tomb = true
			}
			if !ok {
				return
			}
			w.mu.Lock()
			defer w.mu.Unlock()
			if pod.Spec.NodeName != "" || tomb {
				// A tombstone's object may be stale: remove it anyway, as
				// the scheduler does; a pending one is not in the cache.
				if err := w.cache.RemovePod(pod); err == nil {
					w.touched(pod.Spec.NodeName, "pod "+podName(pod)+" removed")
				} else if !tomb {
					w.cacheOp("RemovePod", pod, err)
				}
			}
			w.setPending(pod, nil)
			w.event(true)
		},
	}
}

// cacheOp notes a cache operation that failed. The caller holds mu.
func (w *Watcher) cacheOp(op string, pod *v1.Pod, err error) {
	if err != nil {
		w.notes.note("cache "+string(pod.UID), fmt.Sprintf("%s of pod %s failed, as it would in kube-scheduler: %v", op, podName(pod), err))
	}
}

// setPending replaces old by new among the pending pods (either may be nil)
// and records nominations that changed: a nominated node's row shows the
// pods nominated to it. The caller holds mu.
func (w *Watcher) setPending(oldPod, newPod *v1.Pod) {
	oldNom, newNom := "", ""
	if oldPod != nil {
		if _, was := w.pending[oldPod.UID]; was {
			oldNom = oldPod.Status.NominatedNodeName
			delete(w.pending, oldPod.UID)
		}
	}
	if newPod != nil {
		newNom = newPod.Status.NominatedNodeName
		w.pending[newPod.UID] = newPod
	}
	if oldNom == newNom {
		return
	}
	if oldNom != "" {
		w.touched(oldNom, "pod "+podName(oldPod)+" no longer nominated")
	}
	if newNom != "" {
		w.touched(newNom, "pod "+podName(newPod)+" nominated")
	}
}
