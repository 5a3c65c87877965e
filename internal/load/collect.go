package load

// This file holds what happens to each object once decoded, for files and
// live lists alike: the informer's transform (managedFields dropped),
// defaulting of objects from files, slimming and sharing, the terminal-pod
// skip; and, for files, what an informer would make of the input: one
// object per kind and namespace/name, a later object replacing an earlier
// one as an update does.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// prepareNode makes node what the scheduler's informer delivers: without
// managedFields (and TypeMeta, as a typed client delivers it). Nodes from
// files are defaulted as the API server would have stored them. A nil share
// is the plain path (FileOptions.Plain): nothing is shared.
func prepareNode(node *corev1.Node, share *listSharer, fromFile bool) {
	node.TypeMeta, node.ManagedFields = metav1.TypeMeta{}, nil
	if fromFile {
		DefaultNode(node)
	}
	if share != nil {
		share.node(node)
	}
}

// preparePod does for a pod what prepareNode does for a node, and slims it
// (slimPod). It returns false for a terminal pod, which the scheduler's
// informer never delivers (the caller drops it). Pods from files get the
// namespace "default" when they have none and are defaulted (DefaultPod);
// it returns true when it derived the pod's UID (DerivedUID). A nil share
// is the plain path (FileOptions.Plain): the pod is neither slimmed nor
// shared.
func preparePod(pod *corev1.Pod, share *listSharer, fromFile bool) (keep, derived bool) {
	return preparePodLocked(pod, share, nil, fromFile)
}

// preparePodLocked is preparePod holding mu (when not nil) while it shares:
// the decode workers prepare the pods of files on every core with the
// collector's one sharer (reader.prepare).
func preparePodLocked(pod *corev1.Pod, share *listSharer, mu *sync.Mutex, fromFile bool) (keep, derived bool) {
	if terminal(pod) {
		return false, false
	}
	pod.TypeMeta, pod.ManagedFields = metav1.TypeMeta{}, nil
	if fromFile {
		DefaultFilePod(pod)
		if pod.UID == "" {
			pod.UID, derived = DerivedUID(pod.Namespace, pod.Name), true
		}
	}
	if share != nil {
		slimPodKeeping(pod, share.keepEmptyDir)
		if mu != nil {
			mu.Lock()
			defer mu.Unlock()
		}
		share.pod(pod)
	}
	return true, derived
}

// prepared is what preparing a pod where it was decoded found
// (reader.prepare): done is false for a pod the collector prepares itself.
type prepared struct {
	done, keep, derived bool
}

// prepareObject drops managedFields and TypeMeta from an object of a
// scheduling kind.
func prepareObject(obj kruntime.Object) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}

// objectKey is an informer's key: the kind and namespace/name.
type objectKey struct {
	group, kind, namespace, name string
}

func (k objectKey) String() string {
	kind := strings.ToLower(k.kind)
	if k.namespace == "" {
		return fmt.Sprintf("%s %q", kind, k.name)
	}
	return fmt.Sprintf("%s %q", kind, k.namespace+"/"+k.name)
}

// collector gathers the objects read from files, in order.
type collector struct {
	share *listSharer
	// shareMu guards share: the decode workers prepare pods with it
	// (reader.prepare) while the collector prepares nodes.
	shareMu sync.Mutex
	feed    sinkFeed
	count   *readCount // nil without a progress line
	onNodes func(nodes int64)
	objects bool // keep the scheduling kinds
	extra   map[schema.GroupKind]bool

	nodes   []*corev1.Node
	pods    []*corev1.Pod
	others  []kruntime.Object
	keys    keyTable
	removed int // pods replaced by a terminal one: nil in pods until the end

	// namespace is FileOptions.Namespace (namespaceOf).
	namespace string

	// For the summary.
	terminal    int
	skipped     int // objects of kinds nobody reads
	derived     int
	derivedEg   string
	derivedUID  string
	replaced    []string // the first maxReplacedLines replacement warnings
	nReplaced   int
	warnings    []string // one line each, in order
	deferred    []*piece // untyped List items waiting for the List's kind
	skippedSrcs int
	// internalSkips counts the files skipped for being in the internal form
	// (errInternalForm); internalNames names all but the first.
	internalSkips int
	internalNames []string
	// manifests are the workloads read without metadata.uid (manifests.go).
	manifests []*manifestRef
	// presize sizes keys.pods for the input (presize.go).
	presize presize
}

