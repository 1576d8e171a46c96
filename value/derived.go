package value

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Derived readings of float literals.
//
// A compiler folds constants: Halide rewrites x / 3 as x * 0.333333343,
// the binary32 value nearest 1/3, and (x + a) * k as x * k + fold(a * k).
// In the real value model, where every float operation is exact, the
// literal 0.333333343 is not one third, and the folded kernel would not
// compute its specification. But the literal is the rounded result of an
// operation on the specification's constants, done at compile time; the
// real model reads the operations done at run time without their
// rounding, and DeriveReadings reads these the same way: a kernel literal
// that is a binary rounding of a small expression over the
// specification's constants stands for that expression's exact value.

// MaxDerivedOps is the largest number of operations in the expression a
// literal is read as.
const MaxDerivedOps = 2

// maxLeavesTwoOps bounds the distinct constants of one type for which
// expressions of two operations are tried (their number grows as the
// cube of the constants'); past it, only one operation.
const maxLeavesTwoOps = 40

// A Constant is a float literal as a specification or kernel spells it,
// with the float type its context gives it. Text may start with '-'.
type Constant struct {
	Type syntax.Type
	Text string
}

// A Reading is a kernel literal that the real model reads as the exact
// value of an expression over the specification's constants rather than
// as the number it spells.
type Reading struct {
	// Type and Text are the literal's type and spelling (without a sign);
	// Value its binary value.
	Type  syntax.Type
	Text  string
	Value Value
	// Rat is the real number the literal stands for, the exact value of
	// Expr, an expression of Ops operations (+, -, *, /) over the
	// specification's constants and 1, spelled with those constants'
	// shortest spellings ("1 / 3").
	Rat  *big.Rat
	Expr string
	Ops  int
}

// String renders the reading as "0.33333334 as 1 / 3".
func (r Reading) String() string { return r.Value.String() + " as " + r.Expr }

// Readings is the set of a kernel's literals read as derived constants.
// The zero value and nil hold none.
type Readings struct {
	byText map[litKey]Reading
}

type litKey struct {
	t    syntax.Type
	text string
}

// Len is the number of literals read as derived constants.
func (r *Readings) Len() int {
	if r == nil {
		return 0
	}
	return len(r.byText)
}

// Rat returns the real number the literal of type t spelled text (which
// may start with '-') stands for, when it is read as a derived constant.
func (r *Readings) Rat(t syntax.Type, text string) (*big.Rat, bool) {
	if r.Len() == 0 {
		return nil, false
	}
	body, neg := strings.CutPrefix(text, "-")
	rd, ok := r.byText[litKey{t, body}]
	if !ok {
		return nil, false
	}
	q := new(big.Rat).Set(rd.Rat)
	if neg {
		q.Neg(q)
	}
	return q, true
}

// List returns the readings by type, then value, then spelling.
func (r *Readings) List() []Reading {
	if r.Len() == 0 {
		return nil
	}
	out := make([]Reading, 0, len(r.byText))
	for _, rd := range r.byText {
		out = append(out, rd)
	}
	slices.SortFunc(out, func(a, b Reading) int {
		return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.Value.Float64(), b.Value.Float64()), strings.Compare(a.Text, b.Text))
	})
	return out
}

// DecimalRat reads a decimal literal ("0.1", "-2.5e-3", "1.", ".5", "3")
// as the exact rational it spells; it refuses hexadecimal spellings,
// separators, inf and nan.
func DecimalRat(text string) (*big.Rat, bool) {
	if strings.HasSuffix(text, ".") {
		text += "0"
	}
	if strings.ContainsAny(text, "xXpP_") || strings.ContainsAny(text, "iInN") {
		return nil, false
	}
	return new(big.Rat).SetString(text)
}

// RealLiteral is the real number the real value model reads the literal
// of float type t spelled text as, without derived readings: the decimal
// number it spells, or, for a spelling that is not decimal, its binary
// value.
func RealLiteral(t syntax.Type, text string) (*big.Rat, error) {
	v, err := Literal(t, text)
	if err != nil {
		return nil, err
	}
	if r, ok := DecimalRat(text); ok {
		return r, nil
	}
	r := new(big.Rat)
	if r.SetFloat64(v.Float64()) == nil {
		return nil, fmt.Errorf("literal %s is not finite", text)
	}
	return r, nil
}

