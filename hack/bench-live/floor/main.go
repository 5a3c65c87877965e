//go:build benchlive

// Command floor is bench-live's floor (c): the cheapest client-go listing of
// what kubectl-schedcache lists. Nodes and pods are listed concurrently, each
// page after page (limit/continue), protobuf on the wire, with no client-side
// rate limit, and every object is dropped as soon as its page is decoded.
//
// It checks on the wire that it does what it claims: every list request
// carries limit=-page-size (and, for pods, fieldSelector=-pod-field-selector)
// and every response is protobuf. It prints one line,
//
//	floor: N nodes, M pods, X+Y pages, application/vnd.kubernetes.protobuf
//
// and exits 1 on any error. TestBenchLive builds it with -tags benchlive.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

const protobuf = "application/vnd.kubernetes.protobuf"

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	pageSize := flag.Int64("page-size", 500, "objects per list request")
	podSelector := flag.String("pod-field-selector", "", "field selector of the pod list")
	flag.Parse()
	if err := run(*kubeconfig, *pageSize, *podSelector); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(kubeconfig string, pageSize int64, podSelector string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.ContentType = protobuf
	cfg.AcceptContentTypes = protobuf + ",application/json"
	cfg.QPS = -1 // no client-side rate limiter
	wire := &wireCheck{want: map[string]string{"limit": strconv.FormatInt(pageSize, 10)}, podSelector: podSelector}
	cfg.Wrap(wire.wrap)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}

	ctx := context.Background()
	var nodes, pods, nodePages, podPages int
	var nodeErr, podErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		opts := metav1.ListOptions{Limit: pageSize}
		for {
			l, err := client.CoreV1().Nodes().List(ctx, opts)
			if err != nil {
				nodeErr = err
				return
			}
			nodes, nodePages = nodes+len(l.Items), nodePages+1
			if opts.Continue = l.Continue; opts.Continue == "" {
				return
			}
		}
	})
	wg.Go(func() {
		opts := metav1.ListOptions{Limit: pageSize, FieldSelector: podSelector}
		for {
			l, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, opts)
			if err != nil {
				podErr = err
				return
			}
			pods, podPages = pods+len(l.Items), podPages+1
			if opts.Continue = l.Continue; opts.Continue == "" {
				return
			}
		}
	})
	wg.Wait()
	if err := errors.Join(nodeErr, podErr, wire.err()); err != nil {
		return err
	}
	fmt.Printf("floor: %d nodes, %d pods, %d+%d pages, %s\n", nodes, pods, nodePages, podPages, protobuf)
	return nil
}

// wireCheck is an http.RoundTripper that records the first request or
// response that does not match what the floor claims to do.
type wireCheck struct {
	next        http.RoundTripper
	want        map[string]string // query parameters of every list request
	podSelector string

	mu    sync.Mutex
	first error
}

func (w *wireCheck) wrap(rt http.RoundTripper) http.RoundTripper {
	w.next = rt
	return w
}

func (w *wireCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	for k, v := range w.want {
		if q.Get(k) != v {
			w.fail(fmt.Errorf("%s: %s=%q, want %q", req.URL, k, q.Get(k), v))
		}
	}
	if req.URL.Path == "/api/v1/pods" && q.Get("fieldSelector") != w.podSelector {
		w.fail(fmt.Errorf("%s: fieldSelector=%q, want %q", req.URL, q.Get("fieldSelector"), w.podSelector))
	}
	resp, err := w.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusOK && resp.Header.Get("Content-Type") != protobuf {
		w.fail(fmt.Errorf("%s: response Content-Type %q, want %q", req.URL, resp.Header.Get("Content-Type"), protobuf))
	}
	return resp, err
}

func (w *wireCheck) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first == nil {
		w.first = err
	}
}

func (w *wireCheck) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}
