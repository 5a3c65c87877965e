package load

import (
	"bufio"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/resource"
)

// StdinSource is how standard input ("-") is named in messages and in
// Cluster.Source.
const StdinSource = "stdin"

var (
	nodeGVK = corev1.SchemeGroupVersion.WithKind("Node")
	podGVK  = corev1.SchemeGroupVersion.WithKind("Pod")
)

// FileOptions configures ReadFiles.
type FileOptions struct {
	// Filenames are read in order. Each is a file, a directory (its .json,
	// .yaml and .yml files, in lexical order), a glob pattern, an http(s)
	// URL, or "-" for Stdin (at most once).
	Filenames []string
	// Recursive also reads the subdirectories of directories (kubectl's -R).
	Recursive bool
	// Stdin is read for the filename "-"; ReadFiles never reads os.Stdin.
	Stdin io.Reader
}

// ReadFiles reads Nodes and Pods from manifests or `kubectl get -o
// yaml|json` output: any mix of multi-document YAML, JSON, and v1 Lists
// (also typed lists such as PodList) is accepted.
//
// Directories, globs, URLs and YAML go through cli-runtime's local resource
// builder. JSON files and JSON on stdin (the first byte that is not
// whitespace is "{") are streamed instead (see stream.go): the builder holds
// a whole List as generic maps before handing over its items (it allocates
// 4.2 GB to read the 150 MB export of a 1,000-node, 30,000-pod cluster),
// while the stream decodes one item at a time into its typed object, on
// every core, with client-go's scheme (0.66 GB, 3× faster; BenchmarkReadFiles).
// Both give the same objects and follow the rules below. Pods are slimmed
// of what no accounting reads (slimPod) and equal values are shared between
// objects (share.go), so the objects must be treated as read-only.
//
// The result is what the scheduler's informers would have delivered had the
// objects been stored by an API server:
//   - objects of other kinds are skipped, with one summary warning on
//     warnings;
//   - pods in phase Succeeded or Failed are skipped, with one summary note;
//   - pods are defaulted by DefaultPod and nodes by DefaultNode, which
//     changes nothing for objects exported from a cluster;
//   - pods without a namespace get "default", and pods without a UID get
//     DerivedUID(namespace, name), with one summary warning;
//   - managedFields are dropped, and so are apiVersion and kind, so that
//     objects are exactly as List (a typed client) delivers them.
//
// warnings may be nil. Errors are *Error of Kind InvalidInput: a missing
// file, a filename given twice, a malformed document (named as "<file>:
// document <n>: <cause>", where n counts the non-empty documents of the file
// from 1, a List counting as one), an object that does not convert to a Node
// or Pod, a Node or Pod without a name, the same node name or pod
// namespace/name read twice, or input with no nodes and no (non-terminal)
// pods at all.
func ReadFiles(opts FileOptions, warnings io.Writer) (*Cluster, error) {
	if warnings == nil {
		warnings = io.Discard
	}
	if len(opts.Filenames) == 0 {
		return nil, &Error{Kind: InvalidInput, Msg: "no files to read"}
	}

	r := newFileReader()
	given := make(map[string]bool, len(opts.Filenames))
	for _, name := range opts.Filenames {
		if given[name] {
			return nil, &Error{Kind: InvalidInput, Msg: fmt.Sprintf("%q is given more than once", name)}
		}
		given[name] = true
		if err := r.read(name, opts); err != nil {
			return nil, err
		}
	}

	r.warn(warnings)
	source := describeInputs(opts.Filenames)
	if len(r.nodes) == 0 && len(r.pods) == 0 {
		return nil, &Error{Kind: InvalidInput, Msg: "no nodes or pods found in " + source}
	}
	return &Cluster{Nodes: r.nodes, Pods: r.pods, Source: source}, nil
}

// fileReader collects the objects of all sources, read one after another
// (by the builder or by the stream), so it needs no locking.
type fileReader struct {
	share *listSharer
	nodes []*corev1.Node
	pods  []*corev1.Pod

	current    string                 // the source being visited
	item       int                    // the List item being added, from 1; 0 outside a List
	docs       map[string]int         // non-empty documents visited so far, by source
	seen       map[objectKey]location // where each node and pod was read
	failed     error                  // the first error returned to the builder
	skipped    map[string]int         // objects of other kinds, by kind
	terminal   int                    // Succeeded or Failed pods
	derived    int                    // pods given a DerivedUID
	derivedEg  string                 // one of them, "namespace/name"
	derivedUID string                 // its UID
}

func newFileReader() *fileReader {
	return &fileReader{share: newListSharer(), docs: map[string]int{}, skipped: map[string]int{}, seen: map[objectKey]location{}}
}

// read reads one of FileOptions.Filenames: JSON files and JSON on stdin
// through the stream, anything else through the builder.
func (r *fileReader) read(name string, opts FileOptions) error {
	if name == "-" {
		if opts.Stdin == nil {
			return &Error{Kind: InvalidInput, Msg: `cannot read "-": no standard input`}
		}
		in := bufio.NewReaderSize(opts.Stdin, streamBuffer)
		if startsJSON(in) {
			return r.stream(StdinSource, in)
		}
		// The builder's own "-" handling reads os.Stdin; Stream reads any
		// reader, named as given.
		return r.build(resource.NewLocalBuilder().Unstructured().Stream(in, StdinSource))
	}
	if f := openJSONFile(name); f != nil {
		defer f.Close()
		return r.stream(name, f)
	}
	return r.build(resource.NewLocalBuilder().Unstructured().
		FilenameParam(false, &resource.FilenameOptions{Filenames: []string{name}, Recursive: opts.Recursive}))
}

