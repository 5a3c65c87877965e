package printers

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// yamlPlan writes values of one Go type as YAML straight from the typed
// value, byte for byte as sigs.k8s.io/yaml writes them (encoding/json's
// text read back by go-yaml v2 and written again) for the types and values
// it knows, and without going through JSON: that text and its parsing were
// most of -o yaml's cost (docs/PERFORMANCE.md#large-outputs--o-json-and--o-yaml).
//
// A plan exists for a type made only of strings, booleans, integers,
// structs, pointers, slices (no []byte) and maps with string keys, none
// with a JSON or text form of its own, whose struct fields have JSON names
// yamlString writes, no option but omitempty, none embedded, no two alike.
// Keys are what go-yaml sorts: the struct's field names, sorted once when
// the plan is made (go-yaml's order of any subset of them is the same, as
// the plan is refused when their comparison is not a total order), and map
// keys, sorted per value. The values it does not write exactly as go-yaml
// (a string outside yamlString's plain set, a list in a list, map keys
// ordered non-transitively, a key longer than 128 bytes) make write report
// false, and the caller writes that element another way.
type yamlPlan struct {
	kind   reflect.Kind // String, Bool, Int, Uint, Struct, Slice, Map or Pointer
	fields []yamlField  // a struct's, in go-yaml's key order
	elem   *yamlPlan    // a slice's elements, a map's values, a pointer's target
}

// yamlField is a struct field as encoding/json writes it.
type yamlField struct {
	index     int
	name      string // the JSON name
	key       string // the name as go-yaml writes it, then ":"
	omitEmpty bool
	plan      *yamlPlan
}

// newYAMLPlan returns the plan of type t, or false for a type it cannot
// write (see yamlPlan).
func newYAMLPlan(t reflect.Type) (*yamlPlan, bool) {
	p, ok := planType(t, map[reflect.Type]*yamlPlan{})
	if !ok {
		return nil, false
	}
	return p, true
}

// planType builds t's plan; seen holds the plans being built, so that a
// type reached again through a pointer or a slice refers to its own plan.
func planType(t reflect.Type, seen map[reflect.Type]*yamlPlan) (*yamlPlan, bool) {
	if p, ok := seen[t]; ok {
		return p, true
	}
	if marshalsItself(t) {
		return nil, false
	}
	p := &yamlPlan{}
	seen[t] = p
	switch k := t.Kind(); k {
	case reflect.String, reflect.Bool:
		p.kind = k
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = reflect.Int
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind = reflect.Uint
	case reflect.Pointer, reflect.Slice:
		if k == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return nil, false // base64
		}
		p.kind = k
		var ok bool
		if p.elem, ok = planType(t.Elem(), seen); !ok {
			return nil, false
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String || marshalsItself(t.Key()) {
			return nil, false
		}
		p.kind = k
		var ok bool
		if p.elem, ok = planType(t.Elem(), seen); !ok {
			return nil, false
		}
	case reflect.Struct:
		p.kind = k
		if !planFields(p, t, seen) {
			return nil, false
		}
	default:
		return nil, false // floats, interfaces, arrays, …
	}
	return p, true
}

// planFields fills the struct plan p of t with its fields in go-yaml's
// order of their JSON names.
func planFields(p *yamlPlan, t reflect.Type, seen map[reflect.Type]*yamlPlan) bool {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		if !f.IsExported() {
			continue
		}
		name, omitEmpty, written, ok := yamlFieldName(f)
		if !ok {
			return false
		}
		if !written {
			continue
		}
		plan, ok := planType(f.Type, seen)
		if !ok || slices.Contains(names, name) {
			return false
		}
		plain, ok := yamlString(name)
		if !ok || len(name) > 128 {
			return false
		}
		key := name
		if !plain {
			key = `"` + name + `"`
		}
		names = append(names, name)
		p.fields = append(p.fields, yamlField{index: i, name: name, key: key + ":", omitEmpty: omitEmpty, plan: plan})
	}
	slices.SortFunc(p.fields, func(a, b yamlField) int {
		return yamlKeyCompare(a.name, b.name)
	})
	slices.SortFunc(names, yamlKeyCompare)
	return totalOrder(names)
}