// DeriveReadings decides which of the kernel's float literals the real
// model reads as derived constants, given the specification's float
// literals. A kernel literal c of type T stands for the exact value r of
// an expression E of at most MaxDerivedOps operations among + - * / over
// the specification's constants of type T and 1 (each read as the real
// model reads it), with signs free, when c is a binary rounding of E:
// either r rounded to nearest in T, or E evaluated on the constants'
// binary values with each operation exact or rounded to nearest in
// binary64 or in T, the result rounded to nearest in T (the ways a
// compiler folds: Halide folds in binary64 and rounds each folded
// constant to its type), and c is within the rounding of E's operations
// of r, relatively (near): reading c as r is the real model's abstraction
// of rounding, applied to the operations done at compile time, and a
// constant wrong by more than that is read as no expression.
//
// A literal keeps its own reading when no such E exists, when one of
// them has exactly the literal's own value (the constants themselves
// included: a literal the specification spells too), or when it is 0.
// Otherwise it is read as the value of the E of fewest operations, then
// of smallest denominator, then smallest numerator, then shortest
// spelling. Literals that do not parse are ignored (the checker reports
// them).
func DeriveReadings(spec, kernel []Constant) *Readings {
	r := &Readings{byText: map[litKey]Reading{}}
	for _, t := range []syntax.Type{syntax.F32, syntax.F64} {
		targets := derivationTargets(t, kernel)
		if len(targets) == 0 {
			continue
		}
		leaves := derivationLeaves(t, spec)
		searchDerivations(t, leaves, targets)
		for _, tg := range targets {
			if rd, ok := tg.choose(t); ok {
				r.byText[litKey{t, tg.text}] = rd
			}
		}
	}
	return r
}

// leaf is a constant of the specification: its binary value, the real
// number the real model reads it as, and the spelling shown.
type leaf struct {
	bin, real *big.Rat
	approx    float64 // real, approximately
	show      string
}

// target is a kernel literal to read, and the expressions found for it.
type target struct {
	text    string
	val     Value
	c       float64 // the binary value, positive
	own     *big.Rat
	lo, hi  float64 // the window of approximate values worth an exact check
	matches []match
	// plain is set once an expression of exactly the literal's own
	// value is found: the literal keeps its reading, and the search for
	// it stops.
	plain bool
}

type match struct {
	rat  *big.Rat
	expr string
	ops  int
}

func derivationTargets(t syntax.Type, kernel []Constant) []*target {
	seen := map[string]bool{}
	var out []*target
	for _, k := range kernel {
		body := strings.TrimPrefix(k.Text, "-")
		if k.Type != t || seen[body] {
			continue
		}
		seen[body] = true
		v, err := Literal(t, body)
		if err != nil || v.Float64() == 0 {
			continue
		}
		own, err := RealLiteral(t, body)
		if err != nil {
			continue
		}
		c := v.Float64()
		// Sixteen times the gap below c either way (at least eight
		// units in the last place): the approximate values of the
		// expressions c stands for are within seven units of roundoff
		// of it (near). The gap below is finite at the largest float.
		gap := c - float64(math.Nextafter32(float32(c), 0))
		if t == syntax.F64 {
			gap = c - math.Nextafter(c, 0)
		}
		out = append(out, &target{text: body, val: v, c: c, own: own, lo: c - 16*gap, hi: c + 16*gap})
	}
	slices.SortFunc(out, func(a, b *target) int { return cmp.Compare(a.c, b.c) })
	return out
}

