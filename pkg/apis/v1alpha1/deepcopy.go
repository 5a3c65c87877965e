package v1alpha1

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime"
)

// The kinds are plain data printed by cli-runtime printers, which need
// runtime.Object. A JSON round trip is a complete deep copy for them (no
// pointers to shared state, no unexported fields) and saves generated code.

func deepCopyJSON[T any](in *T) *T {
	data, err := json.Marshal(in)
	if err != nil {
		panic("v1alpha1: marshalling a plain data kind cannot fail: " + err.Error())
	}
	out := new(T)
	if err := json.Unmarshal(data, out); err != nil {
		panic("v1alpha1: unmarshalling our own JSON cannot fail: " + err.Error())
	}
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *CacheDump) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }

// DeepCopyObject implements runtime.Object.
func (in *RequestedReport) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }

// DeepCopyObject implements runtime.Object.
func (in *NodeOrder) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }

// DeepCopyObject implements runtime.Object.
func (in *Snapshot) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }

// DeepCopyObject implements runtime.Object.
func (in *Simulation) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }

// SetKind stamps apiVersion and kind on obj.
func SetKind(obj runtime.Object, kind string) {
	obj.GetObjectKind().SetGroupVersionKind(SchemeGroupVersion.WithKind(kind))
}

// DeepCopyObject implements runtime.Object.
func (in *ConfigComparison) DeepCopyObject() runtime.Object { return deepCopyJSON(in) }
