package encode

import (
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// accessArgs encodes the indices of the tensor access x as Int terms,
// simplified: equal indices are then equal terms, so that the two sides of
// an obligation share their tensor elements syntactically and order
// commutative operands alike. An index with a type is data-dependent
// (expr.Info.IsDataIndex, Clément 2022, section 9.6.1): its value stands
// for the integer it denotes, signed or not as its type says (dataIndex),
// and the access is defined only where that value is: def is the
// conjunction of those indices' definedness, nil when every index is an
// index expression.
func (c *exprEnc) accessArgs(x *syntax.Call) (args []*smt.Term, def *smt.Term, err error) {
	args = make([]*smt.Term, len(x.Args))
	var defs []*smt.Term
	for i, a := range x.Args {
		if t, typed := c.typeOf(a); typed {
			if !t.IsInteger() {
				return nil, nil, exprError(a, "data-dependent index of type %s", t)
			}
			n, err := c.dataIndex(a, t)
			if err != nil {
				return nil, nil, err
			}
			args[i] = n.val.Simplify()
			defs = append(defs, n.def)
			continue
		}
		n, err := c.e.indexExpr(a, c.idx)
		if err != nil {
			return nil, nil, err
		}
		args[i] = n.Simplify()
	}
	if len(defs) > 0 {
		def = c.e.and(defs...)
	}
	return args, def, nil
}

// intRange is a closed interval of integers.
type intRange struct{ lo, hi *big.Int }

// typeRange is the range of the integer type t.
func typeRange(t syntax.Type) intRange {
	lo, hi := value.Range(t)
	return intRange{lo, hi}
}

// within reports whether r lies in s.
func (r intRange) within(s intRange) bool { return r.lo.Cmp(s.lo) >= 0 && r.hi.Cmp(s.hi) <= 0 }

// union is the smallest interval holding r and s.
func (r intRange) union(s intRange) intRange {
	lo, hi := r.lo, r.hi
	if s.lo.Cmp(lo) < 0 {
		lo = s.lo
	}
	if s.hi.Cmp(hi) > 0 {
		hi = s.hi
	}
	return intRange{lo, hi}
}

// minMaxRange is the range of min (isMin) or max of values in r and s.
func minMaxRange(r, s intRange, isMin bool) intRange {
	pick := func(a, b *big.Int) *big.Int {
		if (a.Cmp(b) < 0) == isMin {
			return a
		}
		return b
	}
	return intRange{pick(r.lo, s.lo), pick(r.hi, s.hi)}
}

// intTerm is an integer-valued Int term, its definedness and the range
// its value lies in.
type intTerm struct {
	val, def *smt.Term
	r        intRange
}

// dataIndex encodes the data-dependent index x of integer type t as the
// Int term of the integer it denotes. Z3 relates the integer of a
// bit-vector (bv2int) to the bit-vector's arithmetic poorly, so the
// operations that cannot wrap are kept in the integers: sums,
// differences, products and negations whose operands' ranges (interval
// arithmetic from the types, literals, min, max and clamp) keep the result
// in t's range, conversions that keep the value, min, max, clamp and
// select. Such an operation's integer is exactly the integer of its
// bit-vector result, so the term is exact in every model; anything else
// is the integer of its bit-vector value. i64(clamp(a, 0, 255) + 1) - 1
// and clamp(a, 0, 255) are then equal in linear integer arithmetic.
func (c *exprEnc) dataIndex(x syntax.Expr, t syntax.Type) (intTerm, error) {
	switch x := x.(type) {
	case *syntax.Lit:
		v, err := value.Literal(t, x.Text)
		if err == nil && !v.IsUndef() {
			n := new(big.Int).SetUint64(v.Uint64())
			if t.IsSigned() {
				n.SetInt64(v.Int64())
			}
			return intTerm{c.e.z.BigInt(n), c.e.tru, intRange{n, n}}, nil
		}
	case *syntax.Unary:
		if x.Op == syntax.OpNeg {
			if _, isLit := x.X.(*syntax.Lit); isLit {
				break // one literal (-128 fits i8)
			}
			a, ok, err := c.dataOperand(x.X, t)
			if err != nil {
				return intTerm{}, err
			}
			if ok {
				r := intRange{new(big.Int).Neg(a.r.hi), new(big.Int).Neg(a.r.lo)}
				if r.within(typeRange(t)) {
					return intTerm{a.val.Neg(), a.def, r}, nil
				}
			}
		}
	case *syntax.Binary:
		if x.Op == syntax.OpAdd || x.Op == syntax.OpSub || x.Op == syntax.OpMul {
			a, okA, err := c.dataOperand(x.X, t)
			if err != nil {
				return intTerm{}, err
			}
			b, okB, err := c.dataOperand(x.Y, t)
			if err != nil {
				return intTerm{}, err
			}
			if okA && okB {
				if n, ok := c.e.intArith(x.Op, a, b, t); ok {
					return n, nil
				}
			}
		}
	case *syntax.Call:
		if n, ok, err := c.dataCall(x, t); err != nil || ok {
			return n, err
		}
	}
	v, err := c.expr(x)
	if err != nil {
		return intTerm{}, err
	}
	return intTerm{c.e.bvInt(v.val, t), v.def, typeRange(t)}, nil
}

// dataOperand is dataIndex of the operand x of an operation of type t;
// ok is false when x has another type.
func (c *exprEnc) dataOperand(x syntax.Expr, t syntax.Type) (intTerm, bool, error) {
	if xt, typed := c.typeOf(x); !typed || xt != t {
		return intTerm{}, false, nil
	}
	n, err := c.dataIndex(x, t)
	return n, err == nil, err
}

// intArith is a op b in the integers, when the result's range lies in t's.
func (e *Encoder) intArith(op syntax.Op, a, b intTerm, t syntax.Type) (intTerm, bool) {
	var r intRange
	var val *smt.Term
	switch op {
	case syntax.OpAdd:
		r = intRange{new(big.Int).Add(a.r.lo, b.r.lo), new(big.Int).Add(a.r.hi, b.r.hi)}
		val = a.val.Add(b.val)
	case syntax.OpSub:
		r = intRange{new(big.Int).Sub(a.r.lo, b.r.hi), new(big.Int).Sub(a.r.hi, b.r.lo)}
		val = a.val.Sub(b.val)
	case syntax.OpMul:
		corners := []*big.Int{
			new(big.Int).Mul(a.r.lo, b.r.lo), new(big.Int).Mul(a.r.lo, b.r.hi),
			new(big.Int).Mul(a.r.hi, b.r.lo), new(big.Int).Mul(a.r.hi, b.r.hi),
		}
		r = intRange{corners[0], corners[0]}
		for _, k := range corners[1:] {
			r = r.union(intRange{k, k})
		}
		val = a.val.Mul(b.val)
	default:
		return intTerm{}, false
	}
	if !r.within(typeRange(t)) {
		return intTerm{}, false
	}
	return intTerm{val, e.and(a.def, b.def), r}, true
}

// dataCall is dataIndex of a conversion between integer types that keeps
// the value, or of min, max, clamp or select; ok is false for any other
// call, left to the bit-vectors.
func (c *exprEnc) dataCall(x *syntax.Call, t syntax.Type) (n intTerm, ok bool, err error) {
	name := x.Fun.Name
	if to := syntax.TypeByName(name); to != syntax.Invalid && len(x.Args) == 1 {
		from, typed := c.typeOf(x.Args[0])
		if to != t {
			return intTerm{}, false, nil
		}
		if !typed {
			// An index expression converted: kept when it is a
			// constant in the type's range.
			n, err := c.e.indexExpr(x.Args[0], c.idx)
			if err != nil {
				return intTerm{}, false, err
			}
			k, err := n.Simplify().IntValue()
			if err != nil || !(intRange{k, k}).within(typeRange(to)) {
				return intTerm{}, false, nil
			}
			return intTerm{c.e.z.BigInt(k), c.e.tru, intRange{k, k}}, true, nil
		}
		if !from.IsInteger() {
			return intTerm{}, false, nil
		}
		a, err := c.dataIndex(x.Args[0], from)
		if err != nil || !a.r.within(typeRange(to)) {
			return intTerm{}, false, err
		}
		return a, true, nil
	}
	args := make([]intTerm, len(x.Args))
	first := 0
	switch {
	case (name == "min" || name == "max") && len(x.Args) == 2,
		name == "clamp" && len(x.Args) == 3:
	case name == "select" && len(x.Args) == 3:
		first = 1
	default:
		return intTerm{}, false, nil
	}
	for i := first; i < len(x.Args); i++ {
		a, okA, err := c.dataOperand(x.Args[i], t)
		if err != nil || !okA {
			return intTerm{}, false, err
		}
		args[i] = a
	}
	mm := func(a, b intTerm, isMin bool) intTerm {
		return intTerm{intMinMax(a.val, b.val, isMin), c.e.and(a.def, b.def), minMaxRange(a.r, b.r, isMin)}
	}
	switch name {
	case "min", "max":
		return mm(args[0], args[1], name == "min"), true, nil
	case "clamp":
		return mm(mm(args[0], args[1], false), args[2], true), true, nil
	}
	cond, err := c.expr(x.Args[0])
	if err != nil {
		return intTerm{}, false, err
	}
	if ct, _ := c.typeOf(x.Args[0]); ct != syntax.Bool {
		return intTerm{}, false, nil
	}
	a, b := args[1], args[2]
	return intTerm{cond.val.Ite(a.val, b.val), c.e.and(cond.def, a.def, b.def), a.r.union(b.r)}, true, nil
}
