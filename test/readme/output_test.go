package readme

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// outputKinds are the kinds of pkg/apis/v1alpha1, by name. A kind missing
// here fails TestOutputDocCoversKinds (it finds them by their
// DeepCopyObject methods).
var outputKinds = map[string]reflect.Type{
	"CacheDump":        reflect.TypeFor[v1alpha1.CacheDump](),
	"RequestedReport":  reflect.TypeFor[v1alpha1.RequestedReport](),
	"NodeOrder":        reflect.TypeFor[v1alpha1.NodeOrder](),
	"Snapshot":         reflect.TypeFor[v1alpha1.Snapshot](),
	"Simulation":       reflect.TypeFor[v1alpha1.Simulation](),
	"SchedulingReport": reflect.TypeFor[v1alpha1.SchedulingReport](),
	"ConfigComparison": reflect.TypeFor[v1alpha1.ConfigComparison](),
	"DrainReport":      reflect.TypeFor[v1alpha1.DrainReport](),
	"ScaleDownReport":  reflect.TypeFor[v1alpha1.ScaleDownReport](),
	"ScaleUpReport":    reflect.TypeFor[v1alpha1.ScaleUpReport](),
	"CacheComparison":  reflect.TypeFor[v1alpha1.CacheComparison](),
	"CacheDiff":        reflect.TypeFor[v1alpha1.CacheDiff](),
	"CacheWatchEvent":  reflect.TypeFor[v1alpha1.CacheWatchEvent](),
}

// TestOutputDocCoversKinds: outputKinds names every kind of the package.
func TestOutputDocCoversKinds(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("../../pkg/apis/v1alpha1/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "DeepCopyObject" {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			name := star.X.(*ast.Ident).Name
			if outputKinds[name] == nil {
				t.Errorf("kind %s (%s) is missing from outputKinds", name, filepath.Base(f))
			}
		}
	}
}

// docRow is one row of a field table of docs/output.md.
type docRow struct {
	line  int
	paths []string // full paths in the section, "[]" removed
	// inline lists the fields a row gives in braces for a path ("{a, b}"
	// in its type cell, or "`x` as `{a, b}`" in its meaning).
	inline map[string][]string
}

// docSection is a heading of docs/output.md with a field table.
type docSection struct {
	title string
	types []string // the Go types it documents: "FitPod and Fit" is two
	rows  []docRow
}

var (
	backticked  = regexp.MustCompile("`([^`]+)`")
	inlineType  = regexp.MustCompile("^`?\\{([^}]*)\\}`?")
	inlineAsFor = regexp.MustCompile("((?:`[A-Za-z]+(?:\\[\\])?`/)*`[A-Za-z]+(?:\\[\\])?`) as `\\{([^}]*)\\}`")
	millisSfx   = regexp.MustCompile("\\(\\+`([A-Za-z]+)`\\)")
)

// parseOutputDoc returns the sections of doc that hold a "| field | type |
// meaning |" table, by the first word of their heading.
func parseOutputDoc(doc string) map[string]*docSection {
	sections := map[string]*docSection{}
	var cur *docSection
	fenced := false
	for i, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
		}
		if fenced {
			continue
		}
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "### ") {
			title := strings.TrimSpace(strings.TrimLeft(l, "#"))
			name, _, _ := strings.Cut(title, " (")
			cur = &docSection{title: title, types: strings.Split(name, " and ")}
			continue
		}
		if cur == nil || !strings.HasPrefix(l, "| `") {
			continue
		}
		cells := strings.Split(l, " | ")
		if len(cells) < 3 {
			continue
		}
		row := docRow{line: i + 1, inline: map[string][]string{}}
		first := strings.TrimPrefix(cells[0], "| ")
		var suffixes []string
		for _, m := range millisSfx.FindAllStringSubmatch(first, -1) {
			suffixes = append(suffixes, m[1])
		}
		first = millisSfx.ReplaceAllString(first, "")
		parent := ""
		for k, m := range backticked.FindAllStringSubmatch(first, -1) {
			p := normPath(m[1])
			if k == 0 {
				if i := strings.LastIndexByte(p, '.'); i >= 0 {
					parent = p[:i+1]
				}
			} else if !strings.Contains(p, ".") {
				p = parent + p
			}
			row.paths = append(row.paths, p)
			for _, s := range suffixes {
				row.paths = append(row.paths, p+s)
			}
		}
		if m := inlineType.FindStringSubmatch(strings.TrimSpace(cells[1])); m != nil {
			for _, p := range row.paths {
				row.inline[p] = splitNames(m[1])
			}
		}
		meaning := strings.Join(cells[2:], " | ")
		if m := inlineType.FindStringSubmatch(strings.TrimSpace(meaning)); m != nil {
			for _, p := range row.paths {
				row.inline[p] = splitNames(m[1])
			}
		}
		for _, m := range inlineAsFor.FindAllStringSubmatch(meaning, -1) {
			for _, n := range backticked.FindAllStringSubmatch(m[1], -1) {
				for _, p := range row.paths {
					row.inline[p+"."+normPath(n[1])] = splitNames(m[2])
				}
			}
		}
		cur.rows = append(cur.rows, row)
		sections[cur.types[0]] = cur
		for _, t := range cur.types[1:] {
			sections[t] = cur
		}
	}
	return sections
}

