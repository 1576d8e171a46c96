package atl

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
)

// aff is a quasi-affine integer expression in canonical form: a constant
// plus integer multiples of atoms, each atom a name, a floor division
// of an aff by a positive constant, or a remainder of one. Every index
// expression of the front end (shapes, bounds, indices, reindexers) is
// an aff: a product of two non-constant terms is rejected when built.
type aff struct {
	c int64
	t []term // sorted by atom key; no zero coefficient
}

type term struct {
	k int64
	a *atom
}

// atom is a name (op 0), floor(arg / d) (op '/') or arg mod d (op '%').
type atom struct {
	op   byte
	name string
	arg  *aff
	d    int64
	key  string
}

func newAtom(op byte, name string, arg *aff, d int64) *atom {
	a := &atom{op: op, name: name, arg: arg, d: d}
	switch op {
	case 0:
		a.key = name
	default:
		a.key = fmt.Sprintf("(%s)%c%d", arg.key(), op, d)
	}
	return a
}

func constAff(c int64) *aff { return &aff{c: c} }

func nameAff(name string) *aff { return &aff{t: []term{{1, newAtom(0, name, nil, 0)}}} }

func (x *aff) key() string { return x.String() }

// isConst returns the value of a constant aff.
func (x *aff) isConst() (int64, bool) { return x.c, len(x.t) == 0 }

// norm sorts and merges terms and applies (e/d)*d + e%d = e.
func norm(c int64, ts []term) *aff {
	for changed := true; changed; {
		changed = false
		m := map[string]int{}
		var out []term
		for _, t := range ts {
			if t.k == 0 {
				continue
			}
			if i, ok := m[t.a.key]; ok {
				out[i].k += t.k
				continue
			}
			m[t.a.key] = len(out)
			out = append(out, t)
		}
		ts = out[:0:0]
		for _, t := range out {
			if t.k != 0 {
				ts = append(ts, t)
			}
		}
		for i, t := range ts {
			if t.a.op != '/' || t.k%t.a.d != 0 {
				continue
			}
			mk := fmt.Sprintf("(%s)%%%d", t.a.arg.key(), t.a.d)
			for j, u := range ts {
				if u.a.key == mk && u.k == t.k/t.a.d {
					// k*d*floor(e/d) + k*(e mod d) = k*e
					arg := t.a.arg.scale(u.k)
					rest := append([]term(nil), ts[:min(i, j)]...)
					rest = append(rest, ts[min(i, j)+1:max(i, j)]...)
					rest = append(rest, ts[max(i, j)+1:]...)
					ts = append(rest, arg.t...)
					c += arg.c
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].a.key < ts[j].a.key })
	return &aff{c: c, t: ts}
}

func (x *aff) add(y *aff) *aff {
	return norm(x.c+y.c, append(append([]term(nil), x.t...), y.t...))
}

func (x *aff) scale(k int64) *aff {
	ts := make([]term, len(x.t))
	for i, t := range x.t {
		ts[i] = term{t.k * k, t.a}
	}
	return norm(x.c*k, ts)
}

func (x *aff) sub(y *aff) *aff { return x.add(y.scale(-1)) }

func (x *aff) addConst(c int64) *aff { return x.add(constAff(c)) }

// mul multiplies when one side is constant.
func (x *aff) mul(y *aff) (*aff, bool) {
	if c, ok := x.isConst(); ok {
		return y.scale(c), true
	}
	if c, ok := y.isConst(); ok {
		return x.scale(c), true
	}
	return nil, false
}

func floorDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && (a < 0) != (d < 0) {
		q--
	}
	return q
}

func floorMod(a, d int64) int64 { return a - floorDiv(a, d)*d }

// split writes x as d*q + r, r's coefficients and constant in [0, d).
func (x *aff) split(d int64) (q, r *aff) {
	var qt, rt []term
	for _, t := range x.t {
		if k := floorDiv(t.k, d); k != 0 {
			qt = append(qt, term{k, t.a})
		}
		if k := floorMod(t.k, d); k != 0 {
			rt = append(rt, term{k, t.a})
		}
	}
	return norm(floorDiv(x.c, d), qt), norm(floorMod(x.c, d), rt)
}

// div is floor(x / d), d > 0.
func (x *aff) div(d int64) *aff {
	if d == 1 {
		return x
	}
	q, r := x.split(d)
	if len(r.t) == 0 {
		return q.addConst(floorDiv(r.c, d))
	}
	return q.add(norm(0, []term{{1, newAtom('/', "", r, d)}}))
}

// mod is x mod d (in [0, d)), d > 0.
func (x *aff) mod(d int64) *aff {
	if d == 1 {
		return constAff(0)
	}
	_, r := x.split(d)
	if len(r.t) == 0 {
		return constAff(floorMod(r.c, d))
	}
	return norm(0, []term{{1, newAtom('%', "", r, d)}})
}

