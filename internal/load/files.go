package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"
)

// StdinSource is how standard input ("-") is named in messages and in
// Cluster.Source.
const StdinSource = "stdin"

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
	// Context, when done, stops the reading between two batches of
	// objects (and a URL's fetch): ReadFiles then returns its error
	// (context.Canceled for Ctrl-C). Nil means context.Background().
	Context context.Context
	// Objects keeps the objects of SchedulingKinds in Cluster.Objects; by
	// default they are skipped like any other kind.
	Objects bool
	// ExtraKinds are other kinds kept in Cluster.Objects, e.g. the
	// workloads of a --pod-file (Deployment, DaemonSet, Job…).
	ExtraKinds []schema.GroupKind
	// KeepEmptyDir keeps the pods' emptyDir and hostPath volumes, which
	// are otherwise dropped with the other volumes only the kubelet reads
	// (slim.go): kubectl drain's local-storage rule needs emptyDir,
	// cluster-autoscaler's (scale-down) both.
	KeepEmptyDir bool
	// Namespace is the namespace of namespaced objects that have none (a
	// manifest without metadata.namespace), as kubectl's -n or the
	// context's namespace; "" means "default".
	Namespace string
	// Plain reads without the memory layer (compact.go): client-go's decoder
	// for pods too, nothing slimmed, nothing shared. Every view must print
	// the same with it as without (TestViewsSameWithoutCompaction in
	// pkg/cmd); it takes about twice the memory.
	Plain bool
	// Limits bound each document; the zero value means the defaults.
	Limits Limits
	// Holds names what the input is read for, in the error of an input
	// that holds none of it: "no HOLDS found in …"; "" means "nodes or
	// pods".
	Holds string
	// Hypothetical marks pods that exist in no cluster (a --pod-file): a
	// UID derived for one (DerivedUID) only keys it in this run's cache,
	// the same in every run, and is not worth a warning. Manifests read
	// with -f keep it: their pods stand for real ones.
	Hypothetical bool
	// Sink, when not nil, receives the nodes and pods as they are read, so
	// that the model is built while reading goes on (see Sink for when it
	// is discarded instead).
	Sink Sink
	// Progress, when not nil, receives a progress line as ListOptions'
	// does: "read 312 of 742 MB, 5,000 nodes, 41,000 pods" (the total when
	// a single regular file is read), with "; modelled …" when there is a
	// Sink. The caller passes one only when it is a terminal.
	Progress io.Writer
	// OnNodes, when not nil, is called from the reading goroutine with the
	// number of nodes read so far, each time it reaches a multiple of
	// nodesStep: the node count of a file is known only as it is read,
	// and a file of small objects holds more of them than its bytes
	// suggest, so that the caller can size itself as the nodes arrive
	// (before the pods, in kubectl's order).
	OnNodes func(nodes int64)

	// clock drives the progress line; nil means the real clock.
	clock clock.WithTicker

	// decode replaces decodeTyped in tests and benchmarks.
	decode decodeFunc
}

