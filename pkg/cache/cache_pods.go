package cache

import (
	"errors"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
)

// podRef renders a pod as upstream's messages do: from v1.26
// "<uid>(<namespace>/<name>)" (as KObj prints it: the name alone without a
// namespace), before the UID alone.
func (c *cacheImpl) podRef(key string, pod *v1.Pod) string {
	switch {
	case !c.p.NamespacedErrors:
		return key
	case pod.Namespace == "":
		return fmt.Sprintf("%s(%s)", key, pod.Name)
	}
	return fmt.Sprintf("%s(%s/%s)", key, pod.Namespace, pod.Name)
}

// key is PodKey with the version's wording of the empty-UID error.
func (c *cacheImpl) key(pod *v1.Pod) (string, error) {
	if pod.UID == "" {
		return "", errors.New(c.p.EmptyUIDError)
	}
	return string(pod.UID), nil
}

// AssumePod implements Cache.
func (c *cacheImpl) AssumePod(pod *v1.Pod) error {
	key, err := c.key(pod)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.unlockAndNotify()
	if _, ok := c.podStates[key]; ok {
		return fmt.Errorf("pod %s is in the cache, so can't be assumed", c.podRef(key, pod))
	}
	c.addPod(key, pod, true)
	c.record(pod, StateInitial, StateAssumed, "AssumePod")
	return nil
}

// FinishBinding implements Cache.
func (c *cacheImpl) FinishBinding(pod *v1.Pod) error {
	key, err := c.key(pod)
	if err != nil {
		return err
	}
	// Upstream takes only the read lock here although it writes; we take the
	// write lock to stay race-free.
	c.mu.Lock()
	defer c.unlockAndNotify()
	ps, ok := c.podStates[key]
	if !ok || !c.assumedPods.Has(key) {
		return nil
	}
	ps.bindingFinished = true
	ps.deadline = nil
	// Up to v1.24 a TTL of 0 still sets a deadline: the finish time itself.
	if c.ttl > 0 || !c.p.ZeroTTLNeverExpires {
		dl := c.clock.Now().Add(c.ttl)
		ps.deadline = &dl
	}
	return nil
}

// ForgetPod implements Cache.
func (c *cacheImpl) ForgetPod(pod *v1.Pod) error {
	key, err := c.key(pod)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.unlockAndNotify()
	ps, ok := c.podStates[key]
	if !ok {
		if c.p.ForgetUnknownIsNil {
			return nil
		}
		return fmt.Errorf("pod %s wasn't assumed so cannot be forgotten", c.podRef(key, pod))
	}
	if ps.pod.Spec.NodeName != pod.Spec.NodeName {
		return fmt.Errorf("pod %s was assumed on %s but assigned to %s", c.podRef(key, pod), pod.Spec.NodeName, ps.pod.Spec.NodeName)
	}
	if !c.assumedPods.Has(key) {
		return fmt.Errorf("pod %s wasn't assumed so cannot be forgotten", c.podRef(key, pod))
	}
	if err := c.removePod(key, pod); err != nil {
		return err
	}
	c.record(pod, StateAssumed, StateInitial, "ForgetPod")
	return nil
}

// AddPod implements Cache.
func (c *cacheImpl) AddPod(pod *v1.Pod) error {
	key, err := c.key(pod)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.unlockAndNotify()
	ps, ok := c.podStates[key]
	switch {
	case ok && c.assumedPods.Has(key):
		if err := c.confirmAssumed(key, ps, pod); err != nil {
			return err
		}
		c.record(pod, StateAssumed, StateAdded, "AddPod")
	case !ok:
		c.addPod(key, pod, false)
		c.record(pod, StateInitial, StateAdded, "AddPod")
	default:
		return fmt.Errorf("pod %s was already in added state", c.podRef(key, pod))
	}
	return nil
}

// confirmAssumed turns an assumed pod into an Added one. From v1.26 it is
// always removed and re-added from the new object; before, only a pod added
// on another node than assumed moves, and on the same node the NodeInfo
// keeps the assumed object and its accounting while the state points at
// the new object. Upstream only logs a failure here. The caller must hold
// the write lock.
func (c *cacheImpl) confirmAssumed(key string, ps *podState, pod *v1.Pod) error {
	if c.p.AddAssumedReplaces || ps.pod.Spec.NodeName != pod.Spec.NodeName {
		return c.updatePod(key, ps.pod, pod)
	}
	c.assumedPods.Delete(key)
	ps.pod, ps.deadline = pod, nil
	return nil
}

// UpdatePod implements Cache.
func (c *cacheImpl) UpdatePod(oldPod, newPod *v1.Pod) error {
	key, err := c.key(oldPod)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.unlockAndNotify()
	ps, ok := c.podStates[key]
	if !ok {
		return fmt.Errorf("pod %s is not added to scheduler cache, so cannot be updated", c.podRef(key, oldPod))
	}
	if c.assumedPods.Has(key) {
		if c.p.UpdateAssumedError {
			return fmt.Errorf("assumed pod %s should not be updated", c.podRef(key, oldPod))
		}
		return fmt.Errorf("pod %s is not added to scheduler cache, so cannot be updated", c.podRef(key, oldPod))
	}
	if ps.pod.Spec.NodeName != newPod.Spec.NodeName {
		return fmt.Errorf("pod %s updated on a different node than previously added to (cached on %q, update on %q): scheduler cache is corrupted, kube-scheduler would exit",
			c.podRef(key, oldPod), ps.pod.Spec.NodeName, newPod.Spec.NodeName)
	}
	if err := c.updatePod(key, oldPod, newPod); err != nil {
		return err
	}
	c.record(newPod, StateAdded, StateAdded, "UpdatePod")
	return nil
}

