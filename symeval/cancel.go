package symeval

import (
	"sort"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file cancels equal sub-terms of a sum before its pieces are
// built. Halide's check of an input's required region (nl_means at the
// final stage) reads max(...) - B + B' + 1 <= extent + min, where B and
// B' are the same nest of min and max written with the terms of an
// inner sum in another order: the simplifier saw the required min and
// extent as separate lets and left both copies. Translated as they
// stand, B and B' multiply their pieces (and those of the first max)
// past maxPieces; yet B' - B is 0.
//
// A sum (of +, -, negation and products with a constant) is read as a
// linear combination of atoms: its maximal sub-terms of another kind
// (min, max, select, division, remainder, a name), each identified by a
// canonical key. The key of a sum is its linear combination's terms in
// the order of their keys; the key of a min or max is the sorted,
// duplicate-free keys of its operands, nested mins (maxes) flattened
// into one; any other term's key is its operator over its operands'
// keys. Two terms with the same key denote the same integer wherever
// both are evaluated (each step is an identity of the integers:
// commutativity and associativity of +, min and max, idempotence of min
// and max, and replacing an operand by an equal one), so the atoms of
// one key are translated once, with the sum of their coefficients, and
// not at all when it is 0. The translation stays exact.
//
// A sum is read this way only when two of its atoms that may have
// several pieces (anything but a variable) share a key; otherwise it is
// translated term by term as before, its pieces in the same order.
// Reads of arrays or tensors have no key: a sum containing one is not
// rewritten, so that their failures (out of bounds, undefined) are
// never cancelled away.

// sumTerm is an atom of a sumForm: coef times the value of x, which has
// the key key.
type sumTerm struct {
	key  string
	x    syntax.Expr
	coef presburger.Int
}

// sumForm is an index expression as sum(coef * atom) + c, its atoms in
// the order of their first occurrence.
type sumForm struct {
	terms []sumTerm
	at    map[string]int // index in terms, by key
	c     presburger.Int
	// merged is set when an atom that may have several pieces occurred
	// twice: reading the sum as a sumForm may save pieces.
	merged bool
}

func newSumForm() *sumForm { return &sumForm{at: map[string]int{}, c: presburger.NewInt(0)} }

// add adds f * x, an atom of key k, to s.
func (s *sumForm) add(k string, x syntax.Expr, f presburger.Int, multi bool) {
	if i, ok := s.at[k]; ok {
		s.terms[i].coef = s.terms[i].coef.Add(f)
		if multi {
			s.merged = true
		}
		return
	}
	s.at[k] = len(s.terms)
	s.terms = append(s.terms, sumTerm{key: k, x: x, coef: f})
}

// key returns the canonical text of s: its nonzero terms in the order of
// their keys, then its constant. A sum of one atom with coefficient 1 is
// that atom's key.
func (s *sumForm) key() string {
	ts := make([]sumTerm, 0, len(s.terms))
	for _, t := range s.terms {
		if !t.coef.IsZero() {
			ts = append(ts, t)
		}
	}
	if len(ts) == 1 && ts[0].coef.IsOne() && s.c.IsZero() {
		return ts[0].key
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].key < ts[j].key })
	var b strings.Builder
	b.WriteString("+(")
	for _, t := range ts {
		b.WriteString(t.coef.String())
		b.WriteString("*")
		b.WriteString(t.key)
		b.WriteString(",")
	}
	b.WriteString(s.c.String())
	b.WriteString(")")
	return b.String()
}

// canon is the cache of canonical keys of one translator's expressions.
type canon struct {
	lookup func(string) (binding, bool)
	keys   map[syntax.Expr]string
}

// intLit returns the value of an integer literal.
func intLitValue(x syntax.Expr) (presburger.Int, bool) {
	l, ok := x.(*syntax.Lit)
	if !ok || l.Kind != syntax.IntLiteral {
		return presburger.Int{}, false
	}
	v, err := value.Literal(syntax.I64, l.Text)
	if err != nil {
		return presburger.Int{}, false
	}
	return presburger.NewInt(v.Int64()), true
}