// build visits what b reads.
func (r *fileReader) build(b *resource.Builder) error {
	result := b.Do()
	err := result.Err()
	if err == nil {
		err = result.Visit(r.visit)
	}
	if err != nil {
		return r.inputError(err)
	}
	return nil
}

// startSource starts counting the documents of source from the first again:
// a source read twice (a file in a directory and given by name) is counted
// from its first document again.
func (r *fileReader) startSource(source string) {
	r.current = source
	r.docs[source] = 0
}

// location is where an object was read: the n-th document of source, and
// the item of that document's List (from 1; 0 outside a List).
type location struct {
	source    string
	doc, item int
}

func (l location) String() string {
	if l.item > 0 {
		return fmt.Sprintf("%s document %d item %d", l.source, l.doc, l.item)
	}
	return fmt.Sprintf("%s document %d", l.source, l.doc)
}

// visit is the builder's VisitorFunc: each call is one document of a source.
// The builder keeps visiting the other sources after an error, so visit
// stops converting once one has occurred.
func (r *fileReader) visit(info *resource.Info, err error) error {
	if err != nil {
		return err
	}
	if r.failed != nil {
		return r.failed
	}
	if info.Source != r.current {
		r.startSource(info.Source)
	}
	r.docs[info.Source]++
	r.failed = r.add(info.Source, info.Object)
	return r.failed
}

// objectKey is an informer's key for a node (empty namespace) or a pod.
type objectKey struct {
	kind, namespace, name string
}

func (k objectKey) String() string {
	if k.namespace == "" {
		return fmt.Sprintf("%s %q", k.kind, k.name)
	}
	return fmt.Sprintf("%s %q", k.kind, k.namespace+"/"+k.name)
}

// unique fails when key was already read: an informer holds one object per
// key, so such input is not the state of one cluster.
func (r *fileReader) unique(source string, key objectKey) error {
	here := location{source, r.docs[source], r.item}
	if first, ok := r.seen[key]; ok {
		if first == here {
			return &Error{Kind: InvalidInput, Msg: fmt.Sprintf("%s is read twice from %s: is the file given twice?", key, here)}
		}
		return &Error{Kind: InvalidInput, Msg: fmt.Sprintf("%s appears twice: in %s and in %s", key, first, here)}
	}
	r.seen[key] = here
	return nil
}

func (r *fileReader) add(source string, obj runtime.Object) error {
	switch o := obj.(type) {
	case *unstructured.UnstructuredList:
		defer func() { r.item = 0 }()
		for i := range o.Items {
			r.item = i + 1
			if err := r.addItem(source, &o.Items[i]); err != nil {
				return err
			}
			o.Items[i].Object = nil // converted: let a large list shrink as it is read
		}
		return nil
	case *unstructured.Unstructured:
		return r.addItem(source, o)
	}
	return r.docError(source, fmt.Errorf("unexpected object of type %T", obj))
}

func (r *fileReader) addItem(source string, u *unstructured.Unstructured) error {
	if u.IsList() {
		list, err := u.ToList()
		if err != nil {
			return r.docError(source, err)
		}
		return r.add(source, list)
	}
	switch gvk := u.GroupVersionKind(); gvk {
	case nodeGVK:
		node := &corev1.Node{}
		if err := r.convert(source, u, node); err != nil {
			return err
		}
		return r.addNode(source, node)
	case podGVK:
		pod := &corev1.Pod{}
		if err := r.convert(source, u, pod); err != nil {
			return err
		}
		return r.addPod(source, pod)
	default:
		r.skipped[kindLabel(gvk)]++
	}
	return nil
}

// addNode keeps node, read from the current document of source, as a typed
// client delivers it.
func (r *fileReader) addNode(source string, node *corev1.Node) error {
	if err := r.unique(source, objectKey{"node", "", node.Name}); err != nil {
		return err
	}
	node.TypeMeta, node.ManagedFields = metav1.TypeMeta{}, nil
	DefaultNode(node)
	r.share.node(node)
	r.nodes = append(r.nodes, node)
	return nil
}

// addPod keeps pod, read from the current document of source, as the API
// server would have stored it and a typed client delivers it, unless it is
// terminal.
func (r *fileReader) addPod(source string, pod *corev1.Pod) error {
	if terminal(pod) {
		r.terminal++
		return nil
	}
	pod.TypeMeta, pod.ManagedFields = metav1.TypeMeta{}, nil
	if pod.Namespace == "" {
		pod.Namespace = metav1.NamespaceDefault
	}
	if err := r.unique(source, objectKey{"pod", pod.Namespace, pod.Name}); err != nil {
		return err
	}
	if pod.UID == "" {
		pod.UID = DerivedUID(pod.Namespace, pod.Name)
		if r.derived == 0 {
			r.derivedEg, r.derivedUID = pod.Namespace+"/"+pod.Name, string(pod.UID)
		}
		r.derived++
	}
	DefaultPod(pod)
	slimPod(pod)
	r.share.pod(pod)
	r.pods = append(r.pods, pod)
	return nil
}

// convert fills obj (a *Node or *Pod) from u and checks that it has a name.
func (r *fileReader) convert(source string, u *unstructured.Unstructured, obj interface {
	runtime.Object
	GetName() string
}) error {
	kind := u.GetKind()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.UnstructuredContent(), obj); err != nil {
		return r.docError(source, fmt.Errorf("%s %q: %w", kind, u.GetName(), err))
	}
	if obj.GetName() == "" {
		return r.docError(source, fmt.Errorf("%s without metadata.name", kind))
	}
	return nil
}

// docError names the document of source being visited.
func (r *fileReader) docError(source string, err error) error {
	return &Error{Kind: InvalidInput, Msg: fmt.Sprintf("%s: document %d: %s", source, r.docs[source], oneLine(err.Error())), Err: err}
}
