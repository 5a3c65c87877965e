package gencluster

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// baseTime is "now" for the generated cluster. It is fixed, not time.Now(),
// so that the output depends only on the flags.
var baseTime = time.Date(2026, 7, 20, 10, 0, 0, 0, time.UTC)

// rng wraps the single random source. Every random decision goes through it,
// in a fixed order, which is what makes the output reproducible.
type rng struct {
	r *rand.Rand
	// rv is the resourceVersion counter: unique and increasing like etcd's.
	rv int64
}

func newRNG(seed uint64) *rng {
	// The second PCG word is a constant so that -seed alone picks the stream.
	return &rng{r: rand.New(rand.NewPCG(seed, 0x5eed5c4edc4c4e)), rv: 48_000_000}
}

func (g *rng) intN(n int) int          { return g.r.IntN(n) }
func (g *rng) chance(p float64) bool   { return g.r.Float64() < p }
func (g *rng) between(lo, hi int) int  { return lo + g.r.IntN(hi-lo+1) }
func (g *rng) pickI64(s []int64) int64 { return s[g.r.IntN(len(s))] }
func (g *rng) hex(nBytes int) string   { return hex.EncodeToString(g.bytes(nBytes)) }
func (g *rng) resourceVersion() string { g.rv += 1 + int64(g.r.IntN(40)); return fmt.Sprint(g.rv) }
func (g *rng) secondsBefore(n int) int { return g.r.IntN(n + 1) }

func (g *rng) bytes(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := g.r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

// weighted returns an index into weights, chosen proportionally.
func (g *rng) weighted(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := g.r.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// uid returns a random version-4 UUID, the format the API server uses.
func (g *rng) uid() types.UID {
	b := g.bytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
}

// nameAlphabet is the alphabet of generated name suffixes
// (k8s.io/apimachinery/pkg/util/rand): no vowels, no confusable characters.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func (g *rng) suffix(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = nameAlphabet[g.r.IntN(len(nameAlphabet))]
	}
	return string(b)
}

// ago returns baseTime minus a number of seconds.
func ago(seconds int) metav1.Time {
	return metav1.NewTime(baseTime.Add(-time.Duration(seconds) * time.Second))
}

func after(t metav1.Time, seconds int) metav1.Time {
	return metav1.NewTime(t.Add(time.Duration(seconds) * time.Second))
}

// Quantity constructors. Building quantities from integers is much cheaper
// than parsing strings, and gives the canonical form the API server stores
// (e.g. 268435456 bytes prints as "256Mi", 1500 millicores as "1500m").
func milli(m int64) resource.Quantity { return *resource.NewMilliQuantity(m, resource.DecimalSI) }
func bin(b int64) resource.Quantity   { return *resource.NewQuantity(b, resource.BinarySI) }
func dec(n int64) resource.Quantity   { return *resource.NewQuantity(n, resource.DecimalSI) }

const (
	ki = int64(1) << 10
	mi = int64(1) << 20
	gi = int64(1) << 30
)

func ptr[T any](v T) *T { return &v }
