package encode

import (
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
)

// accessArgs encodes the indices of the tensor access x as Int terms,
// simplified: equal indices are then equal terms, so that the two sides of
// an obligation share their tensor elements syntactically and order
// commutative operands alike. An index with a type is data-dependent
// (expr.Info.IsDataIndex, Clément 2022, section 9.6.1): its value, a
// bit-vector, stands for the integer it denotes, signed or not as its
// type says, and the access is defined only where that value is: def is
// the conjunction of those indices' definedness, nil when every index is
// an index expression.
func (c *exprEnc) accessArgs(x *syntax.Call) (args []*smt.Term, def *smt.Term, err error) {
	args = make([]*smt.Term, len(x.Args))
	var defs []*smt.Term
	for i, a := range x.Args {
		if t, typed := c.typeOf(a); typed {
			if !t.IsInteger() {
				return nil, nil, exprError(a, "data-dependent index of type %s", t)
			}
			v, err := c.expr(a)
			if err != nil {
				return nil, nil, err
			}
			args[i] = v.val.BVToInt(t.IsSigned()).Simplify()
			defs = append(defs, v.def)
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