// isSum reports whether x is read as a linear combination: a sum, a
// difference, a negation or a product.
func isSum(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Binary:
		return x.Op == syntax.OpAdd || x.Op == syntax.OpSub || x.Op == syntax.OpMul
	case *syntax.Unary:
		return x.Op == syntax.OpNeg
	}
	return false
}

// linearize adds f * x to s; false when a sub-term of x has no key.
func (c *canon) linearize(x syntax.Expr, f presburger.Int, s *sumForm) bool {
	if v, ok := intLitValue(x); ok {
		s.c = s.c.Add(v.Mul(f))
		return true
	}
	if !isSum(x) {
		k, ok := c.key(x)
		if !ok {
			return false
		}
		s.add(k, x, f, c.multi(x))
		return true
	}
	one := presburger.NewInt(1)
	switch x := x.(type) {
	case *syntax.Unary:
		return c.linearize(x.X, f.Neg(), s)
	case *syntax.Binary:
		switch x.Op {
		case syntax.OpAdd, syntax.OpSub:
			g := f
			if x.Op == syntax.OpSub {
				g = f.Neg()
			}
			return c.linearize(x.X, f, s) && c.linearize(x.Y, g, s)
		case syntax.OpMul:
			a, b := newSumForm(), newSumForm()
			if !c.linearize(x.X, one, a) || !c.linearize(x.Y, one, b) {
				return false
			}
			switch {
			case len(b.terms) == 0:
				return c.linearize(x.X, f.Mul(b.c), s)
			case len(a.terms) == 0:
				return c.linearize(x.Y, f.Mul(a.c), s)
			}
			// A product of two non-constant terms: an atom (which
			// the translation rejects), keyed by its factors' keys in
			// order (not by key(x), which would linearize x again).
			kx, ok := c.key(x.X)
			if !ok {
				return false
			}
			ky, ok := c.key(x.Y)
			if !ok {
				return false
			}
			if ky < kx {
				kx, ky = ky, kx
			}
			s.add("*("+kx+","+ky+")", x, f, true)
			return true
		}
	}
	return false
}

// multi reports whether the atom x may have several pieces: anything but
// a name bound to a variable or to a let of one piece.
func (c *canon) multi(x syntax.Expr) bool {
	id, ok := x.(*syntax.Ident)
	if !ok {
		return true
	}
	b, ok := c.lookup(id.Name)
	return ok && len(b.let) > 1
}

// key returns the canonical key of x (see above); false when x reads an
// array or a tensor, or is not an integer term.
func (c *canon) key(x syntax.Expr) (string, bool) {
	if k, ok := c.keys[x]; ok {
		return k, k != ""
	}
	k := c.keyOf(x)
	if c.keys == nil {
		c.keys = map[syntax.Expr]string{}
	}
	c.keys[x] = k
	return k, k != ""
}

// keyOf computes key(x); "" when x has none.
func (c *canon) keyOf(x syntax.Expr) string {
	if v, ok := intLitValue(x); ok {
		return "+(" + v.String() + ")"
	}
	if isSum(x) {
		s := newSumForm()
		if !c.linearize(x, presburger.NewInt(1), s) {
			return ""
		}
		return s.key()
	}
	switch x := x.(type) {
	case *syntax.Ident:
		return "n:" + x.Name
	case *syntax.Lit:
		if x.Kind == syntax.BoolLiteral {
			return "b:" + x.Text
		}
	case *syntax.Unary:
		if k, ok := c.key(x.X); ok {
			return x.Op.String() + "(" + k + ")"
		}
	case *syntax.Binary:
		kx, ok := c.key(x.X)
		if !ok {
			return ""
		}
		if ky, ok := c.key(x.Y); ok {
			return x.Op.String() + "(" + kx + "," + ky + ")"
		}
	case *syntax.Chain:
		var b strings.Builder
		b.WriteString("chain(")
		for i, o := range x.Operands {
			k, ok := c.key(o)
			if !ok {
				return ""
			}
			if i > 0 {
				b.WriteString(x.Ops[i-1].String())
			}
			b.WriteString(k)
		}
		b.WriteString(")")
		return b.String()
	case *syntax.Call:
		switch x.Fun.Name {
		case "min", "max":
			if len(x.Args) != 2 {
				return ""
			}
			var ks []string
			if !c.flatten(x.Fun.Name, x, &ks) {
				return ""
			}
			sort.Strings(ks)
			out := ks[:0]
			for i, k := range ks {
				if i == 0 || k != ks[i-1] {
					out = append(out, k)
				}
			}
			if len(out) == 1 {
				return out[0]
			}
			return x.Fun.Name + "{" + strings.Join(out, ",") + "}"
		case "select":
			if len(x.Args) != 3 {
				return ""
			}
			ks := make([]string, 3)
			for i, a := range x.Args {
				k, ok := c.key(a)
				if !ok {
					return ""
				}
				ks[i] = k
			}
			return "select(" + strings.Join(ks, ",") + ")"
		}
	}
	return ""
}

