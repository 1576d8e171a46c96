package encode

import (
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Range facts. A computed float tensor whose equations' bodies are
// bounded, by interval arithmetic over the specification's expressions
// (value.Interval: integers by their type's range, literals, + - × /,
// squares, min, max, clamp, abs, select, conversions, and the ranges of
// the computed float tensors they read), has every element in that
// interval: Contour(x, y, c) = min(p × p, 1) with p ≥ 0 lies in [0, 1]
// wherever it is defined. Every access to such a tensor then brings the
// fact lo ≤ T(args) ≤ hi among the axioms (Encoder.Axioms), which a
// float-to-integer conversion of a product of elements needs to be proved
// defined without unfolding the elements (a polynomial squared twice is
// nonlinear real arithmetic, or bit-blasted IEEE products).
//
// The facts are sound for the same reason as unfolding: an element the
// obligation reads lies in its tensor's domain, where its equation's body
// is defined (checked separately), so it lies in the body's range; the
// true tensor, given any value of the interval outside its domain, is an
// interpretation of its function that satisfies every fact. In the IEEE
// model the bounds are those of the rounded operations (value.RoundTo)
// and exclude NaN; an input float tensor, which may hold NaN or an
// infinity, has no range. Under value.OverflowUnconstrained no facts are
// stated: an element whose body overflows is whatever the kernel stored.
//
// A float-to-integer conversion whose operand's range, truncated, lies in
// the target type's range is defined (truncationFits), without the
// solver. The facts serve the definedness of the other conversions;
// elsewhere they would only add to the solver's work, so Axioms returns
// them only once such a conversion has been encoded.

// rangeEntry is a tensor's range: ok when it has one; done once computed
// (an entry not done is being computed: a recursive tensor has none).
type rangeEntry struct {
	iv       value.Interval
	ok, done bool
}

// rounding is the Rounding of the operations of type t in the encoder's
// model: exact in the real model.
func (e *Encoder) rounding(t syntax.Type) value.Rounding {
	if e.model == Real {
		return nil
	}
	return value.RoundTo(t)
}

// TensorRange returns the interval holding every defined element of the
// computed float tensor called name, false when the analysis finds none.
func (e *Encoder) TensorRange(name string) (value.Interval, bool) {
	if r, ok := e.ranges[name]; ok {
		return r.iv, r.ok && r.done
	}
	if e.spec == nil || e.info == nil || e.spec.Overflow == value.OverflowUnconstrained {
		return value.Interval{}, false
	}
	t := e.spec.Tensor(name)
	if t == nil || t.Input || !t.Type.IsFloat() || len(t.Eqs) == 0 {
		return value.Interval{}, false
	}
	e.ranges[name] = rangeEntry{} // in progress
	var iv value.Interval
	ok := true
	for i, eq := range t.Eqs {
		r, rok := e.exprRange(eq.RHS, e.info.Types)
		if !rok {
			ok = false
			break
		}
		if i == 0 {
			iv = r
		} else {
			iv = iv.Union(r)
		}
	}
	e.ranges[name] = rangeEntry{iv, ok, true}
	return iv, ok
}

// exprRange is the range of the float expression x whose subexpressions
// have the types types: an equation's body, or a side of an obligation,
// whose tensor accesses are elements the verifier proves defined.
func (e *Encoder) exprRange(x syntax.Expr, types map[syntax.Expr]syntax.Type) (value.Interval, bool) {
	t, typed := types[x]
	if !typed || !t.IsFloat() {
		return value.Interval{}, false
	}
	rnd := e.rounding(t)
	switch x := x.(type) {
	case *syntax.Lit:
		return e.litRange(t, x.Text)
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			if a, ok := e.exprRange(x.X, types); ok {
				return a.Neg(), true
			}
			return value.Interval{}, false
		}
	case *syntax.Binary:
		if x.Op == syntax.OpMul && syntax.ExprString(x.X) == syntax.ExprString(x.Y) {
			if a, ok := e.exprRange(x.X, types); ok {
				return a.Square(rnd)
			}
			return value.Interval{}, false
		}
		a, ok := e.exprRange(x.X, types)
		if !ok {
			return value.Interval{}, false
		}
		b, ok := e.exprRange(x.Y, types)
		if !ok {
			return value.Interval{}, false
		}
		switch x.Op {
		case syntax.OpAdd:
			return a.Add(b, rnd)
		case syntax.OpSub:
			return a.Sub(b, rnd)
		case syntax.OpMul:
			return a.Mul(b, rnd)
		case syntax.OpDiv:
			return a.Div(b, rnd)
		}
	case *syntax.Call:
		return e.callRange(x, t, types)
	}
	return value.Interval{}, false
}

