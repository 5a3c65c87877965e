package load

import (
	"fmt"

	"github.com/schedcache/kubectl-schedcache/internal/load/read"
)

// keyTable records, for every informer key read, where its object was
// read and its index in the collector's slice of its kind. Pods and
// nodes, nearly every object of a cluster, have maps of their own keyed
// by two strings and one, and a location takes 24 bytes: one map of
// four-string keys holding whole locations cost the collector's goroutine
// more in growing and hashing than the rest of its bookkeeping per pod.
type keyTable struct {
	pods   map[podKey]kept
	nodes  map[string]kept
	others map[objectKey]kept
	// sources are the names kept.src indexes; last and index find them.
	sources []string
	index   map[string]int32
}

// podKey is a pod's informer key, namespace/name.
type podKey struct{ namespace, name string }

// kept is where an object of a key was read (its source, document and
// item: what read.Location.String names) and its index in the collector's
// slice of its kind (-1: not kept, a terminal pod).
type kept struct {
	src, index int32
	doc, item  int
}

func newKeyTable() keyTable {
	return keyTable{pods: map[podKey]kept{}, nodes: map[string]kept{}, others: map[objectKey]kept{}, index: map[string]int32{}}
}

// kept is the record of an object read at loc, at index.
func (t *keyTable) kept(loc read.Location, index int) kept {
	return kept{src: t.source(loc.Source), index: int32(index), doc: loc.Doc, item: loc.Item}
}

// source is name's index in t.sources, added when new. Objects come file
// after file, so the last one is nearly always the answer.
func (t *keyTable) source(name string) int32 {
	if n := len(t.sources); n > 0 && t.sources[n-1] == name {
		return int32(n - 1)
	}
	if i, ok := t.index[name]; ok {
		return i
	}
	i := int32(len(t.sources))
	t.sources = append(t.sources, name)
	t.index[name] = i
	return i
}

// location is where k's object was read, as read.Location.String names it.
func (t *keyTable) location(k kept) read.Location {
	return read.Location{Source: t.sources[k.src], Doc: k.doc, Item: k.item}
}

// replaceKey records in m that the object of key k (named by key) was read
// at loc. When one was read before, it warns that the later one replaces
// it, as an update would, and returns the earlier one's index (false when
// there is none, or it was not kept).
func replaceKey[K comparable](c *collector, m map[K]kept, k K, key objectKey, loc read.Location) (int, bool) {
	first, ok := m[k]
	if !ok {
		return 0, false
	}
	c.nReplaced++
	if len(c.replaced) < maxReplacedLines {
		c.replaced = append(c.replaced, fmt.Sprintf("%s in %s replaces the one in %s, as an update would", key, loc, c.keys.location(first)))
	}
	m[k] = c.keys.kept(loc, int(first.index))
	return int(first.index), first.index >= 0
}