// yamlFieldName returns the JSON name of an exported struct field as
// encoding/json writes it; written is false for a field tagged "-"; ok is
// false for options other than omitempty, or a tag name encoding/json would
// not take as it is (then it uses the Go name: left to the slow path).
func yamlFieldName(f reflect.StructField) (name string, omitEmpty, written, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	for o := range strings.SplitSeq(opts, ",") {
		switch o {
		case "":
		case "omitempty":
			omitEmpty = true
		default:
			return "", false, false, false
		}
	}
	if name == "" {
		name = f.Name
	}
	return name, omitEmpty, true, true
}

// yamlKeyCompare is yamlKeyLess as a comparison for slices.SortFunc.
func yamlKeyCompare(a, b string) int {
	switch {
	case yamlKeyLess(a, b):
		return -1
	case yamlKeyLess(b, a):
		return 1
	}
	return 0
}

// totalOrder reports whether the sorted keys are in the order every sort
// gives them (see yamlEmitter.totalOrder): each is less than every later one.
func totalOrder(keys []string) bool {
	digits := false
	for _, k := range keys {
		digits = digits || strings.ContainsAny(k, "0123456789")
	}
	for i := 0; digits && i < len(keys); i++ {
		for j := i + 1; j < len(keys); j++ {
			if !yamlKeyLess(keys[i], keys[j]) {
				return false
			}
		}
	}
	return true
}

// yamlTyped writes list elements through their plan; its key slice is
// reused from one map to the next.
type yamlTyped struct {
	keys []reflect.Value
}

// item appends the YAML of the list element v to out, "- " at column 0,
// as yamlEmitter.item does from its JSON. It reports false, with out
// holding a partial text, for a value the plan does not write.
func (y *yamlTyped) item(out []byte, p *yamlPlan, v reflect.Value) ([]byte, bool) {
	return y.inSequence(append(out, "- "...), p, v, 0)
}

// inSequence writes v after a "- " whose dash is at column col: a scalar,
// or a mapping whose first key follows the dash and whose others are at
// col+2.
func (y *yamlTyped) inSequence(out []byte, p *yamlPlan, v reflect.Value, col int) ([]byte, bool) {
	switch p.kind {
	case reflect.Pointer:
		if v.IsNil() {
			return append(out, "null\n"...), true
		}
		return y.inSequence(out, p.elem, v.Elem(), col)
	case reflect.Struct:
		start := len(out)
		out, ok := y.fields(out, p, v, col+2, true)
		if ok && len(out) == start {
			out = append(out, "{}\n"...)
		}
		return out, ok
	case reflect.Map:
		if v.IsNil() {
			return append(out, "null\n"...), true
		}
		if v.Len() == 0 {
			return append(out, "{}\n"...), true
		}
		return y.mapMembers(out, p, v, col+2, true)
	case reflect.Slice:
		switch {
		case v.IsNil():
			return append(out, "null\n"...), true
		case v.Len() == 0:
			return append(out, "[]\n"...), true
		}
		return out, false // a list in a list
	}
	out, ok := appendYAMLScalar(out, p.kind, v)
	return append(out, '\n'), ok
}

// value writes v as the value of a key at column col, after its ":".
func (y *yamlTyped) value(out []byte, p *yamlPlan, v reflect.Value, col int) ([]byte, bool) {
	switch p.kind {
	case reflect.Pointer:
		if v.IsNil() {
			return append(out, " null\n"...), true
		}
		return y.value(out, p.elem, v.Elem(), col)
	case reflect.Struct:
		start := len(out)
		out, ok := y.fields(append(out, '\n'), p, v, col+2, false)
		if ok && len(out) == start+1 {
			out = append(out[:start], " {}\n"...)
		}
		return out, ok
	case reflect.Map:
		if v.IsNil() {
			return append(out, " null\n"...), true
		}
		if v.Len() == 0 {
			return append(out, " {}\n"...), true
		}
		return y.mapMembers(append(out, '\n'), p, v, col+2, false)
	case reflect.Slice:
		switch {
		case v.IsNil():
			return append(out, " null\n"...), true
		case v.Len() == 0:
			return append(out, " []\n"...), true
		}
		out = append(out, '\n')
		for i := range v.Len() {
			out = append(appendIndent(out, col), "- "...)
			var ok bool
			if out, ok = y.inSequence(out, p.elem, v.Index(i), col); !ok {
				return out, false
			}
		}
		return out, true
	}
	out, ok := appendYAMLScalar(append(out, ' '), p.kind, v)
	return append(out, '\n'), ok
}