// ReadFiles reads Nodes and Pods (and, with Objects, the objects of
// SchedulingKinds) from manifests or `kubectl get -o yaml|json` output,
// the way kube-scheduler's informers would have delivered them had the
// objects been stored by an API server.
//
// Input: any mix of multi-document YAML, JSON (a stream of objects, or
// arrays of objects as support bundles write them), Lists (v1 List and
// typed lists such as PodList, whose items may lack kind and apiVersion, as
// `kubectl cluster-info dump` writes them), in files, directories (with
// Recursive, their subdirectories too), globs, URLs and stdin. Every
// source goes through one reader: cut into documents and List items
// without holding a List whole (YAML Lists in block style too), each
// decoded into its typed object with client-go's scheme, in parallel, and
// added in input order. Each document or item is bounded by opts.Limits
// (size) and MaxDepth (nesting); a key given twice in a JSON or YAML
// object is an error; regular files only (and "-"), so reading always ends.
//
// The result follows these rules, with warnings (one line each) on
// warnings, which may be nil:
//   - objects of other kinds (Deployments, ConfigMaps, CRDs, Events…) are
//     skipped silently, except a workload (Deployment, Job…) without
//     metadata.uid: a manifest never created, whose pods are in no input,
//     gets a note pointing to --pod-file (the first three by name, then a
//     count; none with Hypothetical); a Node or Pod of another apiVersion
//     than v1 is skipped with a warning;
//   - files found in a directory or by a glob that hold no Kubernetes
//     objects (binary data, text that is not YAML or JSON, YAML or JSON
//     that is not objects with a kind: READMEs, scripts, values files) are
//     skipped with one warning each; a file named on its own is an error;
//   - a directory read without Recursive whose subdirectories hold
//     manifests gets a note saying so;
//   - pods in phase Succeeded or Failed are skipped, with one summary note;
//   - pods are defaulted by DefaultPod and nodes by DefaultNode, which
//     changes nothing for objects exported from a cluster;
//   - pods without a namespace get "default", and pods without a UID get
//     DerivedUID(namespace, name), with one summary warning;
//   - managedFields are dropped, and so are apiVersion and kind, so that
//     objects are exactly as List (a typed client) delivers them; pods are
//     slimmed (slimPod) and equal values shared (share.go), so all objects
//     must be treated as read-only;
//   - an object whose kind and namespace/name were read before replaces
//     the earlier one (an informer sees an update), in the earlier one's
//     place, with a warning naming both places; a file reached twice (by
//     a directory and by name) is read once, with a note.
//
// Errors are *Error of Kind InvalidInput: a missing file, a filename given
// twice, a device or pipe, malformed input (named as "<file>: document
// <n>: [item <m>: ][<Kind> "<name>": ]<cause>", where n counts the
// non-empty documents of the file from 1 and m the items of a List from
// 1), a document over the size limit or nested too deep, a Node or Pod
// without a name, or input with no nodes and no (non-terminal) pods at all
// (nor, with ExtraKinds, objects of those kinds).
func ReadFiles(opts FileOptions, warnings io.Writer) (*Cluster, error) {
	if warnings == nil {
		warnings = io.Discard
	}
	if len(opts.Filenames) == 0 {
		return nil, &Error{Kind: InvalidInput, Msg: "no files to read"}
	}
	extra := make(map[schema.GroupKind]bool, len(opts.ExtraKinds))
	for _, gk := range opts.ExtraKinds {
		extra[gk] = true
	}
	r := &reader{ctx: opts.Context, limits: opts.Limits, objects: opts.Objects, extra: extra, decode: opts.decode, c: newCollector(opts.Objects, extra)}
	if r.ctx == nil {
		r.ctx = context.Background()
	}
	compact(r, opts)
	r.c.namespace = opts.Namespace
	r.c.feed.sink = opts.Sink
	r.c.onNodes = opts.OnNodes
	r.c.presize.input = singleFileSize(opts.Filenames)
	if opts.Progress != nil {
		r.count = &readCount{total: singleFileSize(opts.Filenames)}
		r.c.count = r.count
		clk := opts.clock
		if clk == nil {
			clk = clock.RealClock{}
		}
		p := startReadProgress(opts.Progress, clk, r.count, &r.c.feed)
		defer p.Stop()
	}
	// Before the progress line stops: it counts what the sink was given.
	defer r.c.feed.goAsync()()
	var notes []string
	given := make(map[string]bool, len(opts.Filenames))
	read := map[string]bool{}
	for _, name := range opts.Filenames {
		if given[name] {
			return nil, inputError(fmt.Sprintf("%q is given more than once", name), nil)
		}
		given[name] = true
		sources, note, err := expand(name, opts.Recursive, opts.Stdin)
		if err != nil {
			return nil, inputError(err.Error(), err)
		}
		if note != "" {
			notes = append(notes, note)
		}
		for _, src := range sources {
			if abs, err := filepath.Abs(src.name); err == nil && src.name != StdinSource {
				if read[abs] {
					notes = append(notes, fmt.Sprintf("%s is read once, although given more than once", src.name))
					continue
				}
				read[abs] = true
			}
			if err := r.read(src); err != nil {
				return nil, err
			}
		}
	}

	c := r.c
	nodes, pods, objects := c.result()
	if opts.Hypothetical {
		c.derived = 0
		c.manifests = nil // a --pod-file's workloads are meant to be manifests
	}
	c.warn(warnings, notes)
	source := describeInputs(opts.Filenames)
	if len(nodes) == 0 && len(pods) == 0 && (len(opts.ExtraKinds) == 0 || len(objects) == 0) {
		holds := opts.Holds
		if holds == "" {
			holds = "nodes or pods"
		}
		msg := "no " + holds + " found in " + source
		if c.skipped > 0 {
			msg += fmt.Sprintf(" (%s of other kinds)", plural(c.skipped, "object"))
			if c.skipped == 1 {
				msg = strings.Replace(msg, "(1 object of other kinds)", "(1 object of another kind)", 1)
			}
		}
		if c.skippedSrcs > 0 {
			msg += fmt.Sprintf("; %s skipped (see the warnings above)", plural(c.skippedSrcs, "file"))
		}
		return nil, inputError(msg, nil)
	}
	return &Cluster{Nodes: nodes, Pods: pods, Objects: objects, Source: source}, nil
}

// singleFileSize is the size of the one regular file names holds, or 0.
func singleFileSize(names []string) int64 {
	if len(names) != 1 {
		return 0
	}
	fi, err := os.Stat(names[0])
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}

// read reads one source.
func (r *reader) read(src *source) error {
	in, err := src.open(r.ctx)
	if err != nil {
		if !src.expanded || !errors.Is(err, errNotRegular) {
			if errors.Is(err, errNotRegular) {
				return inputError(err.Error()+"; use - to read standard input", err)
			}
			return inputError(err.Error(), err)
		}
		r.c.warnings = append(r.c.warnings, fmt.Sprintf("skipped %s", err))
		return nil
	}
	defer in.Close()
	if r.count != nil {
		return r.readSource(src, countingReader{in, &r.count.bytes})
	}
	return r.readSource(src, in)
}
