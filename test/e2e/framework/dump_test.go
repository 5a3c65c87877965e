package framework

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// sampleValue is a nodes value as CacheDumper builds it: node blocks joined
// by a blank line, with a deleted node, scalar resources, a nominated pod
// and an empty node.
const sampleValue = `Node name: n1
Deleted: false
Requested Resources: &{MilliCPU:350 Memory:201326592 EphemeralStorage:0 AllowedPodNumber:0 ScalarResources:map[example.com/gpu:1 hugepages-2Mi:2097152]}
Allocatable Resources:&{MilliCPU:4000 Memory:8589934592 EphemeralStorage:21474836480 AllowedPodNumber:110 ScalarResources:map[example.com/gpu:4 hugepages-2Mi:0]}
Scheduled Pods(number: 2):
name: a, namespace: ns1, uid: 11111111-2222-3333-4444-555555555555, phase: Running, nominated node: 
name: b, namespace: ns1, uid: 66666666-2222-3333-4444-555555555555, phase: Pending, nominated node: 
Nominated Pods(number: 1):
name: c, namespace: ns2, uid: 77777777-2222-3333-4444-555555555555, phase: Pending, nominated node: n1


Node name: ghost
Deleted: true
Requested Resources: &{MilliCPU:100 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 ScalarResources:map[]}
Allocatable Resources:&{MilliCPU:0 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 ScalarResources:map[]}
Scheduled Pods(number: 1):
name: d, namespace: default, uid: 88888888-2222-3333-4444-555555555555, phase: Pending, nominated node: 


Node name: empty
Deleted: false
Requested Resources: &{MilliCPU:0 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 ScalarResources:map[]}
Allocatable Resources:&{MilliCPU:1000 Memory:1073741824 EphemeralStorage:0 AllowedPodNumber:10 ScalarResources:map[]}
Scheduled Pods(number: 0):
`

var sampleNodes = map[string]SchedulerNode{
	"n1": {
		Name:        "n1",
		Requested:   SchedulerResource{MilliCPU: 350, Memory: 201326592, ScalarResources: map[string]int64{"example.com/gpu": 1, "hugepages-2Mi": 2097152}},
		Allocatable: SchedulerResource{MilliCPU: 4000, Memory: 8589934592, EphemeralStorage: 21474836480, AllowedPodNumber: 110, ScalarResources: map[string]int64{"example.com/gpu": 4, "hugepages-2Mi": 0}},
		Pods: []SchedulerPod{
			{Name: "a", Namespace: "ns1", UID: "11111111-2222-3333-4444-555555555555", Phase: "Running"},
			{Name: "b", Namespace: "ns1", UID: "66666666-2222-3333-4444-555555555555", Phase: "Pending"},
		},
		NominatedPods: []SchedulerPod{{Name: "c", Namespace: "ns2", UID: "77777777-2222-3333-4444-555555555555", Phase: "Pending", NominatedNode: "n1"}},
	},
	"ghost": {
		Name: "ghost", Deleted: true,
		Requested: SchedulerResource{MilliCPU: 100},
		Pods:      []SchedulerPod{{Name: "d", Namespace: "default", UID: "88888888-2222-3333-4444-555555555555", Phase: "Pending"}},
	},
	"empty": {
		Name:        "empty",
		Allocatable: SchedulerResource{MilliCPU: 1000, Memory: 1073741824, AllowedPodNumber: 10},
	},
}

const klogHeader = `I1122 02:41:07.123456   12345 dumper.go:54] "Dump of cached NodeInfo"`

// multiLine renders v the way klog's text format prints a string value
// with line breaks: "<", tab-indented lines, then " >".
func multiLine(v string) string {
	v = strings.TrimSuffix(v, "\n")
	return "<\n\t" + strings.ReplaceAll(v, "\n", "\n\t") + "\n >"
}

func TestParseCacheDumpFormats(t *testing.T) {
	jsonRecord, err := json.Marshal(map[string]any{"ts": 1.7e9, "caller": "debugger/dumper.go:54", "msg": dumpMessage, "v": 0, "nodes": sampleValue})
	if err != nil {
		t.Fatal(err)
	}
	for name, record := range map[string]string{
		"klog multi-line": klogHeader + " nodes=" + multiLine(sampleValue),
		"klog quoted":     klogHeader + " nodes=" + strconv.Quote(sampleValue),
		"json":            string(jsonRecord),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseCacheDump(record)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, sampleNodes) {
				t.Errorf("got %+v\nwant %+v", got, sampleNodes)
			}
		})
	}
}

func TestParseCacheDumpEmpty(t *testing.T) {
	got, err := ParseCacheDump(klogHeader + ` nodes=""`)
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v; want no nodes", got, err)
	}
}

