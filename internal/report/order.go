package report

import (
	"fmt"

	"github.com/schedcache/kubectl-schedcache/internal/termtext"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// orderSlots is how many slots of the round-robin the order picture draws:
// enough for a few rounds of a cluster with a handful of zones.
const orderSlots = 60

// orderPicture is the zone round-robin: the first slots of the NodeTree's
// order, coloured by zone, and the stretch of the order each of the first
// scheduling cycles examines.
type orderPicture struct {
	Slots  []slot
	Zones  []zoneKey
	Cycles []cycleBar
	// NumNodes is the length of the order; Width the SVG's.
	NumNodes, Width, SlotsHeight int
}

type slot struct {
	Index, X, Y int
	Node, Zone  string
	// Colour is the zone's palette index (CSS class z0…z7).
	Colour int
}

type zoneKey struct {
	Name   string
	Colour int
	Nodes  int
}

// cycleBar is one cycle's scan over the whole order, as one or two
// segments (the scan wraps around the end of the list).
type cycleBar struct {
	Cycle, Start, NumToFind, Y int
	Segments                   []segment
	Text                       string
}

type segment struct{ X, Width float64 }

const (
	slotSize    = 30
	slotsPerRow = 20
	orderWidth  = slotsPerRow * slotSize
	zoneColours = 8
)

func orderPictureOf(o *v1alpha1.NodeOrder) orderPicture {
	p := orderPicture{NumNodes: o.NumNodes, Width: orderWidth}
	zone := map[string]int{} // zone key -> index in p.Zones
	for _, s := range o.Order {
		i, ok := zone[s.Zone]
		if !ok {
			i = len(p.Zones)
			zone[s.Zone] = i
			name := s.Zone
			if name == "" {
				name = "<no zone>"
			}
			p.Zones = append(p.Zones, zoneKey{Name: name, Colour: i % zoneColours})
		}
		p.Zones[i].Nodes++
	}
	for i, s := range o.Order[:min(len(o.Order), orderSlots)] {
		p.Slots = append(p.Slots, slot{Index: s.Index, X: (i % slotsPerRow) * slotSize, Y: (i / slotsPerRow) * slotSize,
			Node: s.Node, Zone: p.Zones[zone[s.Zone]].Name, Colour: zone[s.Zone] % zoneColours})
	}
	p.SlotsHeight = ((len(p.Slots) + slotsPerRow - 1) / slotsPerRow) * slotSize
	for i, c := range o.Cycles {
		b := cycleBar{Cycle: c.Cycle, Start: c.StartIndex, NumToFind: c.NumToFind, Y: i * 26}
		b.Text = fmt.Sprintf("cycle %d: starts at index %d, examines %d of %s", c.Cycle, c.StartIndex, c.NumToFind, termtext.Count(o.NumNodes, "node"))
		if o.NumNodes > 0 {
			scale := float64(orderWidth) / float64(o.NumNodes)
			end := c.StartIndex + c.NumToFind
			b.Segments = append(b.Segments, segment{X: float64(c.StartIndex) * scale, Width: float64(min(end, o.NumNodes)-c.StartIndex) * scale})
			if end > o.NumNodes {
				b.Segments = append(b.Segments, segment{X: 0, Width: float64(end-o.NumNodes) * scale})
			}
		}
		p.Cycles = append(p.Cycles, b)
	}
	return p
}
