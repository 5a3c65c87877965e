package printers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
	cliprinters "k8s.io/cli-runtime/pkg/printers"

	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// benchDump is the dump of nodes nodes with 30 pods each, with the names,
// UIDs and numbers of a real dump.
func benchDump(nodes int) *v1alpha1.CacheDump {
	d := &v1alpha1.CacheDump{Source: "bench", Nodes: make([]v1alpha1.NodeDump, nodes)}
	v1alpha1.SetKind(d, "CacheDump")
	for i := range d.Nodes {
		n := &d.Nodes[i]
		n.Name, n.Zone, n.Generation = fmt.Sprintf("node-%04d", i), "us-east-1/us-east-1a", int64(30*i+31)
		n.Allocatable = v1alpha1.Resource{MilliCPU: 3920, Memory: 15401910272, EphemeralStorage: 94580335255, AllowedPodNumber: 110}
		for j := range 30 {
			n.Pods = append(n.Pods, v1alpha1.PodDump{
				Namespace: "ads-05", Name: fmt.Sprintf("router-15610-chs7bctgwc-%05d", j), UID: fmt.Sprintf("%08x-711e-4c08-865b-e2448ca866ea", 977*i+j),
				State: "Added", Phase: "Running",
				Requested:        v1alpha1.Resource{MilliCPU: 5, Memory: 134217728},
				NonZeroRequested: v1alpha1.NonZeroResource{MilliCPU: 100, Memory: 209715200},
			})
			n.Requested.Add(&n.Pods[j].Requested)
			n.NonZeroRequested.Add(&n.Pods[j].NonZeroRequested)
		}
	}
	return d
}

// BenchmarkOutput prints the dump of 1,000 nodes with 30 pods each (MB/s
// counts the output): the writers -o json and -o yaml used before
// (cli-runtime's JSONPrinter and YAMLPrinter, the latter on 100 of the
// nodes, being far slower), the streamed ones, and
// one element after another on one core with each encoder — encoding/json
// (an Encoder with SetIndent, as StreamJSON had), json v2 with its v1
// options (marshalItem), the YAML emitter from json v2's compact text, and
// the YAML written from the typed value (yamlPlan).
// docs/PERFORMANCE.md#large-outputs--o-json-and--o-yaml has the figures.
func BenchmarkOutput(b *testing.B) {
	d := benchDump(1000)
	size := func(print func(io.Writer) error) int64 {
		var buf bytes.Buffer
		if err := print(&buf); err != nil {
			b.Fatal(err)
		}
		return int64(buf.Len())
	}
	jp, yp := &cliprinters.JSONPrinter{}, &cliprinters.YAMLPrinter{}
	jsonSize := size(func(w io.Writer) error { return jp.PrintObj(d, w) })
	yamlSize := size(func(w io.Writer) error { return StreamYAML(w, d, yp.PrintObj) })
	run := func(name string, bytes int64, f func() error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(bytes)
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("json/JSONPrinter", jsonSize, func() error { return jp.PrintObj(d, io.Discard) })
	run("json/StreamJSON", jsonSize, func() error { return StreamJSON(io.Discard, d, jp.PrintObj) })
	var out bytes.Buffer
	run("json/elements/encoding-json", jsonSize, func() error {
		for i := range d.Nodes {
			out.Reset()
			enc := json.NewEncoder(&out)
			enc.SetIndent(jsonIndent+jsonIndent, jsonIndent)
			if err := enc.Encode(&d.Nodes[i]); err != nil {
				return err
			}
		}
		return nil
	})
	opts := itemOptions()
	run("json/elements/jsonv2", jsonSize, func() error {
		for i := range d.Nodes {
			out.Reset()
			if err := marshalItem(&out, &d.Nodes[i], opts); err != nil {
				return err
			}
		}
		return nil
	})
	small := &v1alpha1.CacheDump{TypeMeta: d.TypeMeta, Source: d.Source, Nodes: d.Nodes[:100]}
	run("yaml/YAMLPrinter-100-nodes", yamlSize/10, func() error { return yp.PrintObj(small, io.Discard) })
	run("yaml/StreamYAML", yamlSize, func() error { return StreamYAML(io.Discard, d, yp.PrintObj) })
	v1 := jsonv1.DefaultOptionsV1()
	var e yamlEmitter
	run("yaml/elements/emitter", yamlSize, func() error {
		for i := range d.Nodes {
			js, err := jsonv2.Marshal(&d.Nodes[i], v1)
			if err != nil {
				return err
			}
			out.Reset()
			if !e.item(&out, js) {
				return fmt.Errorf("node %d: the emitter gave up", i)
			}
		}
		return nil
	})
	plan, ok := newYAMLPlan(reflect.TypeFor[v1alpha1.NodeDump]())
	if !ok {
		b.Fatal("no YAML plan for NodeDump")
	}
	var y yamlTyped
	var text []byte
	run("yaml/elements/typed", yamlSize, func() error {
		for i := range d.Nodes {
			if text, ok = y.item(text[:0], plan, reflect.ValueOf(&d.Nodes[i]).Elem()); !ok {
				return fmt.Errorf("node %d: the plan gave up", i)
			}
		}
		return nil
	})
}
