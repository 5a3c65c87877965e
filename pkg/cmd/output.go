package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/kubectl/pkg/cmd/get"

	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// OutputFlags hold -o and the table options every data command shares:
// --no-headers, --columns, --sort-by, --reverse and, where a command has
// resource columns, --resources. Table, wide and csv output are ours;
// custom-columns is kubectl's printer over the table's row objects; json,
// yaml, jsonpath and templates go through cli-runtime's printers (json and
// yaml streamed around them: printers.StreamJSON, printers.StreamYAML).
type OutputFlags struct {
	PrintFlags *genericclioptions.PrintFlags
	NoHeaders  bool
	Columns    []string
	SortBy     string
	Reverse    bool
	Resources  []string

	withResources bool
	// emptyTable builds the command's table of an empty view, for the
	// completion of --sort-by and --columns (nil: no table flags to
	// complete).
	emptyTable func(printers.TableOptions) (*printers.Table, error)
}

// Output formats of our own, besides cli-runtime's.
const (
	formatCSV           = "csv"
	formatCustomColumns = "custom-columns"
)

// NewOutputFlags returns OutputFlags defaulting to a table.
func NewOutputFlags() *OutputFlags {
	return &OutputFlags{PrintFlags: genericclioptions.NewPrintFlags("").WithDefaultOutput("")}
}

// withTable sets the command's table of an empty view, whose column
// names --sort-by and --columns complete.
func (f *OutputFlags) withTable(empty func(printers.TableOptions) (*printers.Table, error)) *OutputFlags {
	f.emptyTable = empty
	return f
}

// WithResources adds --resources, for commands with resource columns.
func (f *OutputFlags) WithResources() *OutputFlags {
	f.withResources = true
	return f
}

// AddFlags registers -o/--output, the table flags and the template flags.
func (f *OutputFlags) AddFlags(cmd *cobra.Command) {
	f.PrintFlags.AddFlags(cmd)
	cmd.Flags().Lookup("output").Usage = "Output format: " + strings.Join(f.allowed(), ", ")
	// managedFields do not exist on our kinds.
	_ = cmd.Flags().MarkHidden("show-managed-fields")
	fl := cmd.Flags()
	fl.BoolVar(&f.NoHeaders, "no-headers", f.NoHeaders, "Omit table headers, the TOTAL row and summary lines (table, wide, csv, custom-columns)")
	fl.StringSliceVar(&f.Columns, "columns", f.Columns, "Show these table columns, in this order, by header name (any case); an unknown name lists the valid ones")
	fl.StringVar(&f.SortBy, "sort-by", f.SortBy, "Sort rows by this column (header name, any case): text A to Z, quantities largest first, positions (#, TIME) first to last; sorts json/yaml lists too")
	fl.BoolVar(&f.Reverse, "reverse", f.Reverse, "Reverse the order of --sort-by (smallest quantity first), or without it the default order")
	if f.withResources {
		fl.StringSliceVar(&f.Resources, "resources", f.Resources, "Give columns to these resources only, in this order (cpu, memory, ephemeral-storage, pods, nvidia.com/gpu, …)")
	}
	f.registerCompletions(cmd)
}

func (f *OutputFlags) format() string { return *f.PrintFlags.OutputFormat }

// customColumnsSpec returns the spec of -o custom-columns=SPEC.
func (f *OutputFlags) customColumnsSpec() (string, bool) {
	name, spec, found := strings.Cut(f.format(), "=")
	return spec, found && name == formatCustomColumns
}

// IsTable reports table or wide output.
func (f *OutputFlags) IsTable() bool {
	switch f.format() {
	case "", "table", "wide":
		return true
	}
	return false
}

// Wide reports -o wide.
func (f *OutputFlags) Wide() bool { return f.format() == "wide" }

// rowsOutput reports the formats printed from a Table's rows.
func (f *OutputFlags) rowsOutput() bool {
	_, custom := f.customColumnsSpec()
	return f.IsTable() || f.format() == formatCSV || custom
}

func (f *OutputFlags) allowed() []string {
	out := []string{"table", "wide", formatCSV, formatCustomColumns + "=HEADER:JSONPATH,…"}
	for _, a := range f.PrintFlags.AllowedFormats() {
		if a != "name" {
			out = append(out, a)
		}
	}
	return out
}

// Validate rejects unknown formats, listing the allowed ones, and a
// custom-columns spec that does not parse.
func (f *OutputFlags) Validate() error {
	if f.IsTable() || f.format() == formatCSV {
		return nil
	}
	if spec, ok := f.customColumnsSpec(); ok {
		if _, err := get.NewCustomColumnsPrinterFromSpec(spec, unstructured.UnstructuredJSONScheme, f.NoHeaders); err != nil {
			return fmt.Errorf("invalid -o custom-columns: %w", err)
		}
		return nil
	}
	if f.format() != "name" {
		if _, err := f.PrintFlags.ToPrinter(); err == nil {
			return nil
		} else if !genericclioptions.IsNoCompatiblePrinterError(err) {
			return err
		}
	}
	return fmt.Errorf("unknown output format %q: allowed formats are %s", f.format(), strings.Join(f.allowed(), ", "))
}

