package atl

import (
	"fmt"
	"strings"
)

// The lowering follows Liu et al. 2024, Fig. 3: L e o a θ c
// writes e into the buffer o with the store mode a (= or +=) at the
// index θ gives, a reindexer composed along the way (Fig. 2). Only Gen,
// Sum, Guard, let and scalars emit code; reshapes compose reindexers.
// Every allocation (the result's included) is zero-filled first, as
// ATL's calloc, and every store is annotated with the specification
// value it writes.

// ixd is one (index, dimension) pair of a reindexer's list.
type ixd struct{ i, d *aff }

// reindexer maps the index list of a subexpression to the buffer's.
type reindexer func([]ixd) []ixd

func identity(l []ixd) []ixd { return l }

// buffer is a destination: a kernel array and the specification tensor
// it holds.
type buffer struct {
	array string
	spec  *tref
}

type lowerer struct {
	g     *specGen
	nm    *namer
	b     strings.Builder
	depth int
	opts  Options
	// shapes gives every array's logical shape; with Options.Flat the
	// arrays are one-dimensional, indexed by the row-major offset.
	shapes map[string][]*aff
}

// declare records an array's shape and returns its extents as text.
func (lw *lowerer) declare(array string, shape []*aff) string {
	lw.shapes[array] = shape
	if lw.opts.Flat {
		return formatShape([]*aff{flatSize(shape)})
	}
	return formatShape(shape)
}

// flatSize is the number of cells of a shape whose inner dimensions are
// constants (Options.Flat).
func flatSize(shape []*aff) *aff {
	size := constAff(1)
	for _, d := range shape {
		size, _ = size.mul(d)
	}
	return size
}

// flatIndex is ATL's flatten_index: the row-major offset of idx.
func flatIndex(shape, idx []*aff) *aff {
	off := constAff(0)
	for i, x := range idx {
		off, _ = off.mul(shape[i])
		off = off.add(x)
	}
	return off
}

func (lw *lowerer) line(format string, args ...any) {
	lw.b.WriteString(strings.Repeat("  ", lw.depth))
	fmt.Fprintf(&lw.b, format, args...)
	lw.b.WriteString("\n")
}

func (lw *lowerer) open(format string, args ...any) {
	lw.line(format+" {", args...)
	lw.depth++
}

func (lw *lowerer) close() {
	lw.depth--
	lw.line("}")
}

func (lw *lowerer) loop(v string, lo, hi *aff) {
	if c, ok := lo.isConst(); ok && c == 0 {
		lw.open("for %s < %s", v, hi)
		return
	}
	lw.open("for %s in %s .. %s", v, lo, hi)
}

// zeroFill writes 0 into every cell of an array of the given shape.
func (lw *lowerer) zeroFill(array string, shape []*aff) {
	if lw.opts.NoZeroFill {
		return
	}
	if lw.opts.Flat {
		shape = []*aff{flatSize(shape)}
	}
	var idx []string
	for i := range shape {
		idx = append(idx, lw.nm.fresh(fmt.Sprintf("z%d", i)))
	}
	for i, d := range shape {
		lw.loop(idx[i], constAff(0), d)
	}
	lw.line("%s[%s] {0} := 0", array, strings.Join(idx, ", ")) // not lw.array: already flat
	for range shape {
		lw.close()
	}
	for _, v := range idx {
		delete(lw.nm.used, v) // loop variables are scoped: reuse them
	}
}

// sumFrame is an enclosing Sum between the buffer's root and a store.
type sumFrame struct {
	rec string // the recurrence's name
	v   string // its index variable
}

