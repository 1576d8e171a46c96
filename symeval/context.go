package symeval

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// This file implements expression contexts (Clément 2022, section 5.2): a
// value expression with its index-language parts taken out into numbered
// holes, such as A(□1, □2) * B(□2, □3). A symbolic value pairs a context
// with a tuple of quasi-affine expressions filling its holes; in a
// presburger object, the context is the tuple's name and the hole values
// are the tuple's coordinates.

// holePrefix starts the name of a hole identifier in a context's template.
const holePrefix = "□"

// HoleName returns the name of hole k (1-based) as printed in contexts.
func HoleName(k int) string { return holePrefix + strconv.Itoa(k) }

// holeIndex returns k for the name of hole k.
func holeIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, holePrefix)
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil && k >= 1
}

// Context is an expression context: a value expression without free
// variables whose index-language subexpressions are holes □1 ... □n.
// Contexts are interned by a Contexts table: two equal contexts (same
// expression, same types) are the same *Context with the same Name.
type Context struct {
	// Name is the tuple name that stands for the context in presburger
	// objects ("E0", "E1", ...).
	Name string
	// Expr is the template: a value expression in which hole k is the
	// identifier □k (HoleName(k)).
	Expr syntax.Expr
	// Type is the type of the expression.
	Type syntax.Type
	// Holes is the number of holes.
	Holes int

	info *expr.Info // the types of Expr's value nodes
	key  string
}

// String returns the template, e.g. "A(□1, □2) * B(□2, □3)".
func (c *Context) String() string { return syntax.ExprString(c.Expr) }

// Types returns the types of the template's value nodes (nodes absent
// from the map are index-language nodes: holes and index constraints).
// The map must not be modified.
func (c *Context) Types() map[syntax.Expr]syntax.Type { return c.info.Types }

// Fill returns the expression obtained by replacing hole k by the integer
// vals[k-1], e.g. A(0, 2) * B(2, 1). An index expression of holes (a
// clamp kept in the template, max(min(□1, □2), □3)) becomes its value.
func (c *Context) Fill(vals []int64) (syntax.Expr, error) {
	if len(vals) != c.Holes {
		return nil, fmt.Errorf("context %s has %d holes, given %d values", c, c.Holes, len(vals))
	}
	env := holeEnv{vals: vals}
	return rebuild(c.Expr, func(e syntax.Expr) (syntax.Expr, bool) {
		switch x := e.(type) {
		case *syntax.Ident:
			if _, ok := holeIndex(x.Name); !ok {
				return nil, false
			}
		case *syntax.Unary, *syntax.Binary, *syntax.Call:
			if _, typed := c.info.Types[e]; typed || isConstraintNode(e) {
				return nil, false
			}
		default:
			return nil, false
		}
		v, err := expr.EvalIndex(e, env)
		if err != nil {
			return nil, false
		}
		return intLit(v), true
	}, nil), nil
}

// intLit returns the index expression of the integer v: a literal, negated
// when v is negative.
func intLit(v int64) syntax.Expr {
	if v < 0 {
		return &syntax.Unary{Op: syntax.OpNeg, X: &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatUint(uint64(-(v+1))+1, 10)}}
	}
	return &syntax.Lit{Kind: syntax.IntLiteral, Text: strconv.FormatInt(v, 10)}
}

// Eval evaluates the context with its holes set to vals, reading tensors
// through env (for instance sare.Evaluator.Env): the value of the symbolic
// value c⟨vals⟩.
func (c *Context) Eval(vals []int64, env expr.Env) (_ value.Value, err error) {
	defer guard(&err, "evaluate context")
	if len(vals) != c.Holes {
		return value.Value{}, fmt.Errorf("context %s has %d holes, given %d values", c, c.Holes, len(vals))
	}
	v, err := expr.EvalValue(c.Expr, c.info, holeEnv{vals: vals, env: env})
	if err != nil {
		return v, fmt.Errorf("evaluate %s at %v: %w", c, vals, err)
	}
	return v, nil
}

// Sub returns the context of x, a value node of c's template, with c's
// holes (those x does not use stay unused): its value at given hole
// values is the value of x within c at those values. Since undefinedness
// propagates through every operation (select included), c is undefined
// wherever Sub(x) is.
func (c *Context) Sub(x syntax.Expr) (*Context, error) {
	t, ok := c.info.Types[x]
	if !ok {
		return nil, fmt.Errorf("%s is not a value node of context %s", syntax.ExprString(x), c)
	}
	return &Context{Name: c.Name + "." + syntax.ExprString(x), Expr: x, Type: t, Holes: c.Holes, info: c.info}, nil
}