// litRange is the value of a float literal as the encoder reads it
// (exprEnc.literal).
func (e *Encoder) litRange(t syntax.Type, text string) (value.Interval, bool) {
	v, err := value.Literal(t, text)
	if err != nil || v.IsUndef() {
		return value.Interval{}, false
	}
	if e.model == Real {
		if r, ok := e.readings.Rat(t, text); ok {
			return value.Point(r), true
		}
		if r, ok := value.DecimalRat(text); ok {
			return value.Point(r), true
		}
	}
	r := new(big.Rat).SetFloat64(v.Float64()) // nil for NaN and infinities
	if r == nil {
		return value.Interval{}, false
	}
	return value.Point(r), true
}

// callRange is the range of a conversion, a builtin or a tensor access of
// float type t.
func (e *Encoder) callRange(x *syntax.Call, t syntax.Type, types map[syntax.Expr]syntax.Type) (value.Interval, bool) {
	name := x.Fun.Name
	arg := func(i int) (value.Interval, bool) { return e.exprRange(x.Args[i], types) }
	if to := syntax.TypeByName(name); to != syntax.Invalid && len(x.Args) == 1 {
		from, typed := types[x.Args[0]]
		switch {
		case !typed || from == syntax.Invalid:
			return value.Interval{}, false
		case from.IsInteger():
			lo, hi := value.Range(from)
			return value.IntervalOf(new(big.Rat).SetInt(lo), new(big.Rat).SetInt(hi), e.rounding(t))
		case from.IsFloat():
			a, ok := arg(0)
			if !ok {
				return value.Interval{}, false
			}
			return value.IntervalOf(a.Lo, a.Hi, e.rounding(t))
		}
		return value.Interval{}, false
	}
	switch name {
	case "min", "max":
		a, okA := arg(0)
		b, okB := arg(1)
		if !okA || !okB {
			return value.Interval{}, false
		}
		return a.MinMax(b, name == "min"), true
	case "clamp":
		a, okA := arg(0)
		lo, okL := arg(1)
		hi, okH := arg(2)
		if !okA || !okL || !okH {
			return value.Interval{}, false
		}
		return a.MinMax(lo, false).MinMax(hi, true), true
	case "abs":
		a, ok := arg(0)
		if !ok {
			return value.Interval{}, false
		}
		return a.Abs(), true
	case "select":
		a, okA := arg(1)
		b, okB := arg(2)
		if !okA || !okB {
			return value.Interval{}, false
		}
		return a.Union(b), true
	}
	if isBuiltin(name) || isReinterpret(name) || !e.isTensorAccess(x) {
		return value.Interval{}, false
	}
	return e.TensorRange(name)
}

// rangeFact records, for the access term u of the computed tensor called
// name, the fact that it lies in the tensor's range, if it has one.
func (e *Encoder) rangeFact(name string, u *smt.Term) {
	if _, seen := e.facts[u.ID()]; seen {
		return
	}
	iv, ok := e.TensorRange(name)
	if !ok {
		return
	}
	t := e.spec.Tensor(name).Type
	var lo, hi *smt.Term
	if e.model == Real {
		lo, hi = e.z.Rat(iv.Lo), e.z.Rat(iv.Hi)
	} else {
		l, _ := iv.Lo.Float64() // exact: a value of type t
		h, _ := iv.Hi.Float64()
		var err error
		if lo, err = e.floatConst(t, l); err != nil {
			return
		}
		if hi, err = e.floatConst(t, h); err != nil {
			return
		}
	}
	var fact *smt.Term
	if e.model == Real {
		fact = lo.Le(u).And(u.Le(hi))
	} else {
		fact = lo.FPLe(u).And(u.FPLe(hi))
	}
	e.facts[u.ID()] = rangeFactEntry{u, fact}
	e.factOrder = append(e.factOrder, u.ID())
}

// rangeFactEntry is a range fact and the access term it is about, kept
// alive so that no other term takes its identifier over.
type rangeFactEntry struct{ u, fact *smt.Term }

// truncationFits reports whether the conversion of the float expression x
// (of types types) to the integer type to is defined wherever the
// elements x reads are: its range, truncated toward zero (monotone), lies
// in to's range. The conversion's definedness is then decided without
// the solver, which would otherwise have to bound the float arithmetic
// of x itself (bit-blasted IEEE products and sums, nonlinear reals).
func (e *Encoder) truncationFits(x syntax.Expr, types map[syntax.Expr]syntax.Type, to syntax.Type) bool {
	if e.spec == nil || e.info == nil || e.spec.Overflow == value.OverflowUnconstrained {
		return false
	}
	iv, ok := e.exprRange(x, types)
	if !ok {
		return false
	}
	lo, hi := value.Range(to)
	one := big.NewRat(1, 1)
	// trunc(v) >= lo where v > lo - 1, and trunc(v) <= hi where v < hi + 1.
	below := new(big.Rat).Sub(new(big.Rat).SetInt(lo), one)
	above := new(big.Rat).Add(new(big.Rat).SetInt(hi), one)
	return iv.Lo.Cmp(below) > 0 && iv.Hi.Cmp(above) < 0
}
