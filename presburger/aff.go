package presburger

import (
	"fmt"
	"strings"
)

// Aff is an integer-valued quasi-affine function on the points of a domain
// space (isl's aff): for a point x = [params | dims],
//
//	f(x) = floor((Num · [params | dims | divs | 1]) / Den)
//
// where each division divs[i] = floor(divs[i].Num · [params | dims | divs
// | 1] / divs[i].Den) only refers to the columns before it. The domain
// space is a set space (the function's input tuple) or a parameter space
// (a function of the parameters only, as returned by the lexicographic
// optimum of a set). Den is positive; when Num is a multiple of Den on the
// points of interest the floor is exact, as for every Aff the
// lexicographic optimiser produces.
type Aff struct {
	space Space
	divs  []Div
	num   []Int
	den   Int
}

// NewAff returns the function floor(num · [params | dims | divs | 1] / den)
// on domain space, where divs are floor divisions listed in order (each
// Num of full width, zero on its own and later columns). It returns an
// error if widths do not match or a denominator is not positive.
func NewAff(space Space, divs []Div, num []Int, den Int) (*Aff, error) {
	nd := affDims(space)
	w := nd + len(divs) + 1
	if len(num) != w {
		return nil, fmt.Errorf("presburger: affine numerator has %d columns, want %d", len(num), w)
	}
	if den.Sign() <= 0 {
		return nil, fmt.Errorf("presburger: affine denominator %v is not positive", den)
	}
	a := &Aff{space: space.Copy(), num: copyRow(num), den: den}
	for i, d := range divs {
		if len(d.Num) != w || d.Den.Sign() <= 0 {
			return nil, fmt.Errorf("presburger: malformed division %d of an affine function", i)
		}
		for j := nd + i; j < w-1; j++ {
			if !d.Num[j].IsZero() {
				return nil, fmt.Errorf("presburger: division %d refers to a later division", i)
			}
		}
		a.divs = append(a.divs, Div{Num: copyRow(d.Num), Den: d.Den})
	}
	return a, nil
}

// affDims returns the number of parameter and dimension columns of a domain space.
func affDims(s Space) int { return s.NumParams() + s.NumIn() + s.NumOut() }

// Space returns the domain space of a.
func (a *Aff) Space() Space { return a.space.Copy() }

// Divs returns the divisions of a (copies).
func (a *Aff) Divs() []Div {
	out := make([]Div, len(a.divs))
	for i, d := range a.divs {
		out[i] = Div{Num: copyRow(d.Num), Den: d.Den}
	}
	return out
}

// Num returns the numerator row of a over [params | dims | divs | 1].
func (a *Aff) Num() []Int { return copyRow(a.num) }

// Den returns the positive denominator of a.
func (a *Aff) Den() Int { return a.den }

// Eval returns f(x) at the integer point x = [params | dims] of the domain
// space.
func (a *Aff) Eval(x []Int) (Int, error) {
	nd := affDims(a.space)
	if len(x) != nd {
		return Int{}, fmt.Errorf("presburger: point has %d coordinates, want %d", len(x), nd)
	}
	v := make([]Int, nd+len(a.divs)+1)
	copy(v, x)
	v[len(v)-1] = NewInt(1)
	for i, d := range a.divs {
		v[nd+i] = affDot(d.Num, v).FloorDiv(d.Den)
	}
	return affDot(a.num, v).FloorDiv(a.den), nil
}

func affDot(r, v []Int) Int {
	s := Int{}
	for i, c := range r {
		if !c.IsZero() && !v[i].IsZero() {
			s = s.Add(c.Mul(v[i]))
		}
	}
	return s
}

// affNames returns printable names for the parameter and dimension columns
// of a domain space: the declared names, or generated ones when a name is
// empty or repeated.
func affNames(s Space) []string {
	names := append([]string(nil), s.Params...)
	var dims []string
	if s.In != nil {
		dims = append(dims, s.In.DimNames()...)
	}
	if !s.ParamOnly {
		dims = append(dims, s.Out.DimNames()...)
	}
	used := map[string]bool{}
	for _, n := range names {
		used[n] = true
	}
	for i, n := range dims {
		if n == "" || used[n] {
			for k := i; ; k++ {
				c := fmt.Sprintf("i%d", k)
				if !used[c] {
					n = c
					break
				}
			}
		}
		used[n] = true
		names = append(names, n)
	}
	return names
}

// affTermString prints the affine row r over columns named by names (with
// the constant last) in isl style, e.g. "2i - N + 1"; "0" when r is zero.
func affTermString(r []Int, names []string) string {
	var b strings.Builder
	first := true
	for i, c := range r {
		if c.IsZero() {
			continue
		}
		isConst := i == len(r)-1
		abs := c.Abs()
		switch {
		case first && c.Sign() < 0:
			b.WriteString("-")
		case !first && c.Sign() < 0:
			b.WriteString(" - ")
		case !first:
			b.WriteString(" + ")
		}
		first = false
		if isConst {
			b.WriteString(abs.String())
			continue
		}
		if !abs.IsOne() {
			b.WriteString(abs.String())
			b.WriteString("*")
		}
		b.WriteString(names[i])
	}
	if first {
		return "0"
	}
	return b.String()
}

// affDivNames extends names with the printed form of each division.
func affDivNames(names []string, divs []Div) []string {
	out := append([]string(nil), names...)
	for _, d := range divs {
		cols := make([]string, len(d.Num))
		copy(cols, out)
		out = append(out, fmt.Sprintf("floor((%s)/%s)", affTermString(d.Num, cols), d.Den))
	}
	return out
}

