package read

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
)

// BenchmarkCutList cuts the items of a gen-cluster List (1,000 nodes /
// 30,000 pods, from memory) into their raw text, with the reader's own
// cutter (Cut, jsonscan.go: nesting limit, duplicate keys refused, the items'
// apiVersion and kind noted on the way) and with jsontext.Decoder
// (github.com/go-json-experiment/json: the same nesting limit and duplicate
// check), then reading each item's apiVersion and kind with ScanTypeMeta as
// the decoder would have to without the cutter's notes. The issue #32
// question: is the library slower than the hand-written cutter?
func BenchmarkCutList(b *testing.B) {
	path := loadtest.GenCluster(b, b.TempDir(), 1000, 30000)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	want := 0
	b.Run("cutter", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			items := 0
			Cut(bytes.NewReader(data), "bench", Limits{}, func(p Piece) bool {
				if p.Err != nil {
					b.Fatal(p.Err)
				}
				if p.Raw != nil {
					items++
				}
				return true
			})
			want = items
		}
	})
	for _, typeMeta := range []bool{false, true} {
		name := "jsontext"
		if typeMeta {
			name = "jsontext+ScanTypeMeta"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				items, err := cutWithJSONText(data, typeMeta)
				if err != nil {
					b.Fatal(err)
				}
				if items != want {
					b.Fatalf("%d items, the cutter %d", items, want)
				}
			}
		})
	}
}

// cutWithJSONText reads the List's items with jsontext.Decoder, as the
// reader would if it used the library; it returns how many it read.
func cutWithJSONText(data []byte, typeMeta bool) (int, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := dec.ReadToken(); err != nil { // {
		return 0, err
	}
	items := 0
	for dec.PeekKind() != '}' {
		key, err := dec.ReadToken()
		if err != nil {
			return 0, err
		}
		if key.String() != "items" {
			if err := dec.SkipValue(); err != nil {
				return 0, err
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil { // [
			return 0, err
		}
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				return 0, err
			}
			if typeMeta {
				if _, kind, ok := ScanTypeMeta(v); !ok || kind == "" {
					return 0, errors.New("an item without kind")
				}
			}
			items++
		}
		if _, err := dec.ReadToken(); err != nil { // ]
			return 0, err
		}
	}
	return items, nil
}
