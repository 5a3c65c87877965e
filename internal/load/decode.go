package load

// This file decodes pieces into typed objects. It is the one place that
// turns bytes into objects, for every input: JSON and YAML, documents and
// List items. decodeTyped is the step a faster decoder would replace.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/client-go/kubernetes/scheme"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// decodeFunc decodes the JSON of one object of kind gvk into its typed
// object, exactly as the API server would read it: unknown fields dropped,
// keys case-sensitive, quantities and ints parsed by apimachinery. Errors
// are the decoder's. (Keys given twice never reach it: the cutter rejects
// them in JSON, the YAML conversion in YAML.)
type decodeFunc func(data []byte, gvk schema.GroupVersionKind) (kruntime.Object, error)

// decodeTyped is the decodeFunc of every input: client-go's scheme, and
// github.com/go-json-experiment/json (encoding/json v2), whose defaults are
// the API server's rules (names matched case-sensitively, unknown members
// ignored) and which decodes faster than sigs.k8s.io/json, the API
// server's own decoder (BenchmarkDecoders; docs/PERFORMANCE.md#file-mode). Invalid
// UTF-8 is replaced, as encoding/json does. A failure is decoded again with
// sigs.k8s.io/json, so that errors read as the API server's.
// TestDecoderV2Equivalent and TestDecoderV2EdgeCases check that both
// decode the same objects.
func decodeTyped(data []byte, gvk schema.GroupVersionKind) (kruntime.Object, error) {
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if jsonv2.Unmarshal(data, obj, decodeOptions) == nil {
		return obj, nil
	}
	return decodeSigs(data, gvk)
}

// decodeSigs decodes with sigs.k8s.io/json, as the API server's JSON
// serializer does.
func decodeSigs(data []byte, gvk schema.GroupVersionKind) (kruntime.Object, error) {
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// kindOf reads the apiVersion and kind of an object's JSON the way the API
// server's JSON serializer does, taking what is missing from def (the
// List's item kind) when def is not nil.
func kindOf(data []byte, def *schema.GroupVersionKind) (schema.GroupVersionKind, error) {
	gvk, err := kjson.DefaultMetaFactory.Interpret(data)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return withListDefault(*gvk, def), nil
}

// typeMetaKind is kindOf for an apiVersion and kind already read, parsed
// as Interpret parses them.
func typeMetaKind(apiVersion, kind string, def *schema.GroupVersionKind) (schema.GroupVersionKind, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return withListDefault(gv.WithKind(kind), def), nil
}

// withListDefault fills in what gvk lacks from def (the List's item kind)
// when def is not nil, and reads a retired workload version as the apps/v1
// kind it is served as (ServedKind).
func withListDefault(gvk schema.GroupVersionKind, def *schema.GroupVersionKind) schema.GroupVersionKind {
	if def != nil {
		if gvk.Kind == "" {
			gvk.Kind = def.Kind
		}
		if gvk.Version == "" && gvk.Group == "" {
			gvk.Group, gvk.Version = def.Group, def.Version
		}
	}
	return ServedKind(gvk)
}

// errNoKind and errNoAPIVersion are decoding errors of objects without them.
var (
	errNoKind       = errors.New(`the object has no "kind"`)
	errNoAPIVersion = errors.New(`the object has no "apiVersion"`)
)

// errInternalForm is the decoding error of an object written in Go field
// names without a kind: the form of the API server's internal types, which
// some kubectl releases of 2018–2019 printed in `kubectl cluster-info dump`
// (a NodeList as {"selfLink", "resourceVersion", "Items": [{"name", …,
// "Spec", "Status"}]}). No Kubernetes API reads that form: the objects'
// metadata is flattened and some fields moved (hostNetwork lives in the
// security context), so reading it as v1 objects would model another
// cluster. It wraps errNoKind, so a file found in a directory walk is
// skipped with this reason, as other files without a kind are.
var errInternalForm = fmt.Errorf(`%w: it is in Go field names ("Items", "Spec", "Status"), the internal form `+
	`some kubectl releases of 2018-2019 wrote in "kubectl cluster-info dump"; no Kubernetes API reads it: `+
	`dump the cluster again with a current kubectl (kubectl get nodes,pods -A -o json)`, errNoKind)

// internalForm reports whether a JSON object without a kind has one of the
// capitalised top-level keys of an internal-form object ("Items" of a list,
// "Spec" or "Status" of an object). encoding/json matches keys without
// regard to case, so the keys are compared here as written.
func internalForm(data []byte) bool {
	var keys map[string]json.RawMessage
	if json.Unmarshal(data, &keys) != nil {
		return false
	}
	for _, k := range []string{"Items", "Spec", "Status"} {
		if _, ok := keys[k]; ok {
			return true
		}
	}
	return false
}

// notAnObject is the decoding error of a value that is not a JSON object.
type notAnObject struct{ what string }

func (e notAnObject) Error() string { return "not an object but " + e.what }

// decodePiece decodes p in place (p.obj, p.gvk, p.Err, p.skip) and
// prepares a pod (p.prepared). p.Header gives the kind of untyped items.
func (r *reader) decodePiece(p *piece) {
	r.decodeOnly(p)
	if pod, ok := p.obj.(*corev1.Pod); ok && pod.Name != "" {
		// Here rather than in the collector, whose one goroutine adds
		// every object in order: the decode workers run on every core.
		// (A pod without a name is the collector's error.)
		p.prepared = r.c.prepare(pod)
	}
}

// decodeOnly is decodePiece without the preparing.
func (r *reader) decodeOnly(p *piece) {
	if p.Err != nil || p.Binary {
		return
	}
	data := p.Raw
	if p.YAML {
		j, err := yaml.YAMLToJSONStrict(data)
		if err != nil {
			p.Err = yamlError(err, p)
			return
		}
		data = j
	}
	if p.ListEnd {
		if p.YAML {
			var h struct{ Kind, APIVersion string }
			_ = json.Unmarshal(data, &h)
			p.Header = read.ListHeader{Kind: h.Kind, APIVersion: h.APIVersion}
		}
		return
	}
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0 || string(data) == "null":
		p.skip = true // an empty document
		return
	case data[0] != '{':
		p.Err = notAnObject{what: valueKind(data)}
		return
	}
	if r.decodeFast(p, data) {
		return
	}
	gvk, err := kindOf(data, p.Header.ItemKind())
	switch {
	case err != nil:
		p.Err = jsonError(err, data, p)
		return
	case gvk.Kind == "" && internalForm(data):
		p.Err = errInternalForm
		return
	case gvk.Kind == "":
		p.Err = errNoKind
		return
	}
	p.gvk = gvk
	if !r.wanted(gvk) {
		p.skip = true
		p.manifest = manifestOf(gvk, data, p.Loc)
		return
	}
	if gvk.Version == "" {
		p.Err = errNoAPIVersion
		return
	}
	obj, err := r.decodeObject(data, gvk)
	if err != nil {
		p.Err = jsonError(err, data, p)
		return
	}
	p.obj = obj
}