func normPath(p string) string { return strings.ReplaceAll(p, "[]", "") }

func splitNames(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = normPath(strings.TrimSpace(n)); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// fieldDocCheck walks the Go types of the output kinds against the
// sections of docs/output.md.
type fieldDocCheck struct {
	sections map[string]*docSection
	used     map[*docSection]map[string]bool // documented paths met in Go
	visited  map[*docSection]bool
	errs     []string
}

// docCtx is one visit of a section: its rows, the prefix the rows' paths
// are relative to (stripped for multi-type sections), and the Go path
// shown in errors.
type docCtx struct {
	sec    *docSection
	strip  string
	goPath string
}

func (c *fieldDocCheck) paths(ctx docCtx) (map[string]bool, map[string][]string) {
	rows, inline := map[string]bool{}, map[string][]string{}
	for _, r := range ctx.sec.rows {
		for _, p := range r.paths {
			if q, ok := strings.CutPrefix(p, ctx.strip); ok {
				rows[q] = true
			}
		}
		for p, names := range r.inline {
			if q, ok := strings.CutPrefix(p, ctx.strip); ok {
				inline[q] = names
			}
		}
	}
	return rows, inline
}

func (c *fieldDocCheck) mark(ctx docCtx, p string) {
	if c.used[ctx.sec] == nil {
		c.used[ctx.sec] = map[string]bool{}
	}
	c.used[ctx.sec][ctx.strip+p] = true
}

// walk checks the JSON fields of struct type t, whose paths in ctx's
// section start with prefix.
func (c *fieldDocCheck) walk(t reflect.Type, prefix string, ctx docCtx) {
	c.visited[ctx.sec] = true
	rows, inline := c.paths(ctx)
	for _, f := range jsonFields(t) {
		p := prefix + f.name
		parent := strings.TrimSuffix(prefix, ".")
		inInline := false
		for _, n := range inline[parent] {
			inInline = inInline || n == f.name
		}
		hasChildren := false
		for r := range rows {
			hasChildren = hasChildren || strings.HasPrefix(r, p+".")
		}
		_, hasInline := inline[p]
		// "Every kind has apiVersion, kind, and source": said once, in the
		// document's introduction.
		topSource := prefix == "" && f.name == "source" && outputKinds[ctx.goPath] != nil
		if !rows[p] && !inInline && !hasChildren && !topSource {
			c.errs = append(c.errs, "field "+ctx.goPath+"."+f.goName+" (`"+p+"` in section "+ctx.sec.title+") is not documented")
			continue
		}
		c.mark(ctx, p)
		u := elemStruct(f.typ)
		if u == nil {
			continue
		}
		child := docCtx{sec: ctx.sec, strip: ctx.strip, goPath: ctx.goPath + "." + f.goName}
		switch sec := c.sections[u.Name()]; {
		case hasChildren || hasInline:
			c.walk(u, p+".", child)
		case sec != nil:
			strip := ""
			if len(sec.types) > 1 {
				strip = f.name + "."
			}
			c.walk(u, "", docCtx{sec: sec, strip: strip, goPath: u.Name()})
		default:
			c.errs = append(c.errs, "field "+child.goPath+" (`"+p+"` in section "+ctx.sec.title+") is a "+u.Name()+" whose fields are documented nowhere (no section, no rows, no {…})")
		}
	}
}

// unused reports documented paths that no Go field has.
func (c *fieldDocCheck) unused() {
	seen := map[*docSection]bool{}
	for _, sec := range c.sections {
		if seen[sec] {
			continue
		}
		seen[sec] = true
		if !c.visited[sec] {
			c.errs = append(c.errs, "section "+sec.title+" documents a type no output kind holds")
			continue
		}
		for _, r := range sec.rows {
			for _, p := range r.paths {
				if !c.used[sec][p] {
					c.errs = append(c.errs, "docs/output.md:"+strconv.Itoa(r.line)+": `"+p+"` (section "+sec.title+") is no field of the Go types")
				}
			}
		}
	}
}

type jsonField struct {
	name, goName string
	typ          reflect.Type
}

// jsonFields are the fields encoding/json writes for struct t, embedded
// structs flattened; metav1.TypeMeta (apiVersion, kind: documented once
// for every kind) left out.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		if f.Anonymous && tag == "" {
			if f.Type.Name() == "TypeMeta" {
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				out = append(out, jsonFields(f.Type)...)
				continue
			}
		}
		if tag == "" {
			tag = f.Name
		}
		out = append(out, jsonField{name: tag, goName: f.Name, typ: f.Type})
	}
	return out
}

