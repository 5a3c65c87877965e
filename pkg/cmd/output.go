package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/schedcache/kubectl-schedcache/pkg/printers"
)

// OutputFlags hold -o and --no-headers. Table and wide output are ours;
// json, yaml, jsonpath and templates go through cli-runtime's printers.
type OutputFlags struct {
	PrintFlags *genericclioptions.PrintFlags
	NoHeaders  bool
}

// NewOutputFlags returns OutputFlags defaulting to a table.
func NewOutputFlags() *OutputFlags {
	return &OutputFlags{PrintFlags: genericclioptions.NewPrintFlags("").WithDefaultOutput("")}
}

// AddFlags registers -o/--output, --no-headers and the template flags.
func (f *OutputFlags) AddFlags(cmd *cobra.Command) {
	f.PrintFlags.AddFlags(cmd)
	cmd.Flags().Lookup("output").Usage = "Output format: table, wide, " + strings.Join(f.allowed(), ", ")
	// managedFields do not exist on our kinds.
	_ = cmd.Flags().MarkHidden("show-managed-fields")
	cmd.Flags().BoolVar(&f.NoHeaders, "no-headers", f.NoHeaders, "Omit table headers and summary lines")
}

func (f *OutputFlags) format() string { return *f.PrintFlags.OutputFormat }

// IsTable reports table or wide output.
func (f *OutputFlags) IsTable() bool {
	switch f.format() {
	case "", "table", "wide":
		return true
	}
	return false
}

func (f *OutputFlags) allowed() []string {
	var out []string
	for _, a := range f.PrintFlags.AllowedFormats() {
		if a != "name" {
			out = append(out, a)
		}
	}
	return out
}

// Validate rejects unknown formats, listing the allowed ones.
func (f *OutputFlags) Validate() error {
	if f.IsTable() {
		return nil
	}
	if f.format() != "name" {
		if _, err := f.PrintFlags.ToPrinter(); err == nil {
			return nil
		} else if !genericclioptions.IsNoCompatiblePrinterError(err) {
			return err
		}
	}
	return fmt.Errorf("unknown output format %q: allowed formats are table, wide, %s", f.format(), strings.Join(f.allowed(), ", "))
}

// TableOptions derives printer options; colour only on a terminal without NO_COLOR.
func (f *OutputFlags) TableOptions(out io.Writer) printers.TableOptions {
	_, noColor := os.LookupEnv("NO_COLOR")
	return printers.TableOptions{Wide: f.format() == "wide", NoHeaders: f.NoHeaders, Color: !noColor && isTerminal(out)}
}

// Print writes obj with the chosen structured printer, or calls table.
func (f *OutputFlags) Print(out io.Writer, obj runtime.Object, table func(printers.TableOptions) error) error {
	if f.IsTable() {
		return table(f.TableOptions(out))
	}
	p, err := f.PrintFlags.ToPrinter()
	if err != nil {
		return err
	}
	return p.PrintObj(obj, out)
}