// decodeFast decodes p when the keys the cutter saw (p.TypeMeta), or else
// read.ScanTypeMeta, read a wanted kind with its version, and reports
// whether it did. Everything else takes the API server's way (kindOf), and
// so does a failed decode, so that errors are the same either way: a
// malformed object gets Interpret's error first.
func (r *reader) decodeFast(p *piece, data []byte) bool {
	apiVersion, kind, ok := p.TypeMeta.Read(data)
	if !ok {
		apiVersion, kind, ok = read.ScanTypeMeta(data)
	}
	if !ok {
		return false
	}
	gvk, err := typeMetaKind(apiVersion, kind, p.Header.ItemKind())
	if err != nil || gvk.Kind == "" || gvk.Version == "" || !r.wanted(gvk) {
		return false
	}
	obj, err := r.decodeObject(data, gvk)
	if err != nil {
		return false
	}
	p.gvk, p.obj = gvk, obj
	return true
}

// podKind is the kind the pod decoder decodes.
var podKind = corev1.SchemeGroupVersion.WithKind("Pod")

// decodeObject decodes one object of kind gvk: v1 Pods and Nodes with the
// pod and node decoders when the reader has them, everything else with
// r.decode.
func (r *reader) decodeObject(data []byte, gvk schema.GroupVersionKind) (kruntime.Object, error) {
	switch {
	case r.pods != nil && gvk == podKind:
		return r.pods.decode(data)
	case r.nodes != nil && gvk == nodeKind:
		return r.nodes.decode(data)
	}
	return r.decode(data, gvk)
}

// wanted reports whether objects of kind gvk are decoded: nodes, pods,
// lists (which may hold them), and the scheduling kinds when asked for.
// Other kinds are counted, not decoded.
func (r *reader) wanted(gvk schema.GroupVersionKind) bool {
	switch {
	case gvk.Kind == "Node" || gvk.Kind == "Pod":
		return true
	case strings.HasSuffix(gvk.Kind, "List"):
		return scheme.Scheme.Recognizes(gvk)
	}
	return r.objects && schedulingKind(gvk) != nil || r.extra[gvk.GroupKind()]
}

// valueKind names what a JSON value that is not an object is.
func valueKind(data []byte) string {
	switch data[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if data[0] == '-' || data[0] >= '0' && data[0] <= '9' {
		return "a number"
	}
	if len(data) > 20 {
		data = append(data[:20:20], "…"...)
	}
	return strconv.Quote(string(data))
}

// decodeBatch decodes pieces, in order, on the calling goroutine: the
// reader runs one per core, each on a batch of its own (reader.go).
func (r *reader) decodeBatch(pieces []piece) {
	for i := range pieces {
		r.decodePiece(&pieces[i])
	}
}

// jsonError words a decoding error of the JSON data of p: a syntax error
// gets its offset in the source (when p came from JSON) or within the
// piece; others keep their text.
func jsonError(err error, data []byte, p *piece) error {
	if ok, offset := sigsjson.SyntaxErrorOffset(err); ok {
		// The decoder's message lacks the offset; encoding/json gives both.
		var raw json.RawMessage
		var syntax *json.SyntaxError
		msg := err.Error()
		if errors.As(json.Unmarshal(data, &raw), &syntax) {
			msg, offset = syntax.Error(), syntax.Offset
		}
		if p.YAML {
			return fmt.Errorf("json: %s", msg)
		}
		return &read.SyntaxError{Offset: p.Loc.Offset + offset, Msg: msg}
	}
	return err
}

var (
	yamlLine      = regexp.MustCompile(`\bline (\d+)`)
	yamlDuplicate = regexp.MustCompile(`key (".*") already set in map`)
)

// yamlError words a YAML conversion error of p with the file's line numbers.
func yamlError(err error, p *piece) error {
	msg := oneLine(err.Error())
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors: ")
	msg = yamlDuplicate.ReplaceAllString(msg, "duplicate key $1")
	msg = yamlLine.ReplaceAllStringFunc(msg, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(m, "line "))
		return "line " + strconv.Itoa(p.FileLine(n))
	})
	return &yamlSyntaxError{msg}
}

// yamlSyntaxError is YAML that does not convert to JSON (malformed, a key
// given twice), with the file's line numbers.
type yamlSyntaxError struct{ msg string }

func (e *yamlSyntaxError) Error() string { return e.msg }
