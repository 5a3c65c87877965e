package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// NodeOrder is the zone round-robin order of NodeTree.Next, and optionally
// the nodes successive scheduling cycles examine.
type NodeOrder struct {
	metav1.TypeMeta `json:",inline"`
	Source          string      `json:"source"`
	NumNodes        int         `json:"numNodes"`
	Order           []NodeSlot  `json:"order"`
	Cycles          []CycleScan `json:"cycles,omitempty"`
}

// NodeSlot is one NodeTree.Next() result.
type NodeSlot struct {
	// Index is the 1-based call number.
	Index int    `json:"index"`
	Node  string `json:"node"`
	Zone  string `json:"zone"`
	// Round is the 1-based round of the round-robin: it grows each time every
	// zone was exhausted and the cursors reset.
	Round int `json:"round"`
}

// CycleScan is one scheduling cycle's scan, assuming every node feasible.
type CycleScan struct {
	Cycle int `json:"cycle"`
	// StartIndex is nextStartNodeIndex at the start of the cycle.
	StartIndex int `json:"startIndex"`
	// NumToFind is numFeasibleNodesToFind for the cluster size and percentage.
	NumToFind int `json:"numToFind"`
	// Nodes examined, in scan order.
	Nodes []string `json:"nodes"`
}
