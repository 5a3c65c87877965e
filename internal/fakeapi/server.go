// Package fakeapi serves a client-go ObjectTracker over HTTP: a small
// stand-in for kube-apiserver in unit tests, so that a command's live path
// (REST config from a RESTClientGetter, the typed client, paged LISTs with
// field selectors, watches including watch-list, /version) runs exactly as
// it does against a cluster, with no test hook in the plugin's own code.
//
// It answers in JSON whatever the client accepts (client-go decodes by the
// response's Content-Type), pages with limit/continue (the continue token is
// an offset), filters by label selector and by the field selectors the
// plugin and kube-scheduler use (metadata.name, metadata.namespace,
// spec.nodeName, spec.schedulerName, status.phase), and records every
// request for assertions. Subresources (pods/log…) and writes are not
// served: the plugin is read-only.
package fakeapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"
)

// Request is one request the server received.
type Request struct {
	Method, Path string
	Query        url.Values
	// UserAgent is the request's User-Agent header.
	UserAgent string
}

// Server is a running fake API server; close it with Close (New registers
// that with t.Cleanup).
type Server struct {
	*httptest.Server
	tracker k8stesting.ObjectTracker
	kinds   map[schema.GroupVersionResource]schema.GroupVersionKind

	mu       sync.Mutex
	version  *version.Info
	requests []Request
}

// New starts a server over tracker (a fake clientset's Tracker(), so that
// the test's writes through the clientset reach the server's watchers). Its
// /version reports gitVersion; "" makes /version answer 404.
func New(t testing.TB, tracker k8stesting.ObjectTracker, gitVersion string) *Server {
	s := &Server{tracker: tracker, kinds: knownResources()}
	if gitVersion != "" {
		s.version = &version.Info{GitVersion: gitVersion}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// knownResources maps the resource of every kind client-go's scheme knows
// to that kind, as the apiserver names them (lower-case plural).
func knownResources() map[schema.GroupVersionResource]schema.GroupVersionKind {
	kinds := map[schema.GroupVersionResource]schema.GroupVersionKind{}
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if strings.HasSuffix(gvk.Kind, "List") || gvk.Version == runtime.APIVersionInternal {
			continue
		}
		plural, _ := meta.UnsafeGuessKindToResource(gvk)
		kinds[plural] = gvk
	}
	return kinds
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), UserAgent: r.UserAgent()})
	s.mu.Unlock()
	if r.Method != http.MethodGet {
		writeStatus(w, apierrors.NewMethodNotSupported(schema.GroupResource{}, r.Method))
		return
	}
	if r.URL.Path == "/version" {
		s.serveVersion(w)
		return
	}
	p, ok := s.parse(r.URL.Path)
	if !ok {
		writeStatus(w, apierrors.NewNotFound(schema.GroupResource{}, r.URL.Path))
		return
	}
	q := r.URL.Query()
	switch {
	case p.name != "":
		s.get(w, p)
	case q.Get("watch") == "true" || q.Get("watch") == "1":
		s.watch(w, r, p)
	default:
		s.list(w, p, q)
	}
}

func (s *Server) serveVersion(w http.ResponseWriter) {
	s.mu.Lock()
	v := s.version
	s.mu.Unlock()
	if v == nil {
		writeStatus(w, apierrors.NewNotFound(schema.GroupResource{}, "version"))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// path is a parsed resource path.
type path struct {
	gvr           schema.GroupVersionResource
	gvk           schema.GroupVersionKind
	namespace     string
	name, subpath string
}

// parse reads /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]] and the same
// under /apis/GROUP/VERSION.
func (s *Server) parse(p string) (path, bool) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	var gv schema.GroupVersion
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		gv, parts = schema.GroupVersion{Version: parts[1]}, parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		gv, parts = schema.GroupVersion{Group: parts[1], Version: parts[2]}, parts[3:]
	default:
		return path{}, false
	}
	var out path
	if len(parts) >= 3 && parts[0] == "namespaces" {
		out.namespace, parts = parts[1], parts[2:]
	}
	out.gvr = gv.WithResource(parts[0])
	if len(parts) > 1 {
		out.name = parts[1]
	}
	if len(parts) > 2 {
		out.subpath = strings.Join(parts[2:], "/")
	}
	gvk, ok := s.kinds[out.gvr]
	out.gvk = gvk
	return out, ok && out.subpath == ""
}

func (s *Server) get(w http.ResponseWriter, p path) {
	obj, err := s.tracker.Get(p.gvr, p.namespace, p.name)
	if err != nil {
		writeStatus(w, err)
		return
	}
	writeJSON(w, http.StatusOK, typed(obj, p.gvk))
}

// items lists the objects of p that sel and the label selector choose.
func (s *Server) items(p path, q url.Values) ([]runtime.Object, error) {
	list, err := s.tracker.List(p.gvr, p.gvk, p.namespace)
	if err != nil {
		return nil, err
	}
	all, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	match, err := selectors(q)
	if err != nil {
		return nil, err
	}
	var out []runtime.Object
	for _, o := range all {
		if match(o) {
			out = append(out, o)
		}
	}
	return out, nil
}

func (s *Server) list(w http.ResponseWriter, p path, q url.Values) {
	items, err := s.items(p, q)
	if err != nil {
		writeStatus(w, err)
		return
	}
	page, next, err := pageOf(items, q)
	if err != nil {
		writeStatus(w, err)
		return
	}
	listKind := p.gvk.GroupVersion().WithKind(p.gvk.Kind + "List")
	list, err := scheme.Scheme.New(listKind)
	if err != nil {
		writeStatus(w, err)
		return
	}
	if err := meta.SetList(list, page); err != nil {
		writeStatus(w, err)
		return
	}
	list.GetObjectKind().SetGroupVersionKind(listKind)
	if lm, err := meta.ListAccessor(list); err == nil {
		lm.SetContinue(next)
		lm.SetResourceVersion("1")
	}
	writeJSON(w, http.StatusOK, list)
}

// pageOf returns the page of items that limit and continue (an offset)
// ask for, and the next continue token ("" on the last page).
func pageOf(items []runtime.Object, q url.Values) ([]runtime.Object, string, error) {
	start := 0
	if c := q.Get("continue"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > len(items) {
			return nil, "", apierrors.NewBadRequest("invalid continue token " + strconv.Quote(c))
		}
		start = n
	}
	end := len(items)
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			return nil, "", apierrors.NewBadRequest("invalid limit " + strconv.Quote(l))
		}
		if n > 0 && start+n < end {
			end = start + n
		}
	}
	next := ""
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	return items[start:end], next, nil
}

// podFields are the field-selector fields of a pod the apiserver serves
// that the plugin (and kube-scheduler's informers) select on.
func podFields(pod *corev1.Pod) map[string]string {
	return map[string]string{
		"spec.nodeName":      pod.Spec.NodeName,
		"spec.schedulerName": pod.Spec.SchedulerName,
		"status.phase":       string(pod.Status.Phase),
	}
}

// typed returns a copy of obj with its apiVersion and kind set, as a watch
// event or a GET carries them.
func typed(obj runtime.Object, gvk schema.GroupVersionKind) runtime.Object {
	c := obj.DeepCopyObject()
	c.GetObjectKind().SetGroupVersionKind(gvk)
	return c
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// writeStatus answers err as the apiserver does: a metav1.Status.
func writeStatus(w http.ResponseWriter, err error) {
	status := apierrors.NewInternalError(err).ErrStatus
	if se, ok := err.(apierrors.APIStatus); ok {
		status = se.Status()
	}
	status.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	writeJSON(w, int(status.Code), status)
}