// TableOptions derives printer options: colour only on a terminal without
// NO_COLOR (https://no-color.org: set and not empty), names truncated to the
// terminal's width only on a terminal, never in a pipe.
func (f *OutputFlags) TableOptions(out io.Writer) printers.TableOptions {
	_, custom := f.customColumnsSpec()
	return printers.TableOptions{
		Wide: f.Wide(), NoHeaders: f.NoHeaders, Color: os.Getenv("NO_COLOR") == "" && isTerminal(out),
		Columns: f.Columns, SortBy: f.SortBy, Reverse: f.Reverse, Resources: f.Resources, MaxWidth: terminalWidth(out),
		Table: len(f.Columns) > 0 || f.SortBy != "" || f.Reverse || f.format() == formatCSV || custom,
	}
}

// terminalWidth is the width of the terminal out writes to, or 0 for
// anything else (pipes, files, buffers).
func terminalWidth(out io.Writer) int {
	file, ok := out.(*os.File)
	if !ok || !isTerminal(out) {
		return 0
	}
	w, _, err := term.GetSize(int(file.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// Print writes obj with the chosen structured printer, or calls table. It
// serves commands whose output is not a printers.Table (compare, diff):
// csv, custom-columns and the table flags are refused there.
func (f *OutputFlags) Print(out io.Writer, obj runtime.Object, table func(printers.TableOptions) error) error {
	if len(f.Columns) > 0 || f.SortBy != "" || f.Reverse || len(f.Resources) > 0 {
		return usageError(errors.New("--columns, --sort-by, --reverse and --resources are not supported by this command"))
	}
	if f.IsTable() {
		return table(f.TableOptions(out))
	}
	if f.rowsOutput() {
		return usageError(fmt.Errorf("-o %s is not supported by this command", strings.SplitN(f.format(), "=", 2)[0]))
	}
	return f.printObject(out, obj)
}

// PrintTable writes obj: its Table (from build, arranged by the table
// flags) as a table, CSV or custom columns, or obj itself with a
// structured printer, its list in the order --sort-by gives the rows.
// detail, when not nil, replaces the table in table and wide output
// unless a table flag (--columns, --sort-by, --reverse) asks for the table.
// Unknown columns or resources are usage errors.
func (f *OutputFlags) PrintTable(out io.Writer, obj runtime.Object, build func(printers.TableOptions) (*printers.Table, error), detail func(printers.TableOptions) error) error {
	opts := f.TableOptions(out)
	if detail != nil && f.IsTable() && !opts.Table {
		return detail(opts)
	}
	t, err := build(opts)
	if err != nil {
		return usageError(err)
	}
	if err := t.Arrange(opts); err != nil {
		return usageError(err)
	}
	switch spec, custom := f.customColumnsSpec(); {
	case f.IsTable():
		return t.Render(out, opts)
	case f.format() == formatCSV:
		return t.RenderCSV(out, opts)
	case custom:
		return printCustomColumns(out, spec, f.NoHeaders, t.Items)
	}
	return f.printObject(out, obj)
}

// printObject writes obj with cli-runtime's printer for -o; JSON and YAML
// are streamed (printers.StreamJSON, printers.StreamYAML: the same bytes,
// without the whole text in memory at once).
func (f *OutputFlags) printObject(out io.Writer, obj runtime.Object) error {
	p, err := f.PrintFlags.ToPrinter()
	if err != nil {
		return err
	}
	switch f.format() {
	case "json":
		return printers.StreamJSON(out, obj, p.PrintObj)
	case "yaml":
		return printers.StreamYAML(out, obj, p.PrintObj)
	}
	return p.PrintObj(obj, out)
}

// printCustomColumns prints kubectl's custom columns over the table's row
// objects (a node of a dump, a pod of why, …: their JSON fields as in
// docs/output.md).
func printCustomColumns(out io.Writer, spec string, noHeaders bool, items []any) error {
	p, err := get.NewCustomColumnsPrinterFromSpec(spec, unstructured.UnstructuredJSONScheme, noHeaders)
	if err != nil {
		return usageError(fmt.Errorf("invalid -o custom-columns: %w", err))
	}
	list := &unstructured.UnstructuredList{Object: map[string]any{}}
	for _, it := range items {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(it)
		if err != nil {
			return err
		}
		list.Items = append(list.Items, unstructured.Unstructured{Object: m})
	}
	return p.PrintObj(list, out)
}
