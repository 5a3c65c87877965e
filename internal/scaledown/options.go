package scaledown

import "time"

// Options are the cluster-autoscaler flags that shape its scale-down
// decision, under the same names, with the same defaults
// (DefaultOptions: cluster-autoscaler's own, kubernetes/autoscaler
// cluster-autoscaler/config/flags).
type Options struct {
	// UtilizationThreshold: a node whose utilization (the highest of cpu
	// and memory requests over allocatable) is below it is a candidate
	// (--scale-down-utilization-threshold, 0.5).
	UtilizationThreshold float64
	// GPUUtilizationThreshold is the same for nodes with GPUs, whose
	// utilization is the GPU's (--scale-down-gpu-utilization-threshold, 0.5).
	GPUUtilizationThreshold float64
	// IgnoreDaemonSetsUtilization leaves DaemonSet pods out of the
	// utilization (--ignore-daemonsets-utilization, false).
	IgnoreDaemonSetsUtilization bool
	// IgnoreMirrorPodsUtilization leaves mirror pods out of the
	// utilization (--ignore-mirror-pods-utilization, false).
	IgnoreMirrorPodsUtilization bool
	// SkipNodesWithSystemPods: a kube-system pod that is neither a
	// DaemonSet nor a mirror pod and has no PodDisruptionBudget blocks its
	// node (--skip-nodes-with-system-pods, true).
	SkipNodesWithSystemPods bool
	// SkipNodesWithLocalStorage: a pod with an emptyDir or hostPath volume
	// blocks its node (--skip-nodes-with-local-storage, true).
	SkipNodesWithLocalStorage bool
	// SkipNodesWithCustomControllerPods: a pod whose controller is none of
	// ReplicationController, ReplicaSet, Job, StatefulSet and DaemonSet
	// blocks its node (--skip-nodes-with-custom-controller-pods, true).
	SkipNodesWithCustomControllerPods bool
	// PoolRatio and PoolMinCount bound how many non-empty candidates get
	// their pods moved: max(ceil(nodes × PoolRatio), PoolMinCount)
	// (--scale-down-candidates-pool-ratio 0.1,
	// --scale-down-candidates-pool-min-count 50). PoolRatio 1 examines
	// every candidate.
	PoolRatio    float64
	PoolMinCount int
	// Timeout bounds the time spent moving pods; the candidates left when
	// it runs out are reported not examined (--scale-down-simulation-timeout,
	// 30 s). 0 means no bound.
	Timeout time.Duration
}

// DefaultOptions are cluster-autoscaler's defaults.
func DefaultOptions() Options {
	return Options{
		UtilizationThreshold: 0.5, GPUUtilizationThreshold: 0.5,
		SkipNodesWithSystemPods: true, SkipNodesWithLocalStorage: true, SkipNodesWithCustomControllerPods: true,
		PoolRatio: 0.1, PoolMinCount: 50, Timeout: 30 * time.Second,
	}
}
