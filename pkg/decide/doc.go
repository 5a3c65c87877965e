// Package decide runs kube-scheduler v1.36's own scheduling framework over our
// cache model to say what the scheduler would decide for a pending pod.
package decide

import (
	_ "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	_ "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)