func derivationLeaves(t syntax.Type, spec []Constant) []leaf {
	one := big.NewRat(1, 1)
	leaves := []leaf{{bin: one, real: one, approx: 1, show: "1"}}
	for _, s := range spec {
		if s.Type != t {
			continue
		}
		body := strings.TrimPrefix(s.Text, "-")
		v, err := Literal(t, body)
		if err != nil || v.Float64() == 0 {
			continue
		}
		real, err := RealLiteral(t, body)
		if err != nil {
			continue
		}
		bin := new(big.Rat).SetFloat64(v.Float64())
		dup := false
		for _, l := range leaves {
			dup = dup || l.bin.Cmp(bin) == 0 && l.real.Cmp(real) == 0
		}
		if dup {
			continue
		}
		show := v.String()
		if real.Cmp(bin) != 0 {
			show = body
		}
		approx, _ := real.Float64()
		leaves = append(leaves, leaf{bin: bin, real: real, approx: approx, show: show})
	}
	return leaves
}

// node is an expression over the leaves: a leaf (op 0, a its index) or
// an operation on two nodes. Values are non-negative: a difference is
// taken in the order that makes it so (signs are free).
type node struct {
	op     byte
	a, b   *node
	leaf   int
	approx float64
}

func (n *node) ops() int {
	if n.op == 0 {
		return 0
	}
	return 1 + n.a.ops() + n.b.ops()
}

// combine calls emit with the nodes op(x, y) for the four operations,
// with the non-negative difference and both quotients. The nodes are
// values: most are looked at once and dropped.
func combine(x, y *node, emit func(node)) {
	emit(node{op: '+', a: x, b: y, approx: x.approx + y.approx})
	emit(node{op: '*', a: x, b: y, approx: x.approx * y.approx})
	if d := x.approx - y.approx; d >= 0 {
		emit(node{op: '-', a: x, b: y, approx: d})
	} else {
		emit(node{op: '-', a: y, b: x, approx: -d})
	}
	if y.approx != 0 {
		emit(node{op: '/', a: x, b: y, approx: x.approx / y.approx})
	}
	if x.approx != 0 {
		emit(node{op: '/', a: y, b: x, approx: y.approx / x.approx})
	}
}

// searchDerivations enumerates the expressions over leaves of up to
// MaxDerivedOps operations and records in each target those that the
// target's literal is a rounding of.
func searchDerivations(t syntax.Type, leaves []leaf, targets []*target) {
	check := func(n node) {
		// The targets are sorted by value, and so are their windows.
		i, _ := slices.BinarySearchFunc(targets, n.approx, func(tg *target, x float64) int {
			return cmp.Compare(tg.hi, x)
		})
		for ; i < len(targets) && targets[i].lo <= n.approx; i++ {
			if !targets[i].plain {
				targets[i].consider(t, leaves, &n)
			}
		}
	}
	base := make([]*node, len(leaves))
	for i, l := range leaves {
		base[i] = &node{leaf: i, approx: l.approx}
		check(*base[i])
	}
	var first []*node
	for i, x := range base {
		for _, y := range base[i:] {
			combine(x, y, func(n node) {
				check(n)
				if n.approx != 0 && !math.IsInf(n.approx, 0) {
					first = append(first, &n)
				}
			})
		}
	}
	if len(leaves) > maxLeavesTwoOps {
		return
	}
	for _, x := range first {
		for _, y := range base {
			combine(x, y, check)
		}
	}
}

// consider records n among the target's matches when the target's
// literal is one of its roundings.
func (tg *target) consider(t syntax.Type, leaves []leaf, n *node) {
	real, ok := n.eval(leaves, nil)
	if !ok || real.Sign() <= 0 {
		return
	}
	if real.Cmp(tg.own) == 0 {
		tg.plain = true
		return
	}
	found := tg.isRounding(t, real)
	// The binary evaluations: each operation exact, or rounded to
	// binary64 or to t; the last one's rounding to t is the final one.
	ops := n.ops()
	for m := 0; !found && m < pow3(ops); m++ {
		if v, ok := n.eval(leaves, &modes{m: m, t: t}); ok {
			found = tg.isRounding(t, v)
		}
	}
	if found && tg.near(t, real, ops) {
		tg.matches = append(tg.matches, match{rat: real, expr: n.show(leaves, true), ops: ops})
	}
}