// RemovePod implements Cache.
func (c *cacheImpl) RemovePod(pod *v1.Pod) error {
	key, err := c.key(pod)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.unlockAndNotify()
	ps, ok := c.podStates[key]
	// Up to v1.19 an assumed pod cannot be removed: it stays until it
	// expires or is added.
	if !ok || c.assumedPods.Has(key) && !c.p.RemoveAssumed {
		return fmt.Errorf("pod %s is not found in scheduler cache, so cannot be removed from it", c.podRef(key, pod))
	}
	// An empty node name is tolerated from v1.20: a tombstone may carry a
	// stale unassigned copy. Any other mismatch makes kube-scheduler exit.
	if ps.pod.Spec.NodeName != pod.Spec.NodeName && (pod.Spec.NodeName != "" || !c.p.RemoveEmptyNodeName) {
		return fmt.Errorf("pod %s was added to %q but removed from %q: scheduler cache is corrupted, kube-scheduler would exit",
			c.podRef(key, pod), ps.pod.Spec.NodeName, pod.Spec.NodeName)
	}
	from := StateAdded
	if c.assumedPods.Has(key) {
		from = StateAssumed
	}
	if err := c.removePod(key, ps.pod); err != nil {
		return err
	}
	c.record(ps.pod, from, StateDeleted, "RemovePod")
	return nil
}

// GetPod implements Cache.
func (c *cacheImpl) GetPod(pod *v1.Pod) (*v1.Pod, error) {
	key, err := c.key(pod)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	ps, ok := c.podStates[key]
	if !ok {
		return nil, fmt.Errorf("pod %s does not exist in scheduler cache", c.podRef(key, pod))
	}
	return ps.pod, nil
}

// IsAssumedPod implements Cache.
func (c *cacheImpl) IsAssumedPod(pod *v1.Pod) (bool, error) {
	key, err := c.key(pod)
	if err != nil {
		return false, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.assumedPods.Has(key), nil
}

// Cleanup implements Cache.
func (c *cacheImpl) Cleanup(now time.Time) []*v1.Pod {
	c.mu.Lock()
	defer c.unlockAndNotify()
	if c.ttl == 0 && c.p.ZeroTTLNeverExpires {
		return nil
	}
	var expired []*v1.Pod
	for _, key := range sortedKeys(c.assumedPods) {
		ps := c.podStates[key]
		if !ps.bindingFinished || ps.deadline == nil || !now.After(*ps.deadline) {
			continue
		}
		// removePod only fails if the pod is missing from its NodeInfo, which
		// the invariants exclude; the state is dropped either way, as upstream.
		_ = c.removePod(key, ps.pod)
		delete(c.podStates, key)
		c.assumedPods.Delete(key)
		c.record(ps.pod, StateAssumed, StateExpired, "Cleanup")
		expired = append(expired, ps.pod)
	}
	return expired
}

// addPod accounts pod on its node (creating a placeholder NodeInfo if the node
// is unknown) and stores its state. The caller must hold the write lock.
func (c *cacheImpl) addPod(key string, pod *v1.Pod, assumed bool) {
	item, ok := c.nodes[pod.Spec.NodeName]
	if !ok {
		item = c.newItem(pod.Spec.NodeName)
	}
	item.info.addPodInfo(&PodInfo{Pod: pod, Resource: c.requests.podResource(pod, &c.p)}, &c.p, c.gen)
	c.moveNodeInfoToHead(pod.Spec.NodeName)
	c.podStates[key] = &podState{pod: pod}
	if assumed {
		c.assumedPods.Insert(key)
	}
}

// updatePod removes oldPod and adds newPod as Added. The caller must hold
// the write lock.
func (c *cacheImpl) updatePod(key string, oldPod, newPod *v1.Pod) error {
	if err := c.removePod(key, oldPod); err != nil {
		return err
	}
	c.addPod(key, newPod, false)
	return nil
}

// removePod subtracts pod from its node's NodeInfo, deletes a placeholder or
// ghost left without pods, and drops the pod's state. If the node is unknown
// the state is still dropped (v1.24+). The caller must hold the write lock.
func (c *cacheImpl) removePod(key string, pod *v1.Pod) error {
	if item, ok := c.nodes[pod.Spec.NodeName]; ok {
		if err := item.info.removePod(pod, pod.Spec.NodeName, &c.p, c.gen); err != nil {
			return err
		}
		if len(item.info.Pods) == 0 && item.info.Node() == nil {
			c.removeNodeInfoFromList(pod.Spec.NodeName)
		} else {
			c.moveNodeInfoToHead(pod.Spec.NodeName)
		}
	}
	delete(c.podStates, key)
	c.assumedPods.Delete(key)
	return nil
}
