package encode

import (
	"fmt"
	"math/big"

	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

func isBuiltin(name string) bool {
	_, ok := value.LookupBuiltin(name)
	return ok
}

// builtin encodes a call of a built-in function of result type t, following
// value.Call.
func (c *exprEnc) builtin(x *syntax.Call, t syntax.Type) (tv, error) {
	name := x.Fun.Name
	b, _ := value.LookupBuiltin(name)
	if len(x.Args) != b.Arity {
		return tv{}, exprError(x, "%s takes %d arguments, got %d", name, b.Arity, len(x.Args))
	}
	args := make([]*smt.Term, len(x.Args))
	defs := make([]*smt.Term, len(x.Args))
	frees := make([]*smt.Term, len(x.Args))
	for i, a := range x.Args {
		v, err := c.expr(a)
		if err != nil {
			return tv{}, err
		}
		want := t
		if name == "select" && i == 0 {
			want = syntax.Bool
		}
		if at, _ := c.typeOf(a); at != want {
			return tv{}, exprError(x, "argument %d has type %s, want %s", i+1, at, want)
		}
		args[i], defs[i], frees[i] = v.val, v.def, v.free
	}
	if b.FloatOnly && !t.IsFloat() || name != "select" && !t.IsNumeric() {
		return tv{}, exprError(x, "%s does not apply to %s", name, t)
	}
	r, err := c.e.callBuiltin(name, t, args)
	if err != nil {
		return tv{}, exprError(x, "%v", err)
	}
	// Every argument counts, select's unchosen branch included, for
	// definedness; for freedom (value.Call), select's condition and the
	// chosen branch.
	free := c.e.or(frees...)
	if name == "select" && (frees[1] != nil || frees[2] != nil) {
		free = c.e.or(frees[0], args[0].Ite(c.e.orFalse(frees[1]), c.e.orFalse(frees[2])))
	}
	return tv{r, c.e.and(defs...), free}, nil
}

func (e *Encoder) callBuiltin(name string, t syntax.Type, args []*smt.Term) (*smt.Term, error) {
	a := args[0]
	switch name {
	case "select":
		return a.Ite(args[1], args[2]), nil
	case "min", "max":
		return e.minMax(t, a, args[1], name == "min"), nil
	case "clamp":
		return e.minMax(t, e.minMax(t, a, args[1], false), args[2], true), nil
	case "abs":
		if t.IsInteger() {
			return bvAbs(e.z, a, t), nil
		}
		return e.floatAbs(a), nil
	case "floor", "ceil", "round":
		return e.floatRound(name, a), nil
	case "sqrt":
		if e.model == IEEE {
			return a.FPSqrt(smt.RNE), nil
		}
		// In the Real model sqrt stays a function, with what defines
		// it on the non-negative reals as a hypothesis: for x >= 0,
		// sqrt(x) >= 0 and sqrt(x)² = x. Identities such as
		// sqrt(|a|)·sqrt(|a|) = |a| are then provable.
		f, err := e.function(name, t, 1)
		if err != nil {
			return nil, err
		}
		r := f.Apply(a)
		zero := e.z.Real(0, 1)
		e.axioms = append(e.axioms, a.Ge(zero).Implies(e.z.And(r.Ge(zero), r.Mul(r).Eq(a))))
		return r, nil
	}
	f, err := e.function(name, t, len(args))
	if err != nil {
		return nil, err
	}
	r := f.Apply(args...)
	if name == "log" && e.model == Real {
		e.axioms = append(e.axioms, e.logBounds(a, r))
	}
	return r, nil
}

// logSlack is the absolute slack of logBounds, 2^-12: more than the
// error of a binary32 or binary64 logarithm (libm's, or Halide's
// polynomial, within a few units of roundoff of the true value, at most
// 2^-14 where the bounds touch the true logarithm: at 1 and at the
// tangent points, where |ln a| <= 128 ln 2 < 89).
var logSlack = big.NewRat(1, 1<<12)

// logTangents are the exponents k of the points 2^k at which logBounds
// bounds the logarithm by its tangent.
var logTangents = []int64{0, 3, 8, 32, 128}

// lnAbove holds, for n = 2, ..., 7, a rational above ln n, within
// 10^-10 of it (ln n rounded up at the tenth decimal): the logarithm's
// values at the small integers, where logBounds adds its tangent (at 8,
// 2^3, it has one already).
var lnAbove = [...]string{
	2: "0.6931471806", 3: "1.0986122887", 4: "1.3862943612", 5: "1.6094379125",
	6: "1.7917594693", 7: "1.9459101491",
}

// ln2Above is a rational above ln 2 (0.69314718055994530942...): lnAbove's.
var ln2Above, _ = new(big.Rat).SetString(lnAbove[2])

// logBounds is what the Real model knows of r = log(a), facts of the
// natural logarithm widened by logSlack so that they hold of a binary32
// or binary64 implementation too:
//
//	a >= 1  implies  r >= -2^-12,
//	a > 0   implies  r <= k ln 2 + a / 2^k - 1 + 2^-12, for k in logTangents,
//	a > 0   implies  r <= ln n + a / n - 1 + 2^-12, for n in 2, ..., 7
//
// (ln is concave: below its tangent at 2^k, and at n, with ln n rounded
// up, lnAbove). Linear in a and r, they bound the logarithm of a bounded
// argument, so that a float-to-integer conversion of it (Halide's
// slice_for_radius, floor(log(2t + 1) / log(2))) is provably defined; at
// an integer n <= 8 they bound it within 2^-12 of ln n from above (and at
// 9 within 2^-7, above log2(9) = 3.17 still below 4), so that
// 2^floor(log(n) / log(2)) <= n: max_filter reads the rows of its slice
// of that height above a pixel, which stay in the slices' rows.
func (e *Encoder) logBounds(a, r *smt.Term) *smt.Term {
	zero, one := e.z.Real(0, 1), e.z.Real(1, 1)
	slack := e.z.Rat(logSlack)
	facts := []*smt.Term{a.Ge(one).Implies(r.Ge(slack.Neg()))}
	for _, k := range logTangents {
		c := new(big.Rat).Mul(ln2Above, big.NewRat(k, 1))
		c.Add(c, logSlack)
		c.Sub(c, big.NewRat(1, 1))
		inv := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(k)))
		facts = append(facts, a.Gt(zero).Implies(r.Le(a.Mul(e.z.Rat(inv)).Add(e.z.Rat(c)))))
	}
	for n := 2; n < len(lnAbove); n++ {
		c, _ := new(big.Rat).SetString(lnAbove[n])
		c.Add(c, logSlack)
		c.Sub(c, big.NewRat(1, 1))
		facts = append(facts, a.Gt(zero).Implies(r.Le(a.Mul(e.z.Rat(big.NewRat(1, int64(n)))).Add(e.z.Rat(c)))))
	}
	return e.z.And(facts...)
}

func (e *Encoder) minMax(t syntax.Type, a, b *smt.Term, isMin bool) *smt.Term {
	if t.IsInteger() {
		return bvMinMax(a, b, t.IsSigned(), isMin)
	}
	return e.floatMinMax(t, a, b, isMin)
}

// function is the uninterpreted function standing for the built-in name on
// type t (exp, log, pow, sin, cos, tanh, fast_inverse, fast_inverse_sqrt,
// and sqrt in the Real model), called
// name.t in Z3.
func (e *Encoder) function(name string, t syntax.Type, arity int) (*smt.FuncDecl, error) {
	key := name + "." + t.String()
	e.opaqueFuncs++
	if f, ok := e.funcs[key]; ok {
		return f, nil
	}
	s, err := e.Sort(t)
	if err != nil {
		return nil, err
	}
	dom := make([]*smt.Sort, arity)
	for i := range dom {
		dom[i] = s
	}
	f := e.z.FuncDecl(key, dom, s)
	if err := f.Err(); err != nil {
		return nil, fmt.Errorf("function %s: %w", key, err)
	}
	e.funcs[key] = f
	return f, nil
}
