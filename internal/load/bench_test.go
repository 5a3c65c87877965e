package load

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// BenchmarkReadFiles reads hack/gen-cluster's 1,000 nodes and 30,000 pods
// (one `kubectl get -o json` List, 150 MB) two ways, in the same run: with
// ReadFiles, and with cli-runtime's builder decoding the List into generic
// objects then converting its nodes and pods (kubectl's own way, the
// baseline of docs/PERFORMANCE.md; it neither defaults, slims nor shares).
func BenchmarkReadFiles(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), 1000, 30000)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	read := map[string]func() int{
		"reader": func() int {
			c, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
			if err != nil {
				b.Fatal(err)
			}
			return len(c.Pods)
		},
		"builder": func() int { return len(buildBaseline(b, path)) },
	}
	for _, name := range []string{"reader", "builder"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			var pods int
			for b.Loop() {
				pods = read[name]()
			}
			b.ReportMetric(float64(pods), "pods")
		})
	}
}

// buildBaseline reads path with cli-runtime's local builder and converts
// the non-terminal pods it finds.
func buildBaseline(tb testing.TB, path string) []*corev1.Pod {
	var pods []*corev1.Pod
	err := resource.NewLocalBuilder().Unstructured().Flatten().
		FilenameParam(false, &resource.FilenameOptions{Filenames: []string{path}}).Do().
		Visit(func(info *resource.Info, err error) error {
			if err != nil {
				return err
			}
			u, ok := info.Object.(*unstructured.Unstructured)
			if !ok || u.GetKind() != "Pod" {
				return nil
			}
			pod := &corev1.Pod{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, pod); err != nil {
				return err
			}
			if !terminal(pod) {
				pods = append(pods, pod)
			}
			return nil
		})
	if err != nil {
		tb.Fatal(err)
	}
	return pods
}

// BenchmarkLoad5kNodes150kPods measures loading 5,000 nodes and 150,000 pods
// the two ways: ReadFiles of hack/gen-cluster's List (740 MB of JSON:
// decode, default, slim, share, in order), and List from an API server that
// serves the same objects as protobuf pages of 500 (client-go decode, pager,
// dropping managedFields, slim, share). The fake server only copies
// pre-encoded pages, so List's figures are the client's.
func BenchmarkLoad5kNodes150kPods(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), loadtest.LargeNodes, loadtest.LargePods)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var cluster *Cluster
	b.Run("ReadFiles", func(b *testing.B) {
		b.SetBytes(fi.Size())
		b.ReportAllocs()
		for b.Loop() {
			cluster = nil // let the previous one go before the next read
			c, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
			if err != nil {
				b.Fatal(err)
			}
			cluster = c
		}
		b.ReportMetric(float64(len(cluster.Pods)), "pods")
	})
	if cluster == nil {
		c, err := ReadFiles(FileOptions{Filenames: []string{path}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		cluster = c
	}
	srv := newListServer(b, cluster)
	b.Run("List", func(b *testing.B) {
		b.SetBytes(srv.bytes)
		b.ReportAllocs()
		for b.Loop() {
			c, err := List(b.Context(), srv.client, ListOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if len(c.Nodes) != len(cluster.Nodes) || len(c.Pods) != len(cluster.Pods) {
				b.Fatalf("listed %d nodes and %d pods, want %d and %d", len(c.Nodes), len(c.Pods), len(cluster.Nodes), len(cluster.Pods))
			}
		}
	})
}

// listServer serves nodes and pods as protobuf list pages on loopback.
type listServer struct {
	client kubernetes.Interface
	bytes  int64 // one full listing
}

func newListServer(tb testing.TB, c *Cluster) *listServer {
	tb.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		tb.Fatal("no protobuf serializer")
	}
	enc := scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
	encodePages := func(n int, page func(from, to int, cont string) runtime.Object) [][]byte {
		var pages [][]byte
		for from := 0; from == 0 || from < n; from += DefaultPageSize {
			to := min(n, from+DefaultPageSize)
			cont := ""
			if to < n {
				cont = strconv.Itoa(len(pages) + 1)
			}
			data, err := runtime.Encode(enc, page(from, to, cont))
			if err != nil {
				tb.Fatal(err)
			}
			pages = append(pages, data)
		}
		return pages
	}
	nodePages := encodePages(len(c.Nodes), func(from, to int, cont string) runtime.Object {
		l := &corev1.NodeList{ListMeta: metav1.ListMeta{Continue: cont, ResourceVersion: "1"}}
		for _, n := range c.Nodes[from:to] {
			l.Items = append(l.Items, *n)
		}
		return l
	})
	podPages := encodePages(len(c.Pods), func(from, to int, cont string) runtime.Object {
		l := &corev1.PodList{ListMeta: metav1.ListMeta{Continue: cont, ResourceVersion: "1"}}
		for _, p := range c.Pods[from:to] {
			l.Items = append(l.Items, *p)
		}
		return l
	})
	s := &listServer{}
	for _, p := range append(append([][]byte(nil), nodePages...), podPages...) {
		s.bytes += int64(len(p))
	}
	serve := func(pages [][]byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			i, _ := strconv.Atoi(r.URL.Query().Get("continue"))
			if r.URL.Query().Get("limit") != strconv.Itoa(DefaultPageSize) || i >= len(pages) {
				http.Error(w, "unexpected list request "+r.URL.String(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
			_, _ = w.Write(pages[i])
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1/nodes", serve(nodePages))
	mux.HandleFunc("/api/v1/pods", serve(podPages))
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	cfg := &rest.Config{Host: srv.URL}
	ConfigureClient(cfg, nil)
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	s.client = client
	return s
}