// ceilDiv is ceil(x / d), d > 0.
func (x *aff) ceilDiv(d int64) *aff { return x.addConst(d - 1).div(d) }

// subst replaces names by affs.
func (x *aff) subst(m map[string]*aff) *aff {
	out := constAff(x.c)
	for _, t := range x.t {
		var a *aff
		switch t.a.op {
		case 0:
			if r, ok := m[t.a.name]; ok {
				a = r
			} else {
				a = nameAff(t.a.name)
			}
		case '/':
			a = t.a.arg.subst(m).div(t.a.d)
		default:
			a = t.a.arg.subst(m).mod(t.a.d)
		}
		out = out.add(a.scale(t.k))
	}
	return out
}

// names adds the names x mentions to set.
func (x *aff) names(set map[string]bool) {
	for _, t := range x.t {
		if t.a.op == 0 {
			set[t.a.name] = true
		} else {
			t.a.arg.names(set)
		}
	}
}

// mentionsName reports whether x mentions the name.
func (x *aff) mentionsName(name string) bool {
	set := map[string]bool{}
	x.names(set)
	return set[name]
}

// eval evaluates x; env gives every name's value.
func (x *aff) eval(env map[string]int64) (int64, error) {
	v := x.c
	for _, t := range x.t {
		var a int64
		switch t.a.op {
		case 0:
			n, ok := env[t.a.name]
			if !ok {
				return 0, fmt.Errorf("no value for %s", t.a.name)
			}
			a = n
		default:
			n, err := t.a.arg.eval(env)
			if err != nil {
				return 0, err
			}
			if t.a.op == '/' {
				a = floorDiv(n, t.a.d)
			} else {
				a = floorMod(n, t.a.d)
			}
		}
		v += t.k * a
	}
	return v, nil
}

// ordered returns the terms of x in the order they are printed: those
// with positive coefficients first (n - k rather than -k + n).
func (x *aff) ordered() []term {
	out := make([]term, 0, len(x.t))
	for _, t := range x.t {
		if t.k > 0 {
			out = append(out, t)
		}
	}
	for _, t := range x.t {
		if t.k < 0 {
			out = append(out, t)
		}
	}
	return out
}

// String formats x in the notation of Augur's formats.
func (x *aff) String() string {
	var b strings.Builder
	for i, t := range x.ordered() {
		k := t.k
		switch {
		case i == 0 && k < 0:
			b.WriteString("-")
			k = -k
		case i > 0 && k < 0:
			b.WriteString(" - ")
			k = -k
		case i > 0:
			b.WriteString(" + ")
		}
		if k != 1 {
			b.WriteString(strconv.FormatInt(k, 10))
			b.WriteString(" * ")
		}
		a := t.a.String()
		if t.a.op != 0 && (k != 1 || i == 0 && t.k < 0) {
			// 4 * (n / 4), -(n % 4): never (4 * n) / 4 or (-n) % 4.
			a = "(" + a + ")"
		}
		b.WriteString(a)
	}
	switch {
	case len(x.t) == 0:
		b.WriteString(strconv.FormatInt(x.c, 10))
	case x.c > 0:
		fmt.Fprintf(&b, " + %d", x.c)
	case x.c < 0:
		fmt.Fprintf(&b, " - %d", -x.c)
	}
	return b.String()
}

func (a *atom) String() string {
	if a.op == 0 {
		return a.name
	}
	arg := a.arg.String()
	if len(a.arg.t) > 1 || a.arg.c != 0 || len(a.arg.t) == 1 && a.arg.t[0].k != 1 {
		arg = "(" + arg + ")"
	}
	return fmt.Sprintf("%s %c %d", arg, a.op, a.d)
}

// build returns x as a quasi-affine expression of the engine's builder
// qb, name giving the value of each name. Divisions become qb's locals in
// the order x is printed (terms with positive coefficients first).
func (x *aff) build(qb *presburger.Builder, name func(string) (presburger.QuasiAff, error)) (presburger.QuasiAff, error) {
	acc := qb.Const(presburger.NewInt(0))
	for _, t := range x.ordered() {
		var v presburger.QuasiAff
		var err error
		if t.a.op == 0 {
			v, err = name(t.a.name)
		} else {
			v, err = t.a.arg.build(qb, name)
		}
		if err != nil {
			return presburger.QuasiAff{}, err
		}
		switch d := presburger.NewInt(t.a.d); t.a.op {
		case '/':
			v = qb.FloorDiv(v, d)
		case '%':
			v = qb.Mod(v, d)
		}
		acc = qb.AddScaled(acc, presburger.NewInt(t.k), v)
	}
	return qb.Add(acc, qb.Const(presburger.NewInt(x.c))), nil
}

// equalAff reports whether two affs are the same canonical form.
func equalAff(x, y *aff) bool { return x.key() == y.key() }