// holeEnv binds the holes of a context and delegates tensors to env.
type holeEnv struct {
	vals []int64
	env  expr.Env
}

func (h holeEnv) Index(name string) (int64, bool) {
	if k, ok := holeIndex(name); ok && k <= len(h.vals) {
		return h.vals[k-1], true
	}
	return 0, false
}

func (h holeEnv) Tensor(name string, idx []int64) (value.Value, error) {
	return h.env.Tensor(name, idx)
}

func (h holeEnv) Array(name string, idx []int64) (value.Value, error) {
	return value.Value{}, fmt.Errorf("context reads array %s", name)
}

// substHoles copies x replacing every hole identifier □k by f(k).
func substHoles(x syntax.Expr, f func(k int) syntax.Expr) syntax.Expr {
	return rebuild(x, func(e syntax.Expr) (syntax.Expr, bool) {
		if id, ok := e.(*syntax.Ident); ok {
			if k, ok := holeIndex(id.Name); ok {
				return f(k), true
			}
		}
		return nil, false
	}, nil)
}

// rebuild copies x; repl may replace a node (and its subtree), and types,
// if not nil, is called with every copied node and its original.
func rebuild(x syntax.Expr, repl func(syntax.Expr) (syntax.Expr, bool), types func(orig, copy syntax.Expr)) syntax.Expr {
	if r, ok := repl(x); ok {
		return r
	}
	var out syntax.Expr
	rec := func(e syntax.Expr) syntax.Expr { return rebuild(e, repl, types) }
	recAll := func(es []syntax.Expr) []syntax.Expr {
		o := make([]syntax.Expr, len(es))
		for i, e := range es {
			o[i] = rec(e)
		}
		return o
	}
	switch x := x.(type) {
	case *syntax.Ident:
		c := *x
		out = &c
	case *syntax.Lit:
		c := *x
		out = &c
	case *syntax.Unary:
		out = &syntax.Unary{OpPos: x.OpPos, Op: x.Op, X: rec(x.X)}
	case *syntax.Binary:
		out = &syntax.Binary{X: rec(x.X), Op: x.Op, Y: rec(x.Y)}
	case *syntax.Chain:
		out = &syntax.Chain{Operands: recAll(x.Operands), Ops: append([]syntax.Op(nil), x.Ops...)}
	case *syntax.Call:
		f := *x.Fun
		out = &syntax.Call{Fun: &f, Args: recAll(x.Args)}
	case *syntax.Index:
		a := *x.Array
		out = &syntax.Index{Array: &a, Indices: recAll(x.Indices)}
	default:
		out = x
	}
	if types != nil {
		types(x, out)
	}
	return out
}

// isConstraintNode reports whether an index-language node is a constraint
// (a boolean) rather than an integer expression.
func isConstraintNode(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Lit:
		return x.Kind == syntax.BoolLiteral
	case *syntax.Unary:
		return x.Op == syntax.OpNot
	case *syntax.Binary:
		return x.Op.IsComparison() || x.Op.IsLogical()
	case *syntax.Chain:
		return true
	}
	return false
}

// decomposition is a value expression split into a template with raw
// holes (before fusion) and the index expressions that fill them.
type decomposition struct {
	expr  syntax.Expr
	types map[syntax.Expr]syntax.Type
	holes []syntax.Expr
}

// decompose splits the checked value expression x (info holds its types):
// every maximal integer index-language subexpression becomes a hole.
// Constraint nodes of the index language (comparisons of indices inside a
// value, select conditions) stay in the template; their integer operands
// become holes.
func decompose(x syntax.Expr, info *expr.Info) (*decomposition, error) {
	if _, ok := info.Types[x]; !ok {
		return nil, fmt.Errorf("%s: %s was not type-checked", x.Pos(), syntax.ExprString(x))
	}
	d := &decomposition{types: map[syntax.Expr]syntax.Type{}}
	var walk func(e syntax.Expr) syntax.Expr
	repl := func(e syntax.Expr) (syntax.Expr, bool) {
		if _, typed := info.Types[e]; typed || isConstraintNode(e) {
			return nil, false
		}
		d.holes = append(d.holes, e)
		return &syntax.Ident{Name: HoleName(len(d.holes))}, true
	}
	walk = func(e syntax.Expr) syntax.Expr {
		return rebuild(e, repl, func(orig, cp syntax.Expr) {
			if t, ok := info.Types[orig]; ok {
				d.types[cp] = t
			}
		})
	}
	d.expr = walk(x)
	return d, nil
}