// maxReplacedLines is how many replacements are named one by one; the rest
// are counted.
const maxReplacedLines = 10

func newCollector(objects bool, extra map[schema.GroupKind]bool) *collector {
	return &collector{share: newListSharer(), objects: objects, extra: extra, keys: newKeyTable()}
}

// add adds a decoded piece of src, in order. Untyped List items wait for
// the end of their List, whose kind may come after them.
func (c *collector) add(src *source, p *piece, r *reader) error {
	switch {
	case p.ListEnd:
		return c.endList(src, p, r)
	case len(c.deferred) > 0 && p.Loc.Item > 0, untyped(p):
		held := *p // the batch, and its text, are reused
		held.Raw = bytes.Clone(p.Raw)
		c.deferred = append(c.deferred, &held)
		return nil
	}
	return c.addFirstOrNot(src, p, r)
}

// addFirstOrNot adds p; when it is the first piece of src, it first checks
// that src holds Kubernetes objects: a file found in a directory or by a
// glob that does not is skipped with a warning.
func (c *collector) addFirstOrNot(src *source, p *piece, r *reader) error {
	if !src.started {
		src.started = true
		if what := sniff(p.Raw); what != "" && (p.Err != nil || p.skip) {
			return c.notObjects(src, what)
		}
		if p.Binary && !src.expanded {
			return inputError(src.name+": binary data, not YAML or JSON", nil)
		}
		if why, ok := notObjects(p); ok && src.expanded {
			c.skipSource(src.name, why, errors.Is(p.Err, errInternalForm))
			c.skippedSrcs++
			src.skipped = true
			return nil
		}
	}
	return c.addPiece(p, r)
}

// untyped reports whether p is a List item without kind, whose List's kind
// is not known yet (it may come after the items).
func untyped(p *piece) bool {
	return p.Loc.Item > 0 && errors.Is(p.Err, errNoKind) && p.Header.Kind == ""
}

// addPiece adds a decoded piece, or fails with its error.
func (c *collector) addPiece(p *piece, r *reader) error {
	switch {
	case p.Err != nil && kruntime.IsNotRegisteredError(p.Err):
		// A Node or Pod of an apiVersion no scheduler reads.
		c.warnings = append(c.warnings, fmt.Sprintf("%s: skipped %s %q: apiVersion %q is not one the scheduler reads (v1)",
			p.Loc.Prefix(), p.gvk.Kind, objectName(p), p.gvk.GroupVersion().String()))
		return nil
	case p.Err != nil:
		return c.pieceError(p)
	case p.skip:
		if p.gvk.Kind != "" {
			c.skipped++
		}
		if p.manifest != nil {
			c.addManifest(p.manifest)
		}
		return nil
	}
	err := c.addObject(p.obj, p.gvk, p.Loc, r, p.prepared)
	c.added(len(p.Raw), p.obj)
	return err
}

// endList adds the items held until the List's kind was known.
func (c *collector) endList(src *source, end *piece, r *reader) error {
	if end.Err != nil {
		return c.pieceError(end)
	}
	deferred := c.deferred
	c.deferred = nil
	for _, p := range deferred {
		if untyped(p) {
			p.Err, p.Header = nil, end.Header
			r.decodePiece(p)
		}
		if err := c.addFirstOrNot(src, p, r); err != nil || src.skipped {
			return err
		}
	}
	return nil
}

// endSource adds what src left pending: items of a List that never ended
// (its end is an error, reported before).
func (c *collector) endSource(src *source, r *reader) error {
	if len(c.deferred) > 0 {
		return c.endList(src, &piece{}, r)
	}
	return nil
}

// skipSource warns that a file found in a directory or by a glob is
// skipped. A dump in the internal form is a directory of such files: the
// first says why, the others are folded into one line (warn).
func (c *collector) skipSource(name, why string, internal bool) {
	if internal && c.internalSkips > 0 {
		c.internalSkips++
		c.internalNames = append(c.internalNames, name)
		return
	}
	if internal {
		c.internalSkips++
	}
	c.warnings = append(c.warnings, fmt.Sprintf("skipped %s: %s", name, why))
}

