package load

import (
	"reflect"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// containerFields are the fields of corev1.Container (k8s.io/api v0.36)
// equalContainer compares; a field added upstream fails the test below
// until equalContainer compares it too.
var containerFields = []string{"Name", "Image", "Command", "Args", "WorkingDir", "Ports", "EnvFrom", "Env", "Resources",
	"ResizePolicy", "RestartPolicy", "RestartPolicyRules", "VolumeMounts", "VolumeDevices", "LivenessProbe", "ReadinessProbe",
	"StartupProbe", "Lifecycle", "TerminationMessagePath", "TerminationMessagePolicy", "ImagePullPolicy", "SecurityContext",
	"Stdin", "StdinOnce", "TTY"}

// TestEqualContainersIsDeepEqual changes one field (or one field of
// Resources) of a container at a time, to a value set and, for slices and
// maps, to an empty non-nil one, and checks that equalContainers answers
// as reflect.DeepEqual: unequal, and equal to a deep copy.
func TestEqualContainersIsDeepEqual(t *testing.T) {
	ct := reflect.TypeFor[corev1.Container]()
	var names []string
	for i := range ct.NumField() {
		names = append(names, ct.Field(i).Name)
	}
	if !slices.Equal(names, containerFields) {
		t.Fatalf("corev1.Container has the fields %q, equalContainer compares %q", names, containerFields)
	}
	base := corev1.Container{Name: "app", Image: "img", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}
	changes := 0
	check := func(what string, set func(v reflect.Value)) {
		changed := *base.DeepCopy()
		set(reflect.ValueOf(&changed).Elem())
		a, b := []corev1.Container{base}, []corev1.Container{changed}
		if want := reflect.DeepEqual(a, b); equalContainers(a, b) != want || want {
			t.Errorf("%s: equalContainers %v, reflect.DeepEqual %v; want both false", what, equalContainers(a, b), want)
		}
		if c := []corev1.Container{*changed.DeepCopy()}; !equalContainers(b, c) {
			t.Errorf("%s: not equal to its deep copy", what)
		}
		changes++
	}
	var visit func(path string, index []int, t reflect.Type)
	visit = func(path string, index []int, ft reflect.Type) {
		for _, v := range variants(ft) {
			check(path, func(c reflect.Value) { c.FieldByIndex(index).Set(v) })
		}
		if ft.Kind() == reflect.Struct {
			for i := range ft.NumField() {
				visit(path+"."+ft.Field(i).Name, append(slices.Clip(index), i), ft.Field(i).Type)
			}
		}
	}
	for i := range ct.NumField() {
		visit(ct.Field(i).Name, []int{i}, ct.Field(i).Type)
	}
	if changes < len(containerFields) {
		t.Errorf("%d changes checked, want one per field at least", changes)
	}
	if equalContainers(nil, []corev1.Container{}) || !equalContainers(nil, nil) {
		t.Error("a nil and an empty slice are equal, or two nil ones are not")
	}
}

// variants are values of type t that differ from base's (zero or small)
// fields: a string, true, a one-element or empty slice, a one-entry or
// empty map, a pointer to a zero value.
func variants(t reflect.Type) []reflect.Value {
	switch t.Kind() {
	case reflect.String:
		return []reflect.Value{reflect.ValueOf("changed").Convert(t)}
	case reflect.Bool:
		return []reflect.Value{reflect.ValueOf(true)}
	case reflect.Slice:
		return []reflect.Value{reflect.MakeSlice(t, 1, 1), reflect.MakeSlice(t, 0, 0)}
	case reflect.Map:
		one := reflect.MakeMap(t)
		one.SetMapIndex(reflect.ValueOf(corev1.ResourceName("example.com/x")), reflect.ValueOf(resource.MustParse("1")))
		return []reflect.Value{one, reflect.MakeMap(t)}
	case reflect.Pointer:
		return []reflect.Value{reflect.New(t.Elem())}
	}
	return nil
}