// elemStruct is the struct of this package that t holds (itself, through
// pointers, slices, arrays and map values), or nil.
func elemStruct(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
			continue
		case reflect.Struct:
			if t.PkgPath() == reflect.TypeFor[v1alpha1.CacheDump]().PkgPath() {
				return t
			}
		}
		return nil
	}
}

// TestOutputDocMatchesTypes: every JSON field of every output kind is
// documented in docs/output.md (in the kind's section, in a section named
// after its Go type, or by name in its parent's braces), and every field
// the document lists exists.
func TestOutputDocMatchesTypes(t *testing.T) {
	raw, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	c := &fieldDocCheck{
		sections: parseOutputDoc(string(raw)),
		used:     map[*docSection]map[string]bool{},
		visited:  map[*docSection]bool{},
	}
	var kinds []string
	for k := range outputKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		sec := c.sections[k]
		if sec == nil {
			t.Errorf("kind %s has no section in docs/output.md", k)
			continue
		}
		c.walk(outputKinds[k], "", docCtx{sec: sec, goPath: k})
	}
	c.unused()
	sort.Strings(c.errs)
	for i, e := range c.errs {
		if i == 0 || e != c.errs[i-1] {
			t.Error(e)
		}
	}
}

// TestParseOutputDoc: how rows name fields, as docs/output.md writes them.
func TestParseOutputDoc(t *testing.T) {
	doc := "## Kind (`cmd`)\n| field | type | meaning |\n|---|---|---|\n" +
		"| `a.b`, `c` | int | later names share the first's parent |\n" +
		"| `t.x`, `y` (+`Millis`) | string, int64 | and get the suffixed twin |\n" +
		"| `n[]` | `{p, q[]}` | `q[]` as `{r, s}` |\n" +
		"```\n| `fenced` | int | not a row |\n```\n" +
		"### One and Two\n| field | type | meaning |\n|---|---|---|\n| `one.f` | int | |\n"
	s := parseOutputDoc(doc)
	k := s["Kind"]
	if k == nil || s["One"] == nil || s["One"] != s["Two"] {
		t.Fatalf("sections %v", s)
	}
	var paths []string
	for _, r := range k.rows {
		paths = append(paths, r.paths...)
	}
	if got, want := strings.Join(paths, " "), "a.b a.c t.x t.xMillis t.y t.yMillis n"; got != want {
		t.Errorf("paths %q, want %q", got, want)
	}
	if in := k.rows[2].inline; strings.Join(in["n"], ",") != "p,q" || strings.Join(in["n.q"], ",") != "r,s" {
		t.Errorf("inline %v", in)
	}
}
