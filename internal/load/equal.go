package load

import (
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// equalContainers is reflect.DeepEqual of two container slices, field by
// field: the sharer compares the containers of every pod with an earlier
// pod's (podSlices), and the reflective walk over every field of every
// container was most of that cost on pods of a few hundred bytes. Fields a
// slimmed container rarely has (probes, environment, security context)
// are compared the reflective way, and only when one side has them.
// TestEqualContainersIsDeepEqual checks it against reflect.DeepEqual field
// by field, and fails when k8s.io/api adds a field to Container.
func equalContainers(a, b []corev1.Container) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if !equalContainer(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func equalContainer(a, b *corev1.Container) bool {
	return a.Name == b.Name && a.Image == b.Image && a.WorkingDir == b.WorkingDir &&
		a.TerminationMessagePath == b.TerminationMessagePath && a.TerminationMessagePolicy == b.TerminationMessagePolicy &&
		a.ImagePullPolicy == b.ImagePullPolicy && a.Stdin == b.Stdin && a.StdinOnce == b.StdinOnce && a.TTY == b.TTY &&
		equalSlice(a.Command, b.Command) && equalSlice(a.Args, b.Args) &&
		equalSlice(a.Ports, b.Ports) && equalSlice(a.ResizePolicy, b.ResizePolicy) &&
		equalPtr(a.RestartPolicy, b.RestartPolicy) &&
		equalList(a.Resources.Limits, b.Resources.Limits) && equalList(a.Resources.Requests, b.Resources.Requests) &&
		deepSlice(a.Resources.Claims, b.Resources.Claims) &&
		deepSlice(a.RestartPolicyRules, b.RestartPolicyRules) &&
		deepSlice(a.EnvFrom, b.EnvFrom) && deepSlice(a.Env, b.Env) &&
		deepSlice(a.VolumeMounts, b.VolumeMounts) && deepSlice(a.VolumeDevices, b.VolumeDevices) &&
		deepPtr(a.LivenessProbe, b.LivenessProbe) && deepPtr(a.ReadinessProbe, b.ReadinessProbe) &&
		deepPtr(a.StartupProbe, b.StartupProbe) && deepPtr(a.Lifecycle, b.Lifecycle) &&
		deepPtr(a.SecurityContext, b.SecurityContext)
}

// equalSlice is reflect.DeepEqual of slices of comparable elements: nil
// and empty differ.
func equalSlice[E comparable](a, b []E) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

func equalPtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// equalList is reflect.DeepEqual of resource lists, without the walk for
// one list shared by both (the sharer's lists are shared by content).
func equalList(a, b corev1.ResourceList) bool {
	switch {
	case len(a) != len(b) || (a == nil) != (b == nil):
		return false
	case len(a) == 0 || reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer():
		return true
	}
	return reflect.DeepEqual(a, b)
}

func deepSlice[E any](a, b []E) bool {
	return a == nil && b == nil || reflect.DeepEqual(a, b)
}

func deepPtr[T any](a, b *T) bool {
	return a == b || reflect.DeepEqual(a, b)
}
