package presburger

import (
	"fmt"
	"strings"
)

// Tuple is a named tuple of integer dimensions. A flat tuple has Dims (the
// names of its dimensions, "" when unnamed); a nested tuple, isl's wrapped
// relation [L -> R], has Left and Right set and no Dims. The name is
// optional ("" for an anonymous tuple).
type Tuple struct {
	Name        string
	Dims        []string
	Left, Right *Tuple
}

// FlatTuple returns the flat tuple name[dims...].
func FlatTuple(name string, dims ...string) Tuple {
	return Tuple{Name: name, Dims: append([]string(nil), dims...)}
}

// NestedTuple returns the wrapped tuple name[l -> r].
func NestedTuple(name string, l, r Tuple) Tuple {
	lc, rc := l.Copy(), r.Copy()
	return Tuple{Name: name, Left: &lc, Right: &rc}
}

// IsNested reports whether t is a wrapped pair [L -> R].
func (t Tuple) IsNested() bool { return t.Left != nil }

// Dim returns the number of integer dimensions of t (for a nested tuple, the
// sum over both sides).
func (t Tuple) Dim() int {
	if t.Left != nil {
		return t.Left.Dim() + t.Right.Dim()
	}
	return len(t.Dims)
}

// DimNames returns the names of all dimensions of t, left to right.
func (t Tuple) DimNames() []string {
	if t.Left != nil {
		return append(t.Left.DimNames(), t.Right.DimNames()...)
	}
	return append([]string(nil), t.Dims...)
}

// Copy returns a deep copy of t.
func (t Tuple) Copy() Tuple {
	c := Tuple{Name: t.Name, Dims: append([]string(nil), t.Dims...)}
	if t.Left != nil {
		l, r := t.Left.Copy(), t.Right.Copy()
		c.Left, c.Right = &l, &r
	}
	return c
}

// SameShape reports whether t and u have the same structure: same names and
// arities at every node. Dimension names are ignored.
func (t Tuple) SameShape(u Tuple) bool {
	if t.Name != u.Name || (t.Left == nil) != (u.Left == nil) {
		return false
	}
	if t.Left != nil {
		return t.Left.SameShape(*u.Left) && t.Right.SameShape(*u.Right)
	}
	return len(t.Dims) == len(u.Dims)
}

// shapeKey describes the shape of t (names and arities), ignoring dimension names.
func (t Tuple) shapeKey(b *strings.Builder) {
	b.WriteString(t.Name)
	b.WriteByte('[')
	if t.Left != nil {
		t.Left.shapeKey(b)
		b.WriteString("->")
		t.Right.shapeKey(b)
	} else {
		fmt.Fprintf(b, "%d", len(t.Dims))
	}
	b.WriteByte(']')
}

// Space describes where a set or relation lives: the parameters (by name),
// and the input and output tuples. A set has In == nil. A parameter domain
// (isl's "{ : constraints }") is a set space with ParamOnly set and an empty
// Out tuple. Columns of every constraint row are ordered: parameters, input
// dimensions, output dimensions, local variables, constant.
type Space struct {
	Params    []string
	In        *Tuple
	Out       Tuple
	ParamOnly bool
}

// SetSpace returns the space of sets of tuples t with the given parameters.
func SetSpace(params []string, t Tuple) Space {
	return Space{Params: append([]string(nil), params...), Out: t.Copy()}
}

// MapSpace returns the space of relations in -> out with the given parameters.
func MapSpace(params []string, in, out Tuple) Space {
	ic := in.Copy()
	return Space{Params: append([]string(nil), params...), In: &ic, Out: out.Copy()}
}

// ParamSpace returns the space of parameter domains over params.
func ParamSpace(params []string) Space {
	return Space{Params: append([]string(nil), params...), ParamOnly: true}
}

// IsSet reports whether s is a set space (no input tuple).
func (s Space) IsSet() bool { return s.In == nil }

// IsParams reports whether s is a parameter domain space.
func (s Space) IsParams() bool { return s.ParamOnly }

// NumParams returns the number of parameters.
func (s Space) NumParams() int { return len(s.Params) }

// NumIn returns the number of input dimensions (0 for a set).
func (s Space) NumIn() int {
	if s.In == nil {
		return 0
	}
	return s.In.Dim()
}

