package cache

import "sync/atomic"

// GenerationCounter hands out NodeInfo generations: strictly increasing,
// never reset, so a node deleted and re-added with the same name never
// reuses an old generation (kubernetes issue #63262). Safe for concurrent use.
type GenerationCounter struct {
	n atomic.Int64
}

// Next returns the next generation.
func (g *GenerationCounter) Next() int64 { return g.n.Add(1) }

// processGenerations is the process-wide counter that caches use unless
// Options.Generations is set, mirroring upstream's package-level
// nextGeneration(). It is the package's only global, kept because it is the
// behaviour being modelled; callers wanting reproducible numbers (golden
// output) pass their own counter.
var processGenerations GenerationCounter
