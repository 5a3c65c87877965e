package framework

import (
	"context"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// LoaderQPS is the client-side rate limit of the harness's clients. client-go
// defaults to 5 QPS / burst 10, which would make a 30,000-pod load take
// hours (30,000 creates at 5 a second).
const LoaderQPS = 1000

// LoaderConfig returns a copy of cfg fit for bulk loading: QPS and Burst
// raised to LoaderQPS and protobuf on the wire (cheaper for the apiserver
// and the client than JSON for built-in types).
func LoaderConfig(cfg *rest.Config) *rest.Config {
	out := rest.CopyConfig(cfg)
	out.QPS = LoaderQPS
	out.Burst = LoaderQPS
	out.ContentType = "application/vnd.kubernetes.protobuf"
	out.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	return out
}

// LoadObjects creates the namespaces of pods that do not exist yet, then all
// nodes, then all pods (writing their status when they carry one, see
// Cluster.CreatePod), each phase with workers concurrent requests. The client
// should come from a LoaderConfig (Cluster.AdminClient does) or the client's
// rate limiter, not the server, sets the pace. It stops at the first error.
func LoadObjects(ctx context.Context, client kubernetes.Interface, nodes []*corev1.Node, pods []*corev1.Pod, workers int) error {
	if workers < 1 {
		workers = 1
	}
	var namespaces []string
	seen := map[string]bool{}
	for _, p := range pods {
		if !seen[p.Namespace] {
			seen[p.Namespace] = true
			namespaces = append(namespaces, p.Namespace)
		}
	}
	err := parallel(ctx, workers, len(namespaces), func(ctx context.Context, i int) error {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespaces[i]}}
		_, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create namespace %s: %w", namespaces[i], err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = parallel(ctx, workers, len(nodes), func(ctx context.Context, i int) error {
		_, err := createNode(ctx, client, nodes[i])
		return err
	})
	if err != nil {
		return err
	}
	return parallel(ctx, workers, len(pods), func(ctx context.Context, i int) error {
		_, err := createPod(ctx, client, pods[i])
		return err
	})
}

// parallel runs fn(ctx, i) for i in [0, n) on up to workers goroutines and
// returns the first error; after it, the context passed to fn is cancelled
// and no new item is started.
func parallel(ctx context.Context, workers, n int, fn func(context.Context, int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					cancel(err) // only the first cause is kept
				}
			}
		}()
	}
	var fed int
	for fed < n {
		select {
		case next <- fed:
			fed++
			continue
		case <-ctx.Done():
		}
		break
	}
	close(next)
	wg.Wait()
	if fed < n || ctx.Err() != nil {
		// The first fn error, or the parent's cancellation.
		return context.Cause(ctx)
	}
	return nil
}
