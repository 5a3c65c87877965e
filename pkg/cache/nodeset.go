package cache

// nodeSet is a set of node numbers (cacheImpl.nodeNumber): the nodes that
// report one image. Its count is what the scheduler's image state holds
// as the number of nodes with the image (a set of node names, v1.29+).
//
// Every node adds itself to the set of each image name it reports, so at
// 5,000 nodes with tens of names each a hash set pays hundreds of
// thousands of inserts, and its growth, while nodes are added. Small sets
// (an image on a few nodes, most names in a real cluster) are a short list
// of numbers; past smallNodeSet members the set becomes a bitmap indexed by
// number, whose insert is a bit set and whose size is one bit per node
// number given so far.
type nodeSet struct {
	small []uint32 // the members, while there are at most smallNodeSet
	words []uint64 // the bitmap, once there were more
	n     int
}

// smallNodeSet is the most members kept as a list: a list of that many
// numbers takes no more memory than a bitmap over a few thousand nodes.
const smallNodeSet = 32

// len is the number of members.
func (s *nodeSet) len() int { return s.n }

// add inserts id; inserting a member again changes nothing.
func (s *nodeSet) add(id uint32) {
	if s.words == nil {
		for _, m := range s.small {
			if m == id {
				return
			}
		}
		if len(s.small) < smallNodeSet {
			s.small = append(s.small, id)
			s.n++
			return
		}
		s.toBitmap()
	}
	w, bit := int(id/64), uint64(1)<<(id%64)
	if w >= len(s.words) {
		s.words = append(s.words, make([]uint64, w+1-len(s.words))...)
	}
	if s.words[w]&bit == 0 {
		s.words[w] |= bit
		s.n++
	}
}

// remove deletes id; removing a number that is not a member changes nothing.
func (s *nodeSet) remove(id uint32) {
	if s.words == nil {
		for i, m := range s.small {
			if m == id {
				last := len(s.small) - 1
				s.small[i] = s.small[last]
				s.small = s.small[:last]
				s.n--
				return
			}
		}
		return
	}
	w, bit := int(id/64), uint64(1)<<(id%64)
	if w < len(s.words) && s.words[w]&bit != 0 {
		s.words[w] &^= bit
		s.n--
	}
}

// toBitmap moves the list's members into a bitmap.
func (s *nodeSet) toBitmap() {
	top := uint32(0)
	for _, m := range s.small {
		top = max(top, m)
	}
	s.words = make([]uint64, top/64+1, (top/64+1)*2)
	for _, m := range s.small {
		s.words[m/64] |= uint64(1) << (m % 64)
	}
	s.small = nil
}
