package presburger

// Map is a finite union of BasicMaps living in one space: the relation
// (or, in a set space, the set) containing the points of any of its
// pieces. The pieces need not be disjoint. A Map is immutable once built:
// operations return new Maps.
type Map struct {
	space  Space
	basics []*BasicMap
}

// NewMap returns the union of basics, which must all live in space (same
// tuples; parameters are aligned to space's parameter list, which is
// extended with any parameter a piece has and space lacks).
func NewMap(space Space, basics ...*BasicMap) *Map {
	m := &Map{space: space.Copy()}
	for _, b := range basics {
		m.space.Params = alignParamNames(m.space.Params, b.space.Params)
	}
	for _, b := range basics {
		if b.empty {
			continue
		}
		c := b.alignParams(m.space.Params)
		if c == b {
			c = b.Copy()
		}
		c.space = m.space.Copy()
		m.basics = append(m.basics, c)
	}
	return m
}

// Empty returns the empty relation (or set) of space.
func Empty(space Space) *Map { return &Map{space: space.Copy()} }

// Universe returns the relation (or set) of space containing every point.
func Universe(space Space) *Map {
	return &Map{space: space.Copy(), basics: []*BasicMap{NewBasicMap(space)}}
}

// Space returns the space of m.
func (m *Map) Space() Space { return m.space.Copy() }

// Basics returns the pieces of m (copies).
func (m *Map) Basics() []*BasicMap {
	out := make([]*BasicMap, len(m.basics))
	for i, b := range m.basics {
		out[i] = b.Copy()
	}
	return out
}

// NumBasics returns the number of pieces of m.
func (m *Map) NumBasics() int { return len(m.basics) }