// notObjects says why a source's first piece shows it holds no Kubernetes
// objects: binary data, text that is not YAML or JSON, values that are not
// objects, or objects without a kind outside a declared List.
func notObjects(p *piece) (string, bool) {
	var not notAnObject
	var syntax *read.SyntaxError
	var ysyntax *yamlSyntaxError
	switch {
	case p.Binary:
		return "binary data, not YAML or JSON", true
	case errors.As(p.Err, &syntax) || errors.As(p.Err, &ysyntax):
		return fmt.Sprintf("not YAML or JSON (%s)", p.Err), true
	case errors.As(p.Err, &not):
		return fmt.Sprintf("not Kubernetes objects (%s: %s)", p.Loc.Prefix()[len(p.Loc.Source)+2:], not.what), true
	case errors.Is(p.Err, errInternalForm):
		return fmt.Sprintf("not Kubernetes objects (%s: %s)", p.Loc.Prefix()[len(p.Loc.Source)+2:], p.Err), true
	case errors.Is(p.Err, errNoKind) && !p.Header.Declared():
		return fmt.Sprintf("not Kubernetes objects (%s: no \"kind\")", p.Loc.Prefix()[len(p.Loc.Source)+2:]), true
	}
	return "", false
}

// pieceError names the piece, and the object when it has a kind and name.
func (c *collector) pieceError(p *piece) error {
	loc := p.Loc
	var cut *read.PieceError
	if errors.As(p.Err, &cut) {
		loc.Doc, loc.Item = cut.Doc, cut.Item
	}
	msg := loc.Prefix() + ": "
	if name := objectName(p); name != "" {
		msg += fmt.Sprintf("%s %q: ", p.gvk.Kind, name)
	}
	return inputError(msg+cleanCause(p.Err.Error()), p.Err)
}

// objectName reads the name of the object of a piece that failed to decode.
func objectName(p *piece) string {
	if p.gvk.Kind == "" || p.Raw == nil {
		return ""
	}
	data := p.Raw
	if p.YAML {
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			return ""
		}
		data = j
	}
	var named struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(data, &named)
	return named.Metadata.Name
}

// addObject adds one decoded object read at loc.
// A pod is prepared unless prep says it was where it was decoded.
func (c *collector) addObject(obj kruntime.Object, gvk schema.GroupVersionKind, loc read.Location, r *reader, prep prepared) error {
	switch o := obj.(type) {
	case *corev1.Node:
		if o.Name == "" {
			return inputError(fmt.Sprintf("%s: Node without metadata.name", loc.Prefix()), nil)
		}
		return c.addNode(o, loc)
	case *corev1.Pod:
		if o.Name == "" {
			return inputError(fmt.Sprintf("%s: Pod without metadata.name", loc.Prefix()), nil)
		}
		return c.addPod(o, loc, prep)
	}
	if meta.IsListType(obj) {
		return c.addList(obj, loc, r)
	}
	kind := schedulingKind(gvk)
	if (kind == nil || !c.objects) && !c.extra[gvk.GroupKind()] {
		c.skipped++
		return nil
	}
	m, err := meta.Accessor(obj)
	if err != nil || m.GetName() == "" {
		return inputError(fmt.Sprintf("%s: %s without metadata.name", loc.Prefix(), gvk.Kind), nil)
	}
	if m.GetUID() == "" && isWorkloadKind(gvk.GroupKind()) {
		c.addManifest(&manifestRef{kind: gvk.Kind, namespace: m.GetNamespace(), name: m.GetName(), loc: loc})
	}
	prepareObject(obj)
	c.setNamespace(gvk.GroupKind(), m)
	key := objectKey{gvk.Group, gvk.Kind, m.GetNamespace(), m.GetName()}
	if at, ok := replaceKey(c, c.keys.others, key, key, loc); ok {
		c.others[at] = obj
		return nil
	}
	c.keys.others[key] = c.keys.kept(loc, len(c.others))
	c.others = append(c.others, obj)
	return nil
}

