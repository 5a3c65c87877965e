package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
	apiversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

// Source is where the nodes and pods come from, as the input flags open
// it: files (Files not empty) or a live cluster (Client).
type Source struct {
	// Files are -f's names (files, directories, globs, URLs, "-"), read
	// with Recursive (-R), Stdin for "-", within Limits; Plain reads
	// without the memory layer (load.FileOptions.Plain).
	Files     []string
	Recursive bool
	Stdin     io.Reader
	Limits    load.Limits
	Plain     bool
	// Namespace is the namespace of file objects that have none.
	Namespace string
	// Client opens the live connection (made once, by its first call;
	// warnings receives the API server's Warning headers) and returns the
	// server's host. Not called when reading files.
	Client func(warnings io.Writer) (kubernetes.Interface, string, error)
	// ChunkSize is the page size of the live listing (objects per request).
	ChunkSize int64
	// Objects also loads the objects of load.SchedulingKinds (decisions);
	// ExtraKinds are kinds loaded besides (drain: DaemonSets);
	// KeepEmptyDir keeps the pods' emptyDir volumes (drain).
	Objects      bool
	ExtraKinds   []load.SchedulingKind
	KeepEmptyDir bool
	// Progress receives the progress line (a terminal), nil for none.
	Progress io.Writer
	// Memory sizes the process for the input (nil: nothing changes;
	// MemoryOf of the command's context).
	Memory MemoryPolicy
}

// MemoryPolicy is told the size of what a command is about to hold, so
// that it may raise the soft memory limit or change the collector's pace.
// main installs the one policy (internal/heaplimit.Policy); an embedder of
// pkg/cmd that installs none keeps its own settings. Methods may be
// called from any goroutine.
type MemoryPolicy interface {
	// InputBytes: files of n bytes in total are about to be read.
	InputBytes(n int64)
	// Nodes: a live listing announced n nodes, or n nodes were read from
	// files so far.
	Nodes(n int64)
	// Decisions: kube-scheduler's framework is about to run on the model.
	Decisions()
	// ScriptSteps: a simulation script of n steps is about to run.
	ScriptSteps(n int)
	// Watch: the command follows the cluster from now on (--watch).
	Watch()
	// Reading: files are being read (after InputBytes), until done is
	// called.
	Reading() (done func())
}

type memoryKey struct{}

// WithMemory returns ctx carrying the process's memory policy p; main
// installs it in the context the commands run with.
func WithMemory(ctx context.Context, p MemoryPolicy) context.Context {
	return context.WithValue(ctx, memoryKey{}, p)
}

// MemoryOf is the memory policy ctx carries: a no-op one when it carries
// none (a program embedding pkg/cmd keeps its own GC settings).
func MemoryOf(ctx context.Context) MemoryPolicy {
	if p, ok := ctx.Value(memoryKey{}).(MemoryPolicy); ok && p != nil {
		return p
	}
	return noMemoryPolicy{}
}

// noMemoryPolicy changes nothing.
type noMemoryPolicy struct{}

func (noMemoryPolicy) InputBytes(int64) {}
func (noMemoryPolicy) Nodes(int64)      {}
func (noMemoryPolicy) Decisions()       {}
func (noMemoryPolicy) ScriptSteps(int)  {}
func (noMemoryPolicy) Watch()           {}
func (noMemoryPolicy) Reading() func()  { return func() {} }

// PlainReadEnv is the environment variable that, set to anything, makes
// -f read without the memory layer (load.FileOptions.Plain): to check
// that a figure does not come from it, at about twice the memory.
const PlainReadEnv = "SCHEDCACHE_PLAIN_READ"

// IsFiles reports whether the source is files.
func (s *Source) IsFiles() bool { return len(s.Files) > 0 }

// Load reads the files or lists the cluster, handing the nodes and pods
// to sink (when not nil) as they come, and the warnings to notes. Errors
// are load's (*load.Error: InvalidInput, Unreachable, …).
func (s *Source) Load(ctx context.Context, sink load.Sink, notes *Notes) (*load.Cluster, error) {
	if s.IsFiles() {
		opts := s.fileOptions(ctx, sink)
		if s.Memory != nil {
			defer s.Memory.Reading()()
		}
		return load.ReadFiles(opts, notes.Writer())
	}
	client, host, err := s.Client(notes.Writer())
	if err != nil {
		return nil, err
	}
	opts := load.ListOptions{PageSize: s.ChunkSize, Host: host, Warnings: notes.Writer(), Sink: sink, KeepEmptyDir: s.KeepEmptyDir, Progress: s.Progress}
	if s.Memory != nil {
		opts.OnNodeTotal = s.Memory.Nodes
	}
	if s.Objects {
		opts.Kinds = load.SchedulingKinds
	}
	if len(s.ExtraKinds) > 0 {
		opts.Kinds = append(append([]load.SchedulingKind(nil), opts.Kinds...), s.ExtraKinds...)
	}
	return load.List(ctx, client, opts)
}

func (s *Source) fileOptions(ctx context.Context, sink load.Sink) load.FileOptions {
	opts := load.FileOptions{
		Context: ctx, Filenames: s.Files, Recursive: s.Recursive, Stdin: s.Stdin, Objects: s.Objects, Limits: s.Limits, Sink: sink,
		KeepEmptyDir: s.KeepEmptyDir, Namespace: s.Namespace, Plain: s.Plain || os.Getenv(PlainReadEnv) != "", Progress: s.Progress,
	}
	for _, k := range s.ExtraKinds {
		opts.ExtraKinds = append(opts.ExtraKinds, schema.GroupKind{Group: k.GVR.Group, Kind: k.Kind})
	}
	if s.Memory != nil {
		s.Memory.InputBytes(inputBytes(s.Files))
		// Small objects: more nodes than the bytes suggest.
		opts.OnNodes = s.Memory.Nodes
	}
	return opts
}

// inputBytes is the total size of the regular files named (directories,
// globs, URLs and stdin count for nothing: their size is not known before
// they are read).
func inputBytes(names []string) int64 {
	var n int64
	for _, name := range names {
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
	}
	return n
}

// ServerVersion asks the live API server for its git version (GET
// /version), with ctx: Ctrl-C ends the request, also while it connects
// (client-go's Discovery().ServerVersion() takes no context).
func (s *Source) ServerVersion(ctx context.Context) (string, error) {
	client, _, err := s.Client(io.Discard)
	if err != nil {
		return "", err
	}
	body, err := client.Discovery().RESTClient().Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return "", err
	}
	var info apiversion.Info
	if err := json.Unmarshal(body, &info); err != nil {
		return "", fmt.Errorf("unable to parse the server version: %v", err)
	}
	return info.GitVersion, nil
}