// exprString prints f in isl notation over the given column names.
func (a *Aff) exprString(names []string) string {
	cols := make([]string, len(a.num))
	copy(cols, affDivNames(names, a.divs))
	body := affTermString(a.num, cols)
	if a.den.IsOne() {
		return body
	}
	return fmt.Sprintf("floor((%s)/%s)", body, a.den)
}

// String returns a in isl notation, e.g. "[N] -> { [i] -> [(N - i)] }".
func (a *Aff) String() string {
	names := affNames(a.space)
	return affFunctionString(a.space, names, FlatTuple("", ""), []string{"(" + a.exprString(names) + ")"}, "")
}

// affFunctionString prints "[params] -> { in -> out[exprs] : cond }".
func affFunctionString(dom Space, names []string, out Tuple, exprs []string, cond string) string {
	var b strings.Builder
	if len(dom.Params) > 0 {
		b.WriteString("[" + strings.Join(dom.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	b.WriteString(affPieceString(dom, names, out, exprs, cond))
	b.WriteString(" }")
	return b.String()
}

// affPieceString prints one piece "in -> out[exprs] : cond" (without braces).
func affPieceString(dom Space, names []string, out Tuple, exprs []string, cond string) string {
	var b strings.Builder
	if !dom.ParamOnly {
		b.WriteString(tupleString(dom.Out, names[len(dom.Params):]))
		b.WriteString(" -> ")
	}
	b.WriteString(tupleString(out, exprs))
	if cond != "" {
		b.WriteString(" : " + cond)
	}
	return b.String()
}

// MultiAff is a tuple of Affs on one domain space (isl's multi_aff): the
// function x -> out[f_1(x), ..., f_n(x)], with out the named output tuple.
type MultiAff struct {
	space Space // domain space
	out   Tuple
	affs  []*Aff
}

// NewMultiAff returns x -> out[affs...]; every Aff must live on space and
// out must have len(affs) dimensions.
func NewMultiAff(space Space, out Tuple, affs []*Aff) (*MultiAff, error) {
	if out.Dim() != len(affs) {
		return nil, fmt.Errorf("presburger: output tuple has %d dimensions for %d functions", out.Dim(), len(affs))
	}
	for i, a := range affs {
		if a.space.Key() != space.Key() || !sameStrings(a.space.Params, space.Params) {
			return nil, fmt.Errorf("presburger: function %d lives in %v, not %v", i, a.space, space)
		}
	}
	return &MultiAff{space: space.Copy(), out: out.Copy(), affs: append([]*Aff(nil), affs...)}, nil
}

// Space returns the domain space of m.
func (m *MultiAff) Space() Space { return m.space.Copy() }

// Out returns the output tuple of m.
func (m *MultiAff) Out() Tuple { return m.out.Copy() }

// Affs returns the component functions of m.
func (m *MultiAff) Affs() []*Aff { return append([]*Aff(nil), m.affs...) }

// Eval returns m(x) at the integer point x = [params | dims].
func (m *MultiAff) Eval(x []Int) ([]Int, error) {
	out := make([]Int, len(m.affs))
	for i, a := range m.affs {
		v, err := a.Eval(x)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (m *MultiAff) exprsString(names []string) []string {
	parts := make([]string, len(m.affs))
	for i, a := range m.affs {
		parts[i] = "(" + a.exprString(names) + ")"
	}
	return parts
}

// String returns m in isl notation, e.g. "{ A[i] -> B[(i + 1), (0)] }".
func (m *MultiAff) String() string {
	names := affNames(m.space)
	return affFunctionString(m.space, names, m.out, m.exprsString(names), "")
}

// affExprIntoBasic returns a row over the columns of b whose value is f at
// every point of b, where the domain columns [params | dims] of f's space
// are the columns dimCols of b (params first). Divisions of f, and the
// final floor when Den > 1, are added to b as new division locals.
func affExprIntoBasic(b *BasicMap, a *Aff, dimCols []int) []Int {
	// cols maps each column of a's layout (except the constant) to b's.
	cols := append([]int(nil), dimCols...)
	conv := func(r []Int) []Int {
		out := make([]Int, b.NumCols())
		for i, c := range r[:len(r)-1] {
			if i < len(cols) && !c.IsZero() {
				out[cols[i]] = out[cols[i]].Add(c)
			}
		}
		out[len(out)-1] = r[len(r)-1]
		return out
	}
	for _, d := range a.divs {
		idx := affLocalDiv(b, conv(d.Num), d.Den)
		cols = append(cols, b.NumCols()-1-b.NumLocals()+idx)
	}
	row := conv(a.num)
	if a.den.IsOne() {
		return row
	}
	idx := affLocalDiv(b, row, a.den)
	out := make([]Int, b.NumCols())
	out[b.NumCols()-1-b.NumLocals()+idx] = NewInt(1)
	return out
}

// affLocalDiv returns the index of a division local of b equal to
// floor(num / den), adding it if b has none.
func affLocalDiv(b *BasicMap, num []Int, den Int) int {
	w := b.NumCols()
	for i := 0; i < b.NumLocals(); i++ {
		n, d := b.Local(i)
		if d.IsZero() || !d.Equal(den) {
			continue
		}
		same := true
		for j := 0; j < w && same; j++ {
			same = n[j].Equal(num[j])
		}
		if same {
			return i
		}
	}
	return b.AddLocalDiv(num, den)
}
