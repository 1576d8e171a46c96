package validate

import (
	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/symeval"
)

// This file is the shortcut of matchFirst for an implementation side that
// reads input tensors only, as a copy stage behind a boundary condition
// does (Halide's repeat_edge: the stage reads the input at clamped
// indices, its annotation names the specification's stage, defined
// through the boundary condition's tensors). Matching substitutes the
// specification side one level more at a time, each level a new encoding
// of the whole side, until it is the implementation side's term or a
// fixed point: no term naming only input tensors can equal a side that
// still names a computed tensor, so for such an implementation side the
// levels before the specification side reaches the inputs are encoded in
// vain. A copy stage has one piece per combination of its clamps' cases
// (hundreds), and those vain encodings were most of its discharge.

// deepMatch returns the strategy that encodes the specification side of
// ob as the matching strategy st does, but at maxMatchDepth levels at
// once, and whether it applies: only when the implementation side reads
// no computed tensor. Encoding at any depth is sound (every unfolding is
// an instance of the specification's equations, which were proved well
// founded and defined), so what it proves is proved; a piece it does not
// close goes through matching as before.
func (s *solver) deepMatch(ob *symeval.Obligation, st strategy) (strategy, bool) {
	for _, t := range tensorsOf(ob.Impl.Expr) {
		// Names that are no tensor are builtins (f32, exp, ...).
		if tt := s.v.in.spec.Tensor(t); tt != nil && !tt.Input {
			return strategy{}, false
		}
	}
	deep := st
	deep.name += ", at full depth"
	deep.match = false
	deep.spec.Depth = maxMatchDepth
	return deep, true
}

// closeDeep tries to close one piece of ob's points with the deep
// strategy (deepMatch), as matchFirst closes a piece: the two sides the
// same term, or the query unsatisfiable within matchFirstResources units
// (closeQuickly). It returns how the piece closed, "" when it did not,
// and the piece's query (nil on an encoding error).
func (s *solver) closeDeep(ob *symeval.Obligation, deep strategy, piece *presburger.BasicMap, earlier map[string]*query) (string, *query) {
	s.enc.ResetUnfoldings()
	q, err := s.encode(ob, deep, piece, earlier)
	if err != nil {
		return "", nil
	}
	if q.bad.IsFalse() {
		return "same terms", q
	}
	closed, err := s.closeQuickly(ob, q)
	if err != nil {
		return "", q
	}
	return closed, q
}
