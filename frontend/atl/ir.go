package atl

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// kind is the kind of a checked node.
type kind int

const (
	kGen kind = iota
	kSum
	kGuard
	kLet
	kConcat
	kFlatten
	kSplit
	kTranspose
	kTruncl
	kTruncr
	kPadl
	kPadr
	kScalar
	kWide
	kGenRec
)

var kindNames = [...]string{"gen", "sum", "guard", "let", "++", "flatten", "split",
	"transpose", "truncl", "truncr", "padl", "padr", "scalar", "wide", "genrec"}

func (k kind) String() string { return kindNames[k] }

// node is a checked expression: names resolved, index expressions in
// canonical form, shape computed.
//
//   - kGen, kSum: v in [lo, hi), kids[0] the body.
//   - kGuard: cond, kids[0].
//   - kLet: v := kids[0] in kids[1].
//   - kConcat: kids[0] ++ kids[1].
//   - kFlatten, kTranspose: kids[0]; kSplit, kTrunc*, kPad*: k, kids[0].
//   - kScalar: s.
//   - kWide: lanes[i] := kids[i] (a kGen or kSum node over v in [lo, hi))
//     in kids[len(lanes)].
//   - kGenRec: v := kids[0] (a kGen node whose body may read v) in
//     kids[1].
type node struct {
	kind   kind
	pos    syntax.Pos
	v      string
	lo, hi *aff
	k      *aff
	cond   *cnd
	kids   []*node
	lanes  []*lane
	s      *sx
	shape  []*aff
}

type lane struct {
	name   string
	reduce bool
	pos    syntax.Pos
}

// sx is a checked scalar expression: op 'n' a number, 'g' an element
// of tensor name at idx (idx empty for a scalar), 'i' an index value,
// '~' negation, or one of + - * /.
type sx struct {
	op    byte
	pos   syntax.Pos
	val   float64
	text  string
	name  string
	idx   []*aff
	index *aff
	x, y  *sx
}

// cnd is a checked condition: a comparison of two affs, "and", "or",
// "not", "true" or "false".
type cnd struct {
	op   string
	x, y *aff
	a, b *cnd
}

func (c *cnd) subst(m map[string]*aff) *cnd {
	if c == nil {
		return nil
	}
	out := &cnd{op: c.op}
	if c.x != nil {
		out.x, out.y = c.x.subst(m), c.y.subst(m)
	}
	out.a, out.b = c.a.subst(m), c.b.subst(m)
	return out
}

func (c *cnd) eval(env map[string]int64) (bool, error) {
	switch c.op {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "not":
		v, err := c.a.eval(env)
		return !v, err
	case "and", "or":
		a, err := c.a.eval(env)
		if err != nil {
			return false, err
		}
		b, err := c.b.eval(env)
		if c.op == "and" {
			return a && b, err
		}
		return a || b, err
	}
	x, err := c.x.eval(env)
	if err != nil {
		return false, err
	}
	y, err := c.y.eval(env)
	if err != nil {
		return false, err
	}
	switch c.op {
	case "==":
		return x == y, nil
	case "!=":
		return x != y, nil
	case "<":
		return x < y, nil
	case "<=":
		return x <= y, nil
	case ">":
		return x > y, nil
	}
	return x >= y, nil
}

func (c *cnd) names(set map[string]bool) {
	if c == nil {
		return
	}
	if c.x != nil {
		c.x.names(set)
		c.y.names(set)
	}
	c.a.names(set)
	c.b.names(set)
}

func (c *cnd) String() string {
	switch c.op {
	case "true", "false":
		return c.op
	case "not":
		return "not (" + c.a.String() + ")"
	case "and", "or":
		return c.a.operand(c.op) + " " + c.op + " " + c.b.operand(c.op)
	}
	return c.x.String() + " " + c.op + " " + c.y.String()
}

// operand formats c as an operand of the connective op, in parentheses
// unless it is a comparison or the same connective.
func (c *cnd) operand(op string) string {
	if c.x != nil || c.op == op || c.op == "true" || c.op == "false" {
		return c.String()
	}
	return "(" + c.String() + ")"
}

func cmpC(op string, x, y *aff) *cnd { return &cnd{op: op, x: x, y: y} }

func andC(cs ...*cnd) *cnd {
	var out *cnd
	for _, c := range cs {
		switch {
		case c == nil || c.op == "true":
		case out == nil:
			out = c
		default:
			out = &cnd{op: "and", a: out, b: c}
		}
	}
	if out == nil {
		return &cnd{op: "true"}
	}
	return out
}

func notC(c *cnd) *cnd { return &cnd{op: "not", a: c} }

// conjuncts flattens nested "and"s.
func (c *cnd) conjuncts() []*cnd {
	if c == nil || c.op == "true" {
		return nil
	}
	if c.op == "and" {
		return append(c.a.conjuncts(), c.b.conjuncts()...)
	}
	return []*cnd{c}
}

// formatShape renders a shape as [d1, d2].
func formatShape(sh []*aff) string {
	parts := make([]string, len(sh))
	for i, d := range sh {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (n *node) String() string { return fmt.Sprintf("%s%s", n.kind, formatShape(n.shape)) }