// NumOut returns the number of output (set) dimensions.
func (s Space) NumOut() int { return s.Out.Dim() }

// NumDims returns NumParams + NumIn + NumOut.
func (s Space) NumDims() int { return s.NumParams() + s.NumIn() + s.NumOut() }

// Copy returns a deep copy of s.
func (s Space) Copy() Space {
	c := Space{Params: append([]string(nil), s.Params...), Out: s.Out.Copy(), ParamOnly: s.ParamOnly}
	if s.In != nil {
		ic := s.In.Copy()
		c.In = &ic
	}
	return c
}

// Key returns a string identifying the shape of s (tuple names, nesting and
// arities, and whether it is a set, map or parameter space), ignoring
// parameters and dimension names. Objects with equal keys can be combined
// after parameter alignment.
func (s Space) Key() string {
	var b strings.Builder
	switch {
	case s.ParamOnly:
		b.WriteString("params")
		return b.String()
	case s.In != nil:
		s.In.shapeKey(&b)
		b.WriteString("->")
	}
	s.Out.shapeKey(&b)
	return b.String()
}

// SameTuples reports whether s and t have the same tuple shapes (ignoring
// parameters and dimension names).
func (s Space) SameTuples(t Space) bool { return s.Key() == t.Key() }

// Domain returns the space of the domain of a relation space (the set
// space of In). For a set space it returns the parameter space.
func (s Space) Domain() Space {
	if s.In == nil {
		return ParamSpace(s.Params)
	}
	return SetSpace(s.Params, *s.In)
}

// Range returns the space of the range of a relation space (the set space
// of Out). For a set space it returns s itself.
func (s Space) Range() Space { return SetSpace(s.Params, s.Out) }

// Reverse returns the space Out -> In of a relation space In -> Out.
func (s Space) Reverse() Space {
	if s.In == nil {
		return s.Copy()
	}
	return MapSpace(s.Params, s.Out, *s.In)
}

// Wrap returns the set space [In -> Out] of a relation space.
func (s Space) Wrap() Space {
	if s.In == nil {
		return s.Copy()
	}
	return SetSpace(s.Params, NestedTuple("", *s.In, s.Out))
}

// Unwrap returns the relation space L -> R of a set space [L -> R] and
// whether s has that shape.
func (s Space) Unwrap() (Space, bool) {
	if s.In != nil || !s.Out.IsNested() {
		return Space{}, false
	}
	return MapSpace(s.Params, *s.Out.Left, *s.Out.Right), true
}

// paramIndex returns the column of parameter name, or -1.
func (s Space) paramIndex(name string) int {
	for i, p := range s.Params {
		if p == name {
			return i
		}
	}
	return -1
}

// String returns the space in isl notation, e.g. "[N] -> { A[i] -> B[j] }".
func (s Space) String() string {
	var b strings.Builder
	if len(s.Params) > 0 {
		b.WriteString("[" + strings.Join(s.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	if !s.ParamOnly {
		if s.In != nil {
			b.WriteString(tupleString(*s.In, s.In.DimNames()))
			b.WriteString(" -> ")
		}
		b.WriteString(tupleString(s.Out, s.Out.DimNames()))
		b.WriteString(" ")
	}
	b.WriteString("}")
	return b.String()
}

// tupleString prints the tuple t with its dimensions named, left to
// right, by names, which may be expressions (nested tuples keep their
// structure: "[a[(0)] -> E[(i)]]"); dimensions past the end of names are
// left blank.
func tupleString(t Tuple, names []string) string {
	var b strings.Builder
	var rec func(t Tuple)
	k := 0
	rec = func(t Tuple) {
		b.WriteString(t.Name)
		b.WriteByte('[')
		if t.Left != nil {
			rec(*t.Left)
			b.WriteString(" -> ")
			rec(*t.Right)
		} else {
			for i := range t.Dims {
				if i > 0 {
					b.WriteString(", ")
				}
				if k < len(names) {
					b.WriteString(names[k])
				}
				k++
			}
		}
		b.WriteByte(']')
	}
	rec(t)
	return b.String()
}

// alignParamNames returns the union of two parameter lists: a's parameters
// in order, followed by b's parameters not in a.
func alignParamNames(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, p := range b {
		found := false
		for _, q := range a {
			if p == q {
				found = true
				break
			}
		}
		if !found {
			out = append(out, p)
		}
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