// contextKey identifies a template with its types: the printed template
// followed by the types of its nodes in depth-first order.
func contextKey(x syntax.Expr, types map[syntax.Expr]syntax.Type) string {
	var b strings.Builder
	b.WriteString(syntax.ExprString(x))
	syntax.Inspect(x, func(e syntax.Expr) bool {
		if t, ok := types[e]; ok {
			b.WriteString("|" + t.String())
		} else {
			b.WriteString("|-")
		}
		return true
	})
	return b.String()
}

// Contexts interns expression contexts: equal contexts get the same
// *Context and tuple name. A Contexts is not safe for concurrent use.
type Contexts struct {
	byKey  map[string]*Context
	byName map[string]*Context
	list   []*Context
}

// NewContexts returns an empty table.
func NewContexts() *Contexts {
	return &Contexts{byKey: map[string]*Context{}, byName: map[string]*Context{}}
}

// Lookup returns the context with the given tuple name, or nil.
func (cs *Contexts) Lookup(name string) *Context { return cs.byName[name] }

// All returns the contexts in order of creation.
func (cs *Contexts) All() []*Context { return append([]*Context(nil), cs.list...) }

// intern returns the context of the template x (holes □1..□n) with the
// given node types.
func (cs *Contexts) intern(x syntax.Expr, types map[syntax.Expr]syntax.Type, holes int) *Context {
	key := contextKey(x, types)
	if c, ok := cs.byKey[key]; ok {
		return c
	}
	info := expr.NewInfo()
	info.Types = types
	c := &Context{Name: "E" + strconv.Itoa(len(cs.list)), Expr: x, Type: types[x], Holes: holes, info: info, key: key}
	cs.byKey[key] = c
	cs.byName[c.Name] = c
	cs.list = append(cs.list, c)
	return c
}

// SymbolicValue is a context with the quasi-affine expressions filling
// its holes, such as A(□1, □2) * B(□2, □3)⟨i, k, j⟩.
type SymbolicValue struct {
	Context *Context
	holes   []pwExpr
	srcs    []syntax.Expr // the holes' source expressions, for printing
}

// String prints the symbolic value as context⟨holes⟩.
func (v *SymbolicValue) String() string {
	var b strings.Builder
	b.WriteString(v.Context.String())
	b.WriteString("⟨")
	for i, h := range v.srcs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(syntax.ExprString(h))
	}
	b.WriteString("⟩")
	return b.String()
}

// Decompose decomposes the checked value expression x (info holds its
// types) in scope s (decompose in Clément 2022, section 5.2): every maximal
// index-language subexpression becomes a hole, holes with the same
// quasi-affine value (syntactically, after normalisation) are fused into one,
// and the resulting context is interned in cs.
func (cs *Contexts) Decompose(x syntax.Expr, info *expr.Info, s *Scope) (_ *SymbolicValue, err error) {
	defer guard(&err, "decompose")
	return cs.decomposeWith(x, info, s.translator())
}

func (cs *Contexts) decomposeWith(x syntax.Expr, info *expr.Info, t *translator) (*SymbolicValue, error) {
	d, err := decompose(x, info)
	if err != nil {
		return nil, err
	}
	// Translate and fuse the holes.
	var pws []pwExpr
	var srcs []syntax.Expr
	index := map[string]int{} // pw key -> new hole number
	renum := make([]int, len(d.holes))
	for i, h := range d.holes {
		pw, err := t.index(h)
		if err != nil {
			return nil, err
		}
		k := pw.key()
		if j, ok := index[k]; ok {
			renum[i] = j
			continue
		}
		pws = append(pws, pw)
		srcs = append(srcs, h)
		index[k] = len(pws)
		renum[i] = len(pws)
	}
	types := map[syntax.Expr]syntax.Type{}
	tmpl := rebuild(d.expr, func(e syntax.Expr) (syntax.Expr, bool) {
		if id, ok := e.(*syntax.Ident); ok {
			if k, ok := holeIndex(id.Name); ok {
				return &syntax.Ident{Name: HoleName(renum[k-1])}, true
			}
		}
		return nil, false
	}, func(orig, cp syntax.Expr) {
		if t, ok := d.types[orig]; ok {
			types[cp] = t
		}
	})
	return &SymbolicValue{Context: cs.intern(tmpl, types, len(pws)), holes: pws, srcs: srcs}, nil
}

// tensorValue returns the symbolic value of the tensor access
// name(args) of type t, translated by tr (used for array bindings).
func (cs *Contexts) tensorValue(call *syntax.Call, t syntax.Type, tr *translator) (*SymbolicValue, error) {
	info := expr.NewInfo()
	info.Types = map[syntax.Expr]syntax.Type{call: t}
	return cs.decomposeWith(call, info, tr)
}