func TestParseCacheDumpErrors(t *testing.T) {
	for name, value := range map[string]string{
		"count mismatch": strings.Replace(sampleValue, "Scheduled Pods(number: 2)", "Scheduled Pods(number: 3)", 1),
		"unknown line":   strings.Replace(sampleValue, "Deleted: true", "Deleted: true\nColour: blue", 1),
		"bad resource":   strings.Replace(sampleValue, "MilliCPU:350", "MilliCPU:x", 1),
		"unknown field":  strings.Replace(sampleValue, "MilliCPU:350", "MilliGPU:350", 1),
		"truncated pod":  strings.Replace(sampleValue, ", phase: Running, nominated node: ", "", 1),
		"duplicate node": sampleValue + "\n" + sampleValue,
		"no node header": "Deleted: false\n",
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := ParseCacheDump(klogHeader + " nodes=" + strconv.Quote(value)); err == nil {
				t.Errorf("no error; parsed %+v", got)
			}
		})
	}
	for _, record := range []string{
		`I1122 02:41:07.1 1 x.go:1] "Dump of scheduling queue" summary=""`,
		klogHeader + " nodes=<\n\tNode name: n1\n",
		klogHeader + ` nodes="Node name: n1`,
		`{"msg":"Cache mismatch"}`,
	} {
		if _, err := ParseCacheDump(record); err == nil {
			t.Errorf("ParseCacheDump(%q): no error", record)
		}
	}
}

func TestFindDumpRecord(t *testing.T) {
	record := klogHeader + " nodes=" + multiLine(sampleValue)
	before := `I1122 02:41:07.100000   12345 comparer.go:68] "Cache mismatch" missedNodes=[] redundantNodes=["ghost"]` + "\n"
	after := "\n" + `I1122 02:41:07.200000   12345 dumper.go:64] "Dump of scheduling queue" summary="activeQ:0; backoffQ:0; unschedulablePods:0" pods=""` + "\n"
	full := before + record + after
	for cut := 0; cut < len(before)+len(record)+1; cut += 7 {
		if got, ok := findDumpRecord([]byte(full[:cut])); ok {
			t.Fatalf("found a record in a log cut at %d: %q", cut, got)
		}
	}
	got, ok := findDumpRecord([]byte(full))
	if !ok || got != record {
		t.Fatalf("findDumpRecord = %q, %v; want the record", got, ok)
	}
	quoted := klogHeader + " nodes=" + strconv.Quote(sampleValue)
	if got, ok := findDumpRecord([]byte(before + quoted + after)); !ok || got != quoted {
		t.Fatalf("findDumpRecord = %q, %v; want the quoted record", got, ok)
	}
}

// TestParseRealCacheDump parses a record captured from kube-scheduler
// v1.36.3 (see testdata/README.md), in the text format it really logs.
func TestParseRealCacheDump(t *testing.T) {
	data, err := os.ReadFile("testdata/scheduler-dump-v1.36.3.log")
	if err != nil {
		t.Fatal(err)
	}
	record, ok := findDumpRecord(data)
	if !ok {
		t.Fatal("no complete dump record in the sample")
	}
	got, err := ParseCacheDump(record)
	if err != nil {
		t.Fatal(err)
	}
	pod := func(name, ns, uid, phase, nominated string) SchedulerPod {
		return SchedulerPod{Name: name, Namespace: ns, UID: uid, Phase: phase, NominatedNode: nominated}
	}
	want := map[string]SchedulerNode{
		"gone": {
			Name: "gone", Deleted: true,
			Requested: SchedulerResource{MilliCPU: 100, Memory: 64 << 20},
			Pods:      []SchedulerPod{pod("orphan", "default", "80cf40c7-d410-494c-b5b9-ac83ed305b8c", "Pending", "")},
		},
		"node-a": {
			Name:        "node-a",
			Requested:   SchedulerResource{MilliCPU: 600, Memory: 320 << 20, ScalarResources: map[string]int64{"example.com/widget": 1}},
			Allocatable: SchedulerResource{MilliCPU: 2000, Memory: 4 << 30, EphemeralStorage: 10 << 30, AllowedPodNumber: 10, ScalarResources: map[string]int64{"example.com/widget": 4, "hugepages-2Mi": 0}},
			Pods: []SchedulerPod{
				pod("web-1", "default", "afe676ca-01d7-4ac8-8daf-59206c685e41", "Running", ""),
				pod("batch-1", "team-x", "63298c89-8777-485e-a003-f3abfde1b762", "Pending", ""),
			},
		},
		"node-b": {
			Name:          "node-b",
			Requested:     SchedulerResource{MilliCPU: 800},
			Allocatable:   SchedulerResource{MilliCPU: 1000, Memory: 2 << 30, AllowedPodNumber: 5},
			Pods:          []SchedulerPod{pod("victim", "default", "d2d71e97-42de-4039-92f9-f4ab41271b2e", "Pending", "")},
			NominatedPods: []SchedulerPod{pod("preemptor", "default", "ea04c715-7db7-4f13-8719-edfd049b6af3", "Pending", "node-b")},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
