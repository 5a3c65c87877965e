package schedlog

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkParse5kNodes150kPods parses the dump of 5,000 NodeInfos holding
// 30 pods each (150,000 pod lines) in each encoding of the newest layout,
// and in the per-node records of v1.23.
func BenchmarkParse5kNodes150kPods(b *testing.B) {
	d := &Dump{}
	for i := range 5000 {
		n := Node{Name: fmt.Sprintf("node-%04d", i),
			Requested:   Resource{MilliCPU: 3000, Memory: 6 << 30, ScalarResources: map[string]int64{"example.com/gpu": 1}},
			Allocatable: Resource{MilliCPU: 8000, Memory: 32 << 30, EphemeralStorage: 100 << 30, AllowedPodNumber: 110}}
		for j := range 30 {
			n.Pods = append(n.Pods, Pod{Name: fmt.Sprintf("app-%d-7d4b9c8f6-%05d", j, i), Namespace: "team-a",
				UID: fmt.Sprintf("8f0c1a2b-3c4d-4e5f-8a9b-%012d", i*30+j), Phase: "Running"})
		}
		d.Nodes = append(d.Nodes, n)
	}
	for _, tc := range []struct {
		layout Layout
		enc    Encoding
	}{{LayoutV126, Text}, {LayoutV126, JSON}, {LayoutV123, Text}} {
		var buf bytes.Buffer
		if err := Write(&buf, d, WriteOptions{Layout: tc.layout, Encoding: tc.enc}); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		b.Run(fmt.Sprintf("%s-%s", tc.layout, tc.enc), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				got, err := Parse(bytes.NewReader(data))
				if err != nil || len(got.Nodes) != 5000 {
					b.Fatalf("%v", err)
				}
			}
		})
	}
}