// addList adds the items of a List decoded whole (a List within a YAML
// document in flow style, or within another List).
func (c *collector) addList(list kruntime.Object, loc read.Location, r *reader) error {
	items, err := meta.ExtractList(list)
	if err != nil {
		return inputError(fmt.Sprintf("%s: %v", loc.Prefix(), err), err)
	}
	for _, item := range items {
		if u, ok := item.(*kruntime.Unknown); ok {
			p := &piece{Piece: read.Piece{Raw: u.Raw, Loc: loc}}
			r.decodePiece(p)
			if err := c.addPiece(p, r); err != nil {
				return err
			}
			continue
		}
		gvks, _, err := scheme.Scheme.ObjectKinds(item)
		if err != nil {
			return inputError(fmt.Sprintf("%s: %v", loc.Prefix(), err), err)
		}
		if err := c.addObject(item, gvks[0], loc, r, prepared{}); err != nil {
			return err
		}
	}
	return nil
}

func (c *collector) addNode(node *corev1.Node, loc read.Location) error {
	c.shareMu.Lock()
	prepareNode(node, c.share, true)
	c.shareMu.Unlock()
	if at, ok := replaceKey(c, c.keys.nodes, node.Name, objectKey{"", "Node", "", node.Name}, loc); ok {
		c.nodes[at] = node
		c.feed.discard()
		return nil
	}
	c.keys.nodes[node.Name] = c.keys.kept(loc, len(c.nodes))
	c.nodes = append(c.nodes, node)
	c.feed.node(node)
	if c.count != nil {
		c.count.nodes.Add(1)
	}
	if c.onNodes != nil && len(c.nodes)%nodesStep == 0 {
		c.onNodes(int64(len(c.nodes)))
	}
	return nil
}

// nodesStep is how often FileOptions.OnNodes hears of the nodes read.
const nodesStep = 500

// addPod adds pod, read at loc, preparing it unless prep says it was.
func (c *collector) addPod(pod *corev1.Pod, loc read.Location, prep prepared) error {
	if !prep.done {
		prep = c.prepare(pod)
	}
	keep, derived := prep.keep, prep.derived
	key := podKey{pod.Namespace, pod.Name}
	if derived {
		if c.derived == 0 {
			c.derivedEg, c.derivedUID = pod.Namespace+"/"+pod.Name, string(pod.UID)
		}
		c.derived++
	}
	at, replacing := replaceKey(c, c.keys.pods, key, objectKey{"", "Pod", pod.Namespace, pod.Name}, loc)
	if replacing {
		c.feed.discard()
	}
	switch {
	case !keep:
		c.terminal++
		if replacing { // the update to a terminal phase takes it out of the informer's view
			c.pods[at] = nil
			c.removed++
			c.keys.pods[key] = c.keys.kept(loc, -1)
		} else if _, seen := c.keys.pods[key]; !seen {
			c.keys.pods[key] = c.keys.kept(loc, -1)
		}
	case replacing:
		c.pods[at] = pod
	default:
		c.keys.pods[key] = c.keys.kept(loc, len(c.pods))
		c.pods = append(c.pods, pod)
		c.feed.pod(pod)
		if c.count != nil {
			c.count.pods.Add(1)
		}
	}
	return nil
}

// prepare gives pod its namespace (namespaceOf) and prepares it
// (preparePod). Safe for concurrent use: the decode workers call it.
func (c *collector) prepare(pod *corev1.Pod) prepared {
	pod.Namespace = c.namespaceOf(pod.Namespace)
	keep, derived := preparePodLocked(pod, c.share, &c.shareMu, true)
	return prepared{done: true, keep: keep, derived: derived}
}

// result returns the pods without those taken out by terminal updates.
func (c *collector) result() ([]*corev1.Node, []*corev1.Pod, []kruntime.Object) {
	pods := c.pods
	if c.removed > 0 {
		pods = make([]*corev1.Pod, 0, len(c.pods)-c.removed)
		for _, p := range c.pods {
			if p != nil {
				pods = append(pods, p)
			}
		}
	}
	return c.nodes, pods, c.others
}

// inputError is an *Error of Kind InvalidInput with msg made safe to print.
func inputError(msg string, err error) *Error {
	return &Error{Kind: InvalidInput, Msg: clean(msg), Err: err}
}