// flatten appends to ks the keys of the operands of x, a call of fun
// (min or max), through the nested calls of fun.
func (c *canon) flatten(fun string, x syntax.Expr, ks *[]string) bool {
	if call, ok := x.(*syntax.Call); ok && call.Fun.Name == fun && len(call.Args) == 2 {
		return c.flatten(fun, call.Args[0], ks) && c.flatten(fun, call.Args[1], ks)
	}
	k, ok := c.key(x)
	if !ok {
		return false
	}
	*ks = append(*ks, k)
	return true
}

// sumOf returns the sumForm of f*x + g*y (y may be nil), or nil when it
// merges no atom of several pieces or a sub-term has no key: then the
// translation term by term is as good.
func (t *translator) sumOf(x syntax.Expr, f presburger.Int, y syntax.Expr, g presburger.Int) *sumForm {
	if t.canon == nil {
		t.canon = &canon{lookup: t.lookup}
	}
	s := newSumForm()
	if !t.canon.linearize(x, f, s) {
		return nil
	}
	if y != nil && !t.canon.linearize(y, g, s) {
		return nil
	}
	if !s.merged {
		return nil
	}
	return s
}

// maxCancelledSplit bounds the pieces of an atom whose coefficients
// cancel that still split the pieces of its sum (translateSum).
const maxCancelledSplit = 8

// translateSum translates s: each atom once, scaled by its coefficient,
// in the order of their first occurrence, then the constant. An atom
// whose coefficients cancel adds nothing to the value; of at most
// maxCancelledSplit pieces, its pieces' conditions still split the
// result's, as they do when its copies are expanded (their pairs of
// different cases contradict each other), so that the pieces stay those
// of other accesses with the same atom (a cell and its annotation; left
// out, harris at Halide's final stage took 1.6 times the Presburger
// steps); of more, or past the pieces' limit, it is left out.
func (t *translator) translateSum(s *sumForm) (pwExpr, error) {
	var acc pwExpr
	one := presburger.NewInt(1)
	for _, term := range s.terms {
		pw, err := t.index(term.x)
		if term.coef.IsZero() && (outOfPieces(err) || err == nil && len(pw) > maxCancelledSplit) {
			continue
		}
		if err != nil {
			return nil, err
		}
		scaled := make(pwExpr, len(pw))
		for i, p := range pw {
			scaled[i] = piece{cond: p.cond, e: p.e.scale(term.coef)}
		}
		if acc == nil {
			acc = scaled
			continue
		}
		if acc, err = combine(t.w, acc, scaled, func(p, q linear) (pwExpr, error) { return pwLinear(p.add(q, one)), nil }); err != nil {
			return nil, err
		}
	}
	if acc == nil {
		return pwLinear(linear{c: s.c}), nil
	}
	out := make(pwExpr, len(acc))
	for i, p := range acc {
		out[i] = piece{cond: p.cond, e: p.e.add(linear{c: s.c}, one)}
	}
	return out, nil
}