// lower emits L n o a θ; sums are the Sums entered since o's root.
func (lw *lowerer) lower(n *node, o *buffer, reduce bool, th reindexer, sums []sumFrame) error {
	switch n.kind {
	case kScalar:
		return lw.store(n, o, reduce, th, sums)
	case kGen:
		lw.loop(n.v, n.lo, n.hi)
		v, lo, hi := n.v, n.lo, n.hi
		err := lw.lower(n.kids[0], o, reduce, func(l []ixd) []ixd {
			return th(append([]ixd{{nameAff(v).sub(lo), hi.sub(lo)}}, l...))
		}, sums)
		lw.close()
		return err
	case kSum:
		r, ok := lw.g.sums[n]
		if !ok {
			return fmt.Errorf("%s: sum without a recurrence", n.pos)
		}
		lw.loop(n.v, n.lo, n.hi)
		err := lw.lower(n.kids[0], o, true, th, append(append([]sumFrame(nil), sums...), sumFrame{r.name, n.v}))
		lw.close()
		return err
	case kGuard:
		lw.open("if %s", n.cond)
		err := lw.lower(n.kids[0], o, reduce, th, sums)
		lw.close()
		return err
	case kLet, kGenRec:
		t, ok := lw.g.tensors[n]
		if !ok {
			return fmt.Errorf("%s: let without a tensor", n.pos)
		}
		x := &buffer{array: n.v, spec: t}
		lw.open("alloc %s : f32%s", n.v, lw.declare(n.v, n.kids[0].shape))
		lw.zeroFill(n.v, n.kids[0].shape)
		if err := lw.lower(n.kids[0], x, false, identity, nil); err != nil {
			return err
		}
		err := lw.lower(n.kids[1], o, reduce, th, sums)
		lw.close()
		return err
	case kWide:
		return lw.wide(n, o, reduce, th, sums)
	case kConcat:
		n1, n2 := n.kids[0].shape[0], n.kids[1].shape[0]
		if err := lw.lower(n.kids[0], o, reduce, compose(th, padr(n2)), sums); err != nil {
			return err
		}
		return lw.lower(n.kids[1], o, reduce, compose(th, padl(n1)), sums)
	case kFlatten:
		return lw.lower(n.kids[0], o, reduce, compose(th, lw.flatten()), sums)
	case kSplit:
		k, _ := n.k.isConst()
		return lw.lower(n.kids[0], o, reduce, compose(th, split(k)), sums)
	case kTranspose:
		return lw.lower(n.kids[0], o, reduce, compose(th, transpose), sums)
	case kTruncl:
		return lw.lower(n.kids[0], o, reduce, compose(th, truncl(n.k)), sums)
	case kTruncr:
		return lw.lower(n.kids[0], o, reduce, compose(th, truncr(n.k)), sums)
	case kPadl:
		return lw.lower(n.kids[0], o, reduce, compose(th, padl(n.k)), sums)
	case kPadr:
		return lw.lower(n.kids[0], o, reduce, compose(th, padr(n.k)), sums)
	}
	return fmt.Errorf("%s: cannot lower %s", n.pos, n.kind)
}

// wide lowers a wide binding: the lanes' buffers, one fused loop
// storing every lane, then the body.
func (lw *lowerer) wide(n *node, o *buffer, reduce bool, th reindexer, sums []sumFrame) error {
	for i, l := range n.lanes {
		ln := n.kids[i]
		lw.open("alloc %s : f32%s", l.name, lw.declare(l.name, ln.shape))
		lw.zeroFill(l.name, ln.shape)
	}
	lw.loop(n.v, n.lo, n.hi)
	for i, l := range n.lanes {
		ln := n.kids[i]
		t, ok := lw.g.tensors[ln]
		if !ok {
			return fmt.Errorf("%s: lane %s without a tensor", l.pos, l.name)
		}
		x := &buffer{array: l.name, spec: t}
		var err error
		if l.reduce {
			r := lw.g.sums[ln]
			err = lw.lower(ln.kids[0], x, true, identity, []sumFrame{{r.name, n.v}})
		} else {
			v, lo, hi := n.v, n.lo, n.hi
			err = lw.lower(ln.kids[0], x, false, func(l []ixd) []ixd {
				return append([]ixd{{nameAff(v).sub(lo), hi.sub(lo)}}, l...)
			}, nil)
		}
		if err != nil {
			return err
		}
	}
	lw.close()
	err := lw.lower(n.kids[len(n.lanes)], o, reduce, th, sums)
	for range n.lanes {
		lw.close()
	}
	return err
}

