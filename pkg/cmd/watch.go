package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cliprinters "k8s.io/cli-runtime/pkg/printers"
	"k8s.io/utils/clock"

	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/internal/watch"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// WatchFlags hold --watch and --watch-only of dump, requested and snapshot.
type WatchFlags struct {
	Watch     bool
	WatchOnly bool

	// clock paces the batches; nil is the real clock.
	clock clock.WithTicker
	// watchOnlySet records that --watch-only was given (Complete).
	watchOnlySet bool
}

// NewWatchFlags returns WatchFlags printing only changed rows.
func NewWatchFlags() *WatchFlags { return &WatchFlags{WatchOnly: true} }

// AddFlags registers -w/--watch and --watch-only.
func (f *WatchFlags) AddFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVarP(&f.Watch, "watch", "w", f.Watch,
		"After printing, watch the cluster (list and watch, as kube-scheduler's informers do) and print what changes, each batch with the snapshot's generation and the nodes that changed and why; Ctrl-C ends it (exit 130)")
	cmd.Flags().BoolVar(&f.WatchOnly, "watch-only", f.WatchOnly,
		"With --watch, print only the rows that changed; --watch-only=false prints the whole view each time")
}

// Complete records which watch flags cmd was given.
func (f *WatchFlags) Complete(cmd *cobra.Command) {
	f.watchOnlySet = cmd != nil && cmd.Flags().Changed("watch-only")
}

// Validate checks the watch flags against the input; it changes nothing.
func (f *WatchFlags) Validate(in *InputFlags) error {
	switch {
	case !f.Watch && f.watchOnlySet:
		return errors.New("--watch-only needs --watch")
	case f.Watch && len(in.Filenames) > 0:
		return errors.New("--watch watches a cluster; files (-f) do not change")
	}
	return nil
}

// watchView renders one kind in watch mode.
type watchView struct {
	// build renders the view of the model (snapshot: the watcher's own):
	// every node when only is nil, else at least the nodes in only, which
	// all exist (a view that is costly per node builds just those).
	build func(m *model.Model, s *cache.Snapshot, only []string) (runtime.Object, error)
	// table returns the table of a built view; its Before and After lines
	// frame a whole table (not printed with --no-headers).
	table func(obj runtime.Object, t printers.TableOptions) (*printers.Table, error)
	// only keeps the named nodes of a built view.
	only func(obj runtime.Object, names map[string]bool)
	// set puts a built view into a CacheWatchEvent.
	set func(ev *v1alpha1.CacheWatchEvent, obj runtime.Object)
	// sticky, if set, records in the table options what later partial
	// views must keep (dump: the wide scalar columns).
	sticky func(obj runtime.Object, t *printers.TableOptions)
}

// runWatch runs the watcher and prints view on stdout: the whole view once
// synced, then each batch. It returns when the context is canceled (Ctrl-C).
func runWatch(ctx context.Context, in *InputFlags, out *OutputFlags, wf *WatchFlags, streams genericiooptions.IOStreams, view watchView) error {
	// A watch runs on, allocating per batch: the memory policy's pace for
	// it, not a listing's.
	in.memory.Watch()
	client, host, err := in.client(streams.ErrOut)
	if err != nil {
		return err
	}
	source := "cluster"
	if host != "" {
		source += " " + host
	}
	// A server that cannot be reached fails in the first listing, as the
	// plain command's does (same bound, text and exit code), without a
	// warning about its version first: that waits until the server has
	// answered.
	var said pipeline.Notes
	choice, err := in.Choose(ctx, streams, nil, &said)
	if err != nil {
		return err
	}
	sayVersion := func() { printNotes(streams.ErrOut, &said) }
	var synced func()
	if load.Unreached(choice.ServerErr, host) != nil {
		synced = sayVersion
	} else {
		sayVersion()
	}
	w := watch.New(watch.Options{Client: client, Source: source, Host: host, Notes: streams.ErrOut, Clock: wf.clock,
		Cache: cache.Options{Profile: &choice.Profile}, Synced: synced})
	r := &watchRenderer{view: view, out: out, watchOnly: wf.WatchOnly, opts: out.TableOptions(streams.Out)}
	return w.Run(ctx, streams.Out, r.render)
}

// watchRenderer turns the model into the text of each batch.
type watchRenderer struct {
	view      watchView
	out       *OutputFlags
	watchOnly bool
	opts      printers.TableOptions
	table     *printers.StreamTable
	printer   cliprinters.ResourcePrinter
}