// fields writes the struct v's fields that encoding/json writes, each
// "key:" at column col (the first one without its indent when it follows
// a list item's dash).
func (y *yamlTyped) fields(out []byte, p *yamlPlan, v reflect.Value, col int, afterDash bool) ([]byte, bool) {
	first := true
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		if f.omitEmpty && emptyJSON(fv) {
			continue
		}
		if !first || !afterDash {
			out = appendIndent(out, col)
		}
		first = false
		out = append(out, f.key...)
		var ok bool
		if out, ok = y.value(out, f.plan, fv, col); !ok {
			return out, false
		}
	}
	return out, true
}

// mapMembers writes the non-empty map v's members, keys in go-yaml's
// order, each "key:" at column col.
func (y *yamlTyped) mapMembers(out []byte, p *yamlPlan, v reflect.Value, col int, afterDash bool) ([]byte, bool) {
	base := len(y.keys)
	defer func() { y.keys = y.keys[:base] }()
	y.keys = append(y.keys, v.MapKeys()...)
	keys := y.keys[base:]
	slices.SortFunc(keys, func(a, b reflect.Value) int { return yamlKeyCompare(a.String(), b.String()) })
	digits := false
	for _, k := range keys {
		digits = digits || strings.ContainsAny(k.String(), "0123456789")
	}
	for i := 1; digits && i < len(keys); i++ {
		// Every pair, as totalOrder, but without a []string copy.
		for j := range i {
			if !yamlKeyLess(keys[j].String(), keys[i].String()) {
				return out, false
			}
		}
	}
	for i, k := range keys {
		if i > 0 || !afterDash {
			out = appendIndent(out, col)
		}
		if k.Len() > 128 {
			return out, false // go-yaml writes "? key"
		}
		var ok bool
		if out, ok = appendYAMLString(out, k.String()); !ok {
			return out, false
		}
		out = append(out, ':')
		if out, ok = y.value(out, p.elem, v.MapIndex(k), col); !ok {
			return out, false
		}
	}
	return out, true
}

// emptyJSON reports a value encoding/json's omitempty leaves out: false,
// 0, "", a nil pointer, an empty slice or map. A struct is never empty.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// appendYAMLScalar appends a string, boolean or integer as go-yaml writes
// it back from encoding/json's text (every int64 and uint64 reads back as
// itself); false for a string yamlString does not know.
func appendYAMLScalar(out []byte, kind reflect.Kind, v reflect.Value) ([]byte, bool) {
	switch kind {
	case reflect.String:
		return appendYAMLString(out, v.String())
	case reflect.Bool:
		return strconv.AppendBool(out, v.Bool()), true
	case reflect.Int:
		return strconv.AppendInt(out, v.Int(), 10), true
	case reflect.Uint:
		return strconv.AppendUint(out, v.Uint(), 10), true
	}
	return out, false
}

// appendYAMLString appends s plain or double-quoted as yamlString says.
// It copies s first and reads the copy: the strings lie all over the
// model's heap, and a copy loads their bytes faster than a scan does.
func appendYAMLString(out []byte, s string) ([]byte, bool) {
	start := len(out)
	out = append(out, s...)
	plain, ok := yamlString(out[start:])
	switch {
	case !ok:
		return out, false
	case plain:
		return out, true
	}
	out = append(out[:start], '"')
	out = append(out, s...)
	return append(out, '"'), true
}

func appendIndent(out []byte, col int) []byte {
	const blanks = "                                                                "
	for ; col > len(blanks); col -= len(blanks) {
		out = append(out, blanks...)
	}
	return append(out, blanks[:col]...)
}
