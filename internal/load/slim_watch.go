package load

import corev1 "k8s.io/api/core/v1"

// SlimPod clears, in place, the fields of pod that no accounting reads (see
// slim.go), as List and ReadFiles do to every pod they return. Watchers
// apply it to the pods their informers store, so that following a cluster
// costs what listing it does.
func SlimPod(pod *corev1.Pod) { slimPod(pod) }