// near reports whether the target's binary value is within (2 ops + 3)
// units of roundoff of x, relatively: one for each operation and each of
// its at most ops + 1 constants (a spelling read otherwise than as its
// binary value), and one for the final rounding, with room for the
// binary64 roundings. An evaluation that cancelled (a rounded product
// minus a constant close to it) may be far from x; its result does not
// stand for x.
func (tg *target) near(t syntax.Type, x *big.Rat, ops int) bool {
	u := big.NewRat(1, 1<<24)
	if t == syntax.F64 {
		u = big.NewRat(1, 1<<53)
	}
	c := new(big.Rat).SetFloat64(tg.c)
	d := new(big.Rat).Sub(c, x)
	bound := new(big.Rat).Mul(new(big.Rat).Abs(x), u)
	bound.Mul(bound, big.NewRat(int64(2*ops+3), 1))
	return d.Abs(d).Cmp(bound) <= 0
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

// isRounding reports whether the target's binary value is x rounded to
// nearest in t.
func (tg *target) isRounding(t syntax.Type, x *big.Rat) bool {
	if t == syntax.F32 {
		f, _ := x.Float32()
		return float64(f) == tg.c
	}
	f, _ := x.Float64()
	return f == tg.c
}

// modes picks, operation by operation in evaluation order, how each
// result is rounded: the base-3 digits of m, 0 exact, 1 to binary64, 2
// to t. Without modes (nil) an evaluation is of the real readings.
type modes struct {
	m int
	t syntax.Type
}

func (md *modes) round(x *big.Rat) (*big.Rat, bool) {
	d := md.m % 3
	md.m /= 3
	var f float64
	switch {
	case d == 0:
		return x, true
	case d == 1 || md.t == syntax.F64:
		f, _ = x.Float64()
	default:
		f32, _ := x.Float32()
		f = float64(f32)
	}
	if math.IsInf(f, 0) {
		return nil, false
	}
	return new(big.Rat).SetFloat64(f), true
}

// eval computes n exactly over the leaves' real readings (md nil) or
// over their binary values with the roundings of md.
func (n *node) eval(leaves []leaf, md *modes) (*big.Rat, bool) {
	if n.op == 0 {
		if md == nil {
			return leaves[n.leaf].real, true
		}
		return leaves[n.leaf].bin, true
	}
	a, ok := n.a.eval(leaves, md)
	if !ok {
		return nil, false
	}
	b, ok := n.b.eval(leaves, md)
	if !ok {
		return nil, false
	}
	r := new(big.Rat)
	switch n.op {
	case '+':
		r.Add(a, b)
	case '-':
		r.Sub(a, b)
	case '*':
		r.Mul(a, b)
	case '/':
		if b.Sign() == 0 {
			return nil, false
		}
		r.Quo(a, b)
	}
	if md == nil {
		return r, true
	}
	return md.round(r)
}

// show spells n over the leaves' spellings, parenthesised where an
// operand is itself an operation.
func (n *node) show(leaves []leaf, top bool) string {
	if n.op == 0 {
		return leaves[n.leaf].show
	}
	s := n.a.show(leaves, false) + " " + string(n.op) + " " + n.b.show(leaves, false)
	if !top {
		s = "(" + s + ")"
	}
	return s
}

// choose decides the target's reading (see DeriveReadings).
func (tg *target) choose(t syntax.Type) (Reading, bool) {
	if tg.plain || len(tg.matches) == 0 {
		return Reading{}, false
	}
	best := slices.MinFunc(tg.matches, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.ops, b.ops), a.rat.Denom().Cmp(b.rat.Denom()),
			new(big.Int).Abs(a.rat.Num()).Cmp(new(big.Int).Abs(b.rat.Num())),
			cmp.Compare(len(a.expr), len(b.expr)), strings.Compare(a.expr, b.expr))
	})
	return Reading{Type: t, Text: tg.text, Value: tg.val, Rat: best.rat, Expr: best.expr, Ops: best.ops}, true
}
