package symeval

import (
	"errors"

	"github.com/augur-verify/augur/syntax"
)

// This file splits a comparison at the min and max of its operands when
// its translation runs out of pieces. Halide's checks of an input's
// required region, where the input is read through a boundary condition,
// compare a clamped bound with the buffer's end: max(min(R, e + m), m +
// 1) <= e + m, with R a nest of min, max and division through every
// level of a pyramid (lens_blur), far too many pieces to translate. Over
// the integers
//
//	max(x, y) <= z  iff  x <= z and y <= z
//	min(x, y) <= z  iff  x <= z or y <= z
//
// (and alike for <, >= and >), and z <= z holds whatever z is: the check
// is m + 1 <= e + m, R never translated. Each step is an equivalence, so
// the translated constraint is the same set, in either polarity.

// budgetError is a translation that ran out of pieces (maxPieces,
// maxProduct).
type budgetError string

func (e budgetError) Error() string { return string(e) }

// outOfPieces reports whether err is a translation out of pieces.
func outOfPieces(err error) bool {
	var b budgetError
	return errors.As(err, &b)
}

// readsNothing reports whether e is built of names, integer literals,
// arithmetic, min, max and select alone: no read of an array or tensor,
// whose failures (out of bounds, undefined) a decision by the syntax
// would hide.
func readsNothing(e syntax.Expr) bool {
	ok := true
	syntax.Inspect(e, func(x syntax.Expr) bool {
		switch x := x.(type) {
		case *syntax.Ident, *syntax.Lit, *syntax.Unary, *syntax.Binary:
		case *syntax.Call:
			switch x.Fun.Name {
			case "min", "max", "select":
			default:
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// maxKnownSteps bounds the syntactic comparisons of one decision by
// knownCompare.
const maxKnownSteps = 4096

// minMaxArgs returns the operands of e when e is min(x, y) or max(x, y).
func minMaxArgs(e syntax.Expr) (x, y syntax.Expr, isMax, ok bool) {
	c, ok := e.(*syntax.Call)
	if !ok || len(c.Args) != 2 || (c.Fun.Name != "min" && c.Fun.Name != "max") {
		return nil, nil, false, false
	}
	return c.Args[0], c.Args[1], c.Fun.Name == "max", true
}

// isOrdering reports whether op is <, <=, > or >=.
func isOrdering(op syntax.Op) bool {
	switch op {
	case syntax.OpLt, syntax.OpLe, syntax.OpGt, syntax.OpGe:
		return true
	}
	return false
}

// mirrorOp returns the comparison op' with b op' a iff a op b.
func mirrorOp(op syntax.Op) syntax.Op {
	switch op {
	case syntax.OpLt:
		return syntax.OpGt
	case syntax.OpLe:
		return syntax.OpGe
	case syntax.OpGt:
		return syntax.OpLt
	case syntax.OpGe:
		return syntax.OpLe
	}
	return op
}

// splitsAsAnd reports whether m(x, y) op z, with m max when isMax and
// min otherwise, is (x op z) and (y op z); otherwise it is (x op z) or
// (y op z). op is an ordering.
func splitsAsAnd(isMax bool, op syntax.Op) bool {
	below := op == syntax.OpLe || op == syntax.OpLt
	return isMax == below
}

// knownCompare decides a op b, an ordering, by the syntax alone: a
// comparison of an expression with itself, through the min and max of
// either operand. known is false when it cannot tell (or after steps
// comparisons).
func knownCompare(a syntax.Expr, op syntax.Op, b syntax.Expr, steps *int) (holds, known bool) {
	if *steps <= 0 {
		return false, false
	}
	*steps--
	if syntax.Equal(a, b) {
		return op == syntax.OpLe || op == syntax.OpGe, true
	}
	x, y, isMax, ok := minMaxArgs(a)
	if !ok {
		if _, _, _, ok := minMaxArgs(b); ok {
			return knownCompare(b, mirrorOp(op), a, steps)
		}
		return false, false
	}
	and := splitsAsAnd(isMax, op)
	hx, kx := knownCompare(x, op, b, steps)
	if kx && hx != and {
		// false and ..., true or ...
		return hx, true
	}
	hy, ky := knownCompare(y, op, b, steps)
	switch {
	case ky && hy != and:
		return hy, true
	case kx && ky:
		return and, true
	}
	return false, false
}

// splitCompare translates a op b, an ordering, split at the min and max
// of its operands (see above), and reports whether the syntax decided
// some of its parts; when it decided none, the split is of no use and
// the caller keeps the error of the comparison as a whole.
func (t *translator) splitCompare(a syntax.Expr, op syntax.Op, b syntax.Expr) (dnf, bool, error) {
	steps := maxKnownSteps
	if holds, known := knownCompare(a, op, b, &steps); known {
		return constDNF(holds), true, nil
	}
	x, y, isMax, ok := minMaxArgs(a)
	if !ok {
		if _, _, _, ok := minMaxArgs(b); ok {
			return t.splitCompare(b, mirrorOp(op), a)
		}
		d, err := t.compare(a, op, b, false)
		return d, false, err
	}
	and := splitsAsAnd(isMax, op)
	var out dnf
	if and {
		out = dnfTrue()
	}
	decided := false
	for _, side := range []syntax.Expr{x, y} {
		steps := maxKnownSteps
		if _, known := knownCompare(side, op, b, &steps); known {
			// The other side decides (a decided side that decides
			// the whole was found above).
			decided = true
			continue
		}
		d, dec, err := t.splitCompare(side, op, b)
		if err != nil {
			return nil, false, err
		}
		decided = decided || dec
		if and {
			out, err = out.and(t.w, d)
		} else {
			out, err = out.or(d)
		}
		if err != nil {
			return nil, false, err
		}
	}
	return out, decided, nil
}

// constDNF is the constraint true or false.
func constDNF(holds bool) dnf {
	if holds {
		return dnfTrue()
	}
	return nil
}