// store emits the leaf o[θ([])] a s with its annotation.
func (lw *lowerer) store(n *node, o *buffer, reduce bool, th reindexer, sums []sumFrame) error {
	cell := th(nil)
	idx := make([]*aff, len(cell))
	for i, c := range cell {
		idx[i] = c.i
	}
	val, err := lw.scalar(n.s)
	if err != nil {
		return err
	}
	target := lw.array(o.array, idx)
	base := append(append([]*aff(nil), o.spec.pre...), idx...)
	ann := call(o.spec.name, base)
	if len(sums) > 0 {
		// One term per recurrence (directly nested Sums share one): the
		// completed steps of the outer ones, the current of the last.
		var terms []string
		args := base
		for j := 0; j < len(sums); {
			g := j
			for g < len(sums) && sums[g].rec == sums[j].rec {
				g++
			}
			own := append([]*aff(nil), args...)
			for _, s := range sums[j:g] {
				own = append(own, nameAff(s.v))
				args = append(args, nameAff(s.v))
			}
			if g < len(sums) {
				own[len(own)-1] = own[len(own)-1].addConst(-1)
			}
			terms = append(terms, call(sums[j].rec, own))
			j = g
		}
		ann = strings.Join(terms, " + ")
	}
	if reduce {
		val = target + " + " + paren(val)
	}
	lw.line("%s {%s} := %s", target, ann, val)
	return nil
}

func (lw *lowerer) array(name string, idx []*aff) string {
	if lw.opts.Flat {
		idx = []*aff{flatIndex(lw.shapes[name], idx)}
	}
	parts := make([]string, len(idx))
	for i, a := range idx {
		parts[i] = a.String()
	}
	return name + "[" + strings.Join(parts, ", ") + "]"
}

// scalar translates a scalar expression to a kernel value expression.
func (lw *lowerer) scalar(s *sx) (string, error) {
	return formatSx(s, func(s *sx) (string, error) {
		switch s.op {
		case 'n':
			return numText(s), nil
		case 'i':
			return "f32(" + s.index.String() + ")", nil
		}
		return lw.array(s.name, s.idx), nil
	})
}

// compose is θ ∘ θ_R: apply the reshape's reindexer, then θ.
func compose(th, r reindexer) reindexer { return func(l []ixd) []ixd { return th(r(l)) } }

// The reindexers of Liu et al. 2024, Fig. 2; a list too short is left unchanged.

func (lw *lowerer) flatten() reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 2 {
			return l
		}
		d2, ok := l[1].d.isConst()
		if !ok {
			return l // the checker requires a constant inner dimension
		}
		i := l[0].i.scale(d2).add(l[1].i)
		if lw.opts.PrintedFlatten {
			i = l[0].i.scale(d2).add(l[0].i) // Fig. 2 as printed: i1*dim2 + i1
		}
		d, _ := l[0].d.mul(l[1].d)
		return append([]ixd{{i, d}}, l[2:]...)
	}
}

func split(k int64) reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 1 {
			return l
		}
		return append([]ixd{{l[0].i.div(k), l[0].d.ceilDiv(k)}, {l[0].i.mod(k), constAff(k)}}, l[1:]...)
	}
}

func transpose(l []ixd) []ixd {
	if len(l) < 2 {
		return l
	}
	return append([]ixd{l[1], l[0]}, l[2:]...)
}

func truncl(k *aff) reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 1 {
			return l
		}
		return append([]ixd{{l[0].i.sub(k), l[0].d.sub(k)}}, l[1:]...)
	}
}

func truncr(k *aff) reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 1 {
			return l
		}
		return append([]ixd{{l[0].i, l[0].d.sub(k)}}, l[1:]...)
	}
}

func padl(k *aff) reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 1 {
			return l
		}
		return append([]ixd{{l[0].i.add(k), l[0].d.add(k)}}, l[1:]...)
	}
}

func padr(k *aff) reindexer {
	return func(l []ixd) []ixd {
		if len(l) < 1 {
			return l
		}
		return append([]ixd{{l[0].i, l[0].d.add(k)}}, l[1:]...)
	}
}
