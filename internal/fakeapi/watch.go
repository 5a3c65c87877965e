package fakeapi

import (
	"encoding/json"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Getter returns a RESTClientGetter (cli-runtime's test getter) whose
// REST config points at url, with namespace as the context's namespace —
// what a command gets from ConfigFlags in production.
func Getter(url, namespace string) genericclioptions.RESTClientGetter {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["fake"] = &clientcmdapi.Cluster{Server: url}
	cfg.AuthInfos["fake"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["fake"] = &clientcmdapi.Context{Cluster: "fake", AuthInfo: "fake", Namespace: namespace}
	cfg.CurrentContext = "fake"
	return genericclioptions.NewTestConfigFlags().
		WithClientConfig(clientcmd.NewDefaultClientConfig(*cfg, &clientcmd.ConfigOverrides{})).
		WithNamespace(namespace)
}

// Getter returns a RESTClientGetter for s, with "default" as the
// context's namespace.
func (s *Server) Getter() genericclioptions.RESTClientGetter { return Getter(s.URL, "default") }

// selectors returns the filter of the request's labelSelector and
// fieldSelector.
func selectors(q url.Values) (func(runtime.Object) bool, error) {
	ls, err := labels.Parse(q.Get("labelSelector"))
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	fs, err := fields.ParseSelector(q.Get("fieldSelector"))
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return func(o runtime.Object) bool {
		m, err := meta.Accessor(o)
		if err != nil {
			return false
		}
		set := fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}
		if pod, ok := o.(*corev1.Pod); ok {
			for k, v := range podFields(pod) {
				set[k] = v
			}
		}
		return ls.Matches(labels.Set(m.GetLabels())) && fs.Matches(set)
	}, nil
}

// watch streams the tracker's events of p as JSON watch events until the
// client goes away. With sendInitialEvents=true (client-go's watch-list,
// on by default since v1.35) it first sends the current objects and the
// bookmark that ends them, as the apiserver does.
func (s *Server) watch(w http.ResponseWriter, r *http.Request, p path) {
	q := r.URL.Query()
	match, err := selectors(q)
	if err != nil {
		writeStatus(w, err)
		return
	}
	wi, err := s.tracker.Watch(p.gvr, p.namespace)
	if err != nil {
		writeStatus(w, err)
		return
	}
	defer wi.Stop()
	var initial []runtime.Object
	if q.Get("sendInitialEvents") == "true" {
		if initial, err = s.items(p, q); err != nil {
			writeStatus(w, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	send := func(t watch.EventType, obj runtime.Object) bool {
		ev := metav1.WatchEvent{Type: string(t), Object: runtime.RawExtension{Object: typed(obj, p.gvk)}}
		if err := enc.Encode(&ev); err != nil {
			return false
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		return true
	}
	for _, o := range initial {
		if !send(watch.Added, o) {
			return
		}
	}
	if q.Get("sendInitialEvents") == "true" && !send(watch.Bookmark, s.endOfInitialEvents(p)) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return
			}
			if match(ev.Object) && !send(ev.Type, ev.Object) {
				return
			}
		}
	}
}

// endOfInitialEvents is the bookmark that closes a watch-list's initial
// events: an empty object of the kind carrying the annotation.
func (s *Server) endOfInitialEvents(p path) runtime.Object {
	obj, err := scheme.Scheme.New(p.gvk)
	if err != nil {
		return &metav1.Status{}
	}
	if m, err := meta.Accessor(obj); err == nil {
		m.SetResourceVersion("1")
		m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return obj
}