// render builds the view under the watcher's lock; formatting it (the
// table or the JSON) happens in the returned Text, after the lock.
func (r *watchRenderer) render(m *model.Model, s *cache.Snapshot, d *watch.Delta) (watch.Text, error) {
	var only []string
	if d != nil && r.watchOnly {
		only = []string{}
		for _, c := range d.Changes {
			if !c.Gone {
				only = append(only, c.Name)
			}
		}
	}
	obj, err := r.view.build(m, s, only)
	if err != nil {
		return nil, err
	}
	if !r.out.IsTable() {
		gen := s.Generation()
		return func() (string, error) { return r.structured(obj, d, gen) }, nil
	}
	return func() (string, error) { return r.tableText(obj, d) }, nil
}

// tableText prints the whole table the first time (and each time with
// --watch-only=false), else the delta line and the changed rows; the rows
// are arranged (--columns, --sort-by) as without --watch.
func (r *watchRenderer) tableText(obj runtime.Object, d *watch.Delta) (string, error) {
	t, err := r.view.table(obj, r.opts)
	if err != nil {
		return "", usageError(err)
	}
	if err := t.Arrange(r.opts); err != nil {
		return "", usageError(err)
	}
	header, names, rows := t.Lines(r.opts)
	if r.view.sticky != nil {
		r.view.sticky(obj, &r.opts)
	}
	var b strings.Builder
	newHeader := r.table == nil || !slices.Equal(header, r.table.Columns())
	if d == nil || !r.watchOnly || newHeader {
		r.table = printers.NewStreamTable(header...)
	}
	if d != nil {
		b.WriteString(deltaLine(d))
	}
	if d == nil || !r.watchOnly {
		r.table.Fit(rows)
		if !r.opts.NoHeaders {
			b.WriteString(linesText(t.Before))
			b.WriteString(r.table.Header())
		}
		b.WriteString(r.table.Rows(rows))
		if !r.opts.NoHeaders {
			b.WriteString(linesText(t.After))
		}
		return b.String(), nil
	}
	if newHeader && !r.opts.NoHeaders {
		b.WriteString(r.table.Header()) // a resource column appeared or went
	}
	changed := changedNames(d)
	var keep [][]string
	for i, row := range rows {
		// "" is requested's TOTAL row, which every change moves.
		if changed[names[i]] || names[i] == "" {
			keep = append(keep, row)
		}
	}
	b.WriteString(r.table.Rows(keep))
	return b.String(), nil
}

// linesText joins lines, each ending in a newline.
func linesText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// structured prints a CacheWatchEvent with the -o printer.
func (r *watchRenderer) structured(obj runtime.Object, d *watch.Delta, generation int64) (string, error) {
	ev := &v1alpha1.CacheWatchEvent{Type: "Initial"}
	v1alpha1.SetKind(ev, "CacheWatchEvent")
	if d != nil {
		ev.Type, ev.Sequence, ev.Events = "Changed", d.Sequence, d.Events
		ev.Generation = v1alpha1.Int64Change{From: d.From, To: d.To}
		for _, c := range d.Changes {
			ev.Changes = append(ev.Changes, v1alpha1.WatchNodeChange{Node: c.Name, Reasons: c.Reasons, Gone: c.Gone})
		}
		if r.watchOnly {
			r.view.only(obj, changedNames(d))
		}
	}
	// --sort-by orders the view's list, as without --watch.
	if r.opts.SortBy != "" || r.opts.Reverse {
		t, err := r.view.table(obj, r.opts)
		if err == nil {
			err = t.Arrange(r.opts)
		}
		if err != nil {
			return "", usageError(err)
		}
	}
	r.view.set(ev, obj)
	if d == nil {
		ev.Generation = v1alpha1.Int64Change{From: generation, To: generation}
	}
	// One printer for the whole stream: the YAML printer separates the
	// documents after the first with "---".
	if r.printer == nil {
		p, err := r.out.PrintFlags.ToPrinter()
		if err != nil {
			return "", err
		}
		r.printer = p
	}
	var buf bytes.Buffer
	if err := r.printer.PrintObj(ev, &buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func changedNames(d *watch.Delta) map[string]bool {
	m := map[string]bool{}
	for _, c := range d.Changes {
		m[c.Name] = true
	}
	return m
}

// maxDeltaNodes bounds the nodes named on a delta line; the rows that
// follow show every one.
const maxDeltaNodes = 20

// deltaLine introduces a batch: "# generation 41 -> 44, 3 events: node-a:
// pod default/web-1 added; node-c: node removed (gone)".
func deltaLine(d *watch.Delta) string {
	var parts []string
	for i, c := range d.Changes {
		if i == maxDeltaNodes {
			parts = append(parts, "and "+termtext.Count(len(d.Changes)-i, "more node"))
			break
		}
		s := c.Name + ": " + strings.Join(c.Reasons, ", ")
		if c.Gone {
			s += " (gone)"
		}
		parts = append(parts, s)
	}
	events := termtext.Count(d.Events, "event")
	return termtext.Line(fmt.Sprintf("# generation %d -> %d, %s: %s", d.From, d.To, events, strings.Join(parts, "; "))) + "\n"
}
