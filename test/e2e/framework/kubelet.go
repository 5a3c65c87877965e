package framework

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// FakeKubelet serves container logs the way a kubelet does, so that the
// apiserver's pods/log subresource works without one: the apiserver
// connects to the node's first address at its kubelet endpoint port and
// GETs /containerLogs/NAMESPACE/POD/CONTAINER (TLS, not verified when the
// apiserver has no --kubelet-certificate-authority, as in this harness).
// Only logs are served; nothing else a kubelet does is faked.
type FakeKubelet struct {
	// Node is the node object created for it (unschedulable).
	Node *corev1.Node

	mu       sync.Mutex
	logs     map[string]string // "ns/pod/container" → log file path
	requests []string          // query strings of the log requests
}

// StartFakeKubelet starts the log server on 127.0.0.1 and creates an
// unschedulable node named name whose kubelet endpoint points at it. Both
// stop with the test.
func StartFakeKubelet(ctx context.Context, t *testing.T, c *Cluster, name string) *FakeKubelet {
	t.Helper()
	k := &FakeKubelet{logs: map[string]string{}}
	srv := httptest.NewTLSServer(http.HandlerFunc(k.serve))
	t.Cleanup(srv.Close)
	_, portStr, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatalf("e2e: fake kubelet address: %v", err)
	}
	port, _ := strconv.Atoi(portStr)
	node := NewNode(name, Resources("cpu", "2", "memory", "4Gi", "pods", "110"))
	node.Spec.Unschedulable = true
	node.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}}
	node.Status.DaemonEndpoints.KubeletEndpoint.Port = int32(port)
	if k.Node, err = c.CreateNode(ctx, node); err != nil {
		t.Fatalf("e2e: fake kubelet node: %v", err)
	}
	return k
}

// ServeLog makes the kubelet answer log requests for the container with
// the current contents of path.
func (k *FakeKubelet) ServeLog(namespace, pod, container, path string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.logs[namespace+"/"+pod+"/"+container] = path
}

// Requests returns the query strings of the log requests received so far.
func (k *FakeKubelet) Requests() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.requests...)
}

func (k *FakeKubelet) serve(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutPrefix(r.URL.Path, "/containerLogs/")
	k.mu.Lock()
	path, known := k.logs[key]
	if ok {
		k.requests = append(k.requests, r.URL.RawQuery)
	}
	k.mu.Unlock()
	if !ok || !known {
		http.NotFound(w, r)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write(data)
}
