//go:build benchlive

// Command fakeapi serves the nodes and pods of a hack/gen-cluster file the way
// kube-apiserver answers kubectl-schedcache's paged lists, for measuring the
// plugin at sizes a real apiserver cannot hold on the project's machines (one
// with 150,000 pods needs most of their memory; docs/PERFORMANCE.md#live-mode). TestProgressFakeAPI builds it with -tags
// benchlive.
//
// It answers GET /api/v1/nodes and GET /api/v1/pods with protobuf NodeList
// and PodList pages (application/vnd.kubernetes.protobuf), honoring limit
// (none or 0: everything at once) and continue (an item offset here, opaque
// to clients). As the apiserver does, every page but the last has
// metadata.continue, and node pages carry remainingItemCount while pod pages
// do not: the apiserver leaves it out when a field selector is set. Pods must
// be listed with the plugin's selector, status.phase!=Succeeded,
// status.phase!=Failed, and only the non-terminal pods are served.
//
// Objects are kept whole (uid, resourceVersion, managedFields and all), as
// gen-cluster wrote them. Pages of -page-size items (the plugin's default
// page size) are encoded before serving, so that they are answered at memory
// speed and a listing is bound by the client; pages of any other size are
// encoded per request. Other paths get 404 and a log line.
//
// It listens on plain HTTP at -addr, logs to stderr and, once ready, prints
// "<url> <nodes> <pods>" (the counts it serves) on stdout.
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/schedcache/kubectl-schedcache/hack/bench-live/internal/jsonlist"
)

// podFieldSelector is the one pod field selector served: the plugin's
// (internal/load.PodFieldSelector), in its order.
const podFieldSelector = "status.phase!=Succeeded,status.phase!=Failed"

func main() {
	input := flag.String("input", "", "hack/gen-cluster file (a JSON v1 List of nodes and pods)")
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	pageSize := flag.Int("page-size", 500, "size of the pages encoded before serving")
	flag.Parse()
	log.SetPrefix("fakeapi: ")
	log.SetFlags(0)
	if *input == "" || *pageSize <= 0 {
		log.Fatal("-input is required, -page-size must be positive")
	}

	began := time.Now()
	var nodes, pods []runtime.Object
	terminal := 0
	if err := readItems(*input, func(obj runtime.Object) error {
		switch o := obj.(type) {
		case *corev1.Node:
			nodes = append(nodes, o)
		case *corev1.Pod:
			if o.Status.Phase == corev1.PodSucceeded || o.Status.Phase == corev1.PodFailed {
				terminal++
			} else {
				pods = append(pods, o)
			}
		default:
			return fmt.Errorf("unexpected %T", obj)
		}
		return nil
	}); err != nil {
		log.Fatalf("%s: %v", *input, err)
	}
	read := time.Since(began)

	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		log.Fatal("no protobuf serializer")
	}
	enc := scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion)
	nodeList := &list{items: nodes, enc: enc, remaining: true, newList: func(items []runtime.Object) runtime.Object {
		l := &corev1.NodeList{Items: make([]corev1.Node, len(items))}
		for i, o := range items {
			l.Items[i] = *o.(*corev1.Node)
		}
		return l
	}}
	podList := &list{items: pods, enc: enc, selector: podFieldSelector, newList: func(items []runtime.Object) runtime.Object {
		l := &corev1.PodList{Items: make([]corev1.Pod, len(items))}
		for i, o := range items {
			l.Items[i] = *o.(*corev1.Pod)
		}
		return l
	}}
	began = time.Now()
	var bytes int
	for _, l := range []*list{nodeList, podList} {
		if err := l.encodePages(*pageSize); err != nil {
			log.Fatal(err)
		}
		for _, p := range l.pages {
			bytes += len(p)
		}
	}
	debug.FreeOSMemory()
	log.Printf("%d nodes, %d pods (%d terminal ones dropped) read in %v; %d+%d pages of %d encoded in %v, %.0f MB",
		len(nodes), len(pods), terminal, read.Round(time.Millisecond), len(nodeList.pages), len(podList.pages), *pageSize,
		time.Since(began).Round(time.Millisecond), float64(bytes)/1e6)

	mux := http.NewServeMux()
	mux.Handle("GET /api/v1/nodes", nodeList)
	mux.Handle("GET /api/v1/pods", podList)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		log.Printf("404 %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s %d %d\n", ln.Addr(), len(nodes), len(pods))
	log.Fatal(http.Serve(ln, mux))
}

// list serves one resource's list.
type list struct {
	items     []runtime.Object
	enc       runtime.Encoder
	newList   func([]runtime.Object) runtime.Object // a NodeList or PodList of items
	remaining bool                                  // set remainingItemCount
	selector  string                                // the field selector required
	pageSize  int
	pages     [][]byte // of pageSize items, encoded
}

// encode encodes the page of at most limit items (all when limit is 0)
// starting at item from.
func (l *list) encode(from, limit int) ([]byte, error) {
	to := len(l.items)
	if limit > 0 {
		to = min(to, from+limit)
	}
	obj := l.newList(l.items[from:to])
	m := obj.(metav1.ListMetaAccessor).GetListMeta()
	m.SetResourceVersion("1")
	if to < len(l.items) {
		m.SetContinue(strconv.Itoa(to))
		if l.remaining {
			n := int64(len(l.items) - to)
			m.SetRemainingItemCount(&n)
		}
	}
	return runtime.Encode(l.enc, obj)
}

func (l *list) encodePages(size int) error {
	l.pageSize = size
	for from := 0; from == 0 || from < len(l.items); from += size {
		p, err := l.encode(from, size)
		if err != nil {
			return err
		}
		l.pages = append(l.pages, p)
	}
	return nil
}

func (l *list) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := strconv.Atoi(cmp.Or(q.Get("limit"), "0"))
	from, err2 := strconv.Atoi(cmp.Or(q.Get("continue"), "0"))
	if err != nil || err2 != nil || limit < 0 || from < 0 || from > len(l.items) || q.Get("fieldSelector") != l.selector ||
		q.Get("labelSelector") != "" || q.Get("watch") != "" {
		log.Printf("400 %s", r.URL)
		http.Error(w, "fakeapi: unsupported list request "+r.URL.String(), http.StatusBadRequest)
		return
	}
	var page []byte
	if i := from / l.pageSize; limit == l.pageSize && from%l.pageSize == 0 && i < len(l.pages) {
		page = l.pages[i]
	} else if page, err = l.encode(from, limit); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
	w.Header().Set("Content-Length", strconv.Itoa(len(page)))
	if _, err := w.Write(page); err != nil {
		log.Printf("%s: client gone: %v", r.URL, err)
	}
}

// readItems decodes the items of the v1 List in the file one at a time, each
// with the client-go scheme's universal deserializer (no defaulting or
// conversion: as written), and calls fn with each.
func readItems(path string, fn func(runtime.Object) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	deser := scheme.Codecs.UniversalDeserializer()
	return jsonlist.Each(bufio.NewReaderSize(f, 1<<20), func(item []byte) error {
		obj, _, err := deser.Decode(item, nil, nil)
		if err != nil {
			return err
		}
		return fn(obj)
	})
}
