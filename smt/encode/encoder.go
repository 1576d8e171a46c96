package encode

import (
	"errors"
	"fmt"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/smt"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Model selects how floating-point values are encoded; integers are always
// bit-vectors and booleans Z3 booleans.
type Model int

// The float models (see the package documentation).
const (
	Real Model = iota // floats are mathematical reals
	IEEE              // floats are IEEE 754 binary32/binary64, rounded to nearest-even
)

// ParseModel returns the model called s: "real" or "ieee".
func ParseModel(s string) (Model, error) {
	switch strings.ToLower(s) {
	case "real":
		return Real, nil
	case "ieee":
		return IEEE, nil
	}
	return 0, fmt.Errorf("encode: unknown value model %q (want real or ieee)", s)
}

// String is the model's name, as ParseModel reads it.
func (m Model) String() string {
	switch m {
	case Real:
		return "real"
	case IEEE:
		return "ieee"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

// Equality is the model's equality of concrete values, with which a value
// the interpreter computes is compared with the specification's: in the
// real model −0 and +0 are the same number (value.RealEqual), in the ieee
// model two values (value.BitExact).
func (m Model) Equality() value.Equality {
	if m == IEEE {
		return value.BitExact
	}
	return value.RealEqual
}

// Encoder translates the expressions of one specification into terms of one
// smt.Context. It caches the sorts, tensor functions and unfoldings it makes.
// It is not safe for concurrent use (nor is its Context).
type Encoder struct {
	z     *smt.Context
	spec  *sare.Spec
	info  *expr.Info
	model Model

	tru, fls    *smt.Term
	tensors     map[string]*smt.FuncDecl
	funcs       map[string]*smt.FuncDecl // uninterpreted builtins, by name and type
	deps        map[string]map[string]bool
	memo        map[string]memoEntry // unfolded tensor accesses (see access.go)
	axioms      []*smt.Term          // definitions of unfolded accesses (ExprOptions.Axioms)
	cutoffs     int                  // computed accesses left unfolded for lack of depth
	unfolded    int                  // computed accesses unfolded (ExprOptions.Unfoldings)
	done        <-chan struct{}      // see SetDone
	meter       func() error         // see SetMeter
	opaqueFuncs int                  // uses of uninterpreted builtins (sqrt, exp, ...)
	// intReals maps the Real terms of integer-to-float conversions (by
	// term ID) to the integer they convert, so that converting back is
	// a bit-vector resize rather than a trip through Z3's integers.
	intReals map[uint]intReal
	// readings are the kernel's float literals read, in the Real model,
	// as constants derived from the specification's (SetReadings).
	readings *value.Readings
	// seen ranks the operands of commutative operators by when the
	// encoder first met them (see binaryOp), by term ID; each entry keeps
	// its term alive, so that no other term takes the ID over.
	seen map[uint]rankedTerm
	// ranges caches the computed float tensors' ranges (rangefacts.go);
	// facts holds the range facts of the accesses encoded since the last
	// ResetUnfoldings, by the access term's ID, in factOrder; floatInts
	// counts the float-to-integer conversions encoded since then that
	// truncationFits does not decide.
	ranges    map[string]rangeEntry
	facts     map[uint]rangeFactEntry
	factOrder []uint
	floatInts int
}

// rankedTerm is a term and the rank of its first use as an operand.
type rankedTerm struct {
	t    *smt.Term
	rank int
}

// rank returns the rank of t among the operands met since the last
// ResetUnfoldings, giving the next rank to a term met for the first time.
func (e *Encoder) rank(t *smt.Term) int {
	id := t.ID()
	if r, ok := e.seen[id]; ok {
		return r.rank
	}
	r := len(e.seen)
	e.seen[id] = rankedTerm{t, r}
	return r
}

// intReal is an integer value of type t converted to a real. It holds the
// real term too: Z3 reuses the ID of a term it has freed, so the entry
// must keep its key alive.
type intReal struct {
	real *smt.Term
	bv   *smt.Term
	t    syntax.Type
}

// New returns an encoder of spec's expressions (info holds their types, as
// sare.Check computed them) into z, with floats in model m.
func New(z *smt.Context, spec *sare.Spec, info *expr.Info, m Model) *Encoder {
	return &Encoder{
		z: z, spec: spec, info: info, model: m,
		tru: z.True(), fls: z.False(),
		tensors:  map[string]*smt.FuncDecl{},
		funcs:    map[string]*smt.FuncDecl{},
		deps:     map[string]map[string]bool{},
		memo:     map[string]memoEntry{},
		intReals: map[uint]intReal{},
		seen:     map[uint]rankedTerm{},
		ranges:   map[string]rangeEntry{},
		facts:    map[uint]rangeFactEntry{},
	}
}

// SetDone makes every unfolding of a computed tensor's access first check
// done: once it is closed (a context's Done), the encoding stops with
// ErrInterrupted. An encoding unfolds without other bound than its
// options' Depth and Unfoldings, and can take long; this lets a caller
// cancel it as it cancels a solver's check.
func (e *Encoder) SetDone(done <-chan struct{}) { e.done = done }

// SetMeter makes the encoding of every value expression node (each node
// of each unfolded equation's body included) first call meter, once per
// node: a non-nil error stops the encoding, which returns it. It lets a
// caller charge an encoding's work, deterministically, to a budget (the
// work of an unfolding is the terms it builds, which no solver counts),
// and stop it once the budget is spent. Nil (the default) meters nothing.
func (e *Encoder) SetMeter(meter func() error) { e.meter = meter }

// ErrInterrupted is the error of an encoding stopped by the channel of
// SetDone.
var ErrInterrupted = errors.New("encode: interrupted")

// Model is the encoder's float model.
func (e *Encoder) Model() Model { return e.model }

// SetReadings makes the Real model read the float literals of r as the
// constants derived from the specification's that they are roundings of
// (value.DeriveReadings), rather than as the numbers they spell. The IEEE
// model reads every literal as its binary value regardless.
func (e *Encoder) SetReadings(r *value.Readings) { e.readings = r }

// Sort is the sort of values of type t: Bool for bool, bit-vectors of the
// type's width for integers, and for f32 and f64 Real in the Real model or
// FloatingPoint(8, 24) and (11, 53) in the IEEE model.
func (e *Encoder) Sort(t syntax.Type) (*smt.Sort, error) {
	switch {
	case t == syntax.Bool:
		return e.z.BoolSort(), nil
	case t.IsInteger():
		return e.z.BVSort(uint(t.Bits())), nil
	case t.IsFloat() && e.model == Real:
		return e.z.RealSort(), nil
	case t == syntax.F32:
		return e.z.Float32Sort(), nil
	case t == syntax.F64:
		return e.z.Float64Sort(), nil
	}
	return nil, fmt.Errorf("encode: no sort for type %s", t)
}

// Tensor is the uninterpreted function Int^rank → Sort(type) standing for the
// specification tensor called name (input or computed). Its Z3 name is the
// tensor's name. The declaration is made once per encoder.
func (e *Encoder) Tensor(name string) (*smt.FuncDecl, error) {
	if f, ok := e.tensors[name]; ok {
		return f, nil
	}
	if e.spec == nil {
		return nil, fmt.Errorf("encode: tensor %s: no specification", name)
	}
	t := e.spec.Tensor(name)
	if t == nil {
		return nil, fmt.Errorf("encode: no tensor %s in the specification", name)
	}
	rng, err := e.Sort(t.Type)
	if err != nil {
		return nil, fmt.Errorf("encode: tensor %s: %w", name, err)
	}
	dom := make([]*smt.Sort, t.Rank())
	for i := range dom {
		dom[i] = e.z.IntSort()
	}
	f := e.z.FuncDecl(name, dom, rng)
	if err := f.Err(); err != nil {
		return nil, fmt.Errorf("encode: tensor %s: %w", name, err)
	}
	e.tensors[name] = f
	return f, nil
}

// Dependencies returns the tensors that the tensor called name depends on,
// directly or transitively, through the right-hand sides of equations. Paths
// that come back to name itself are not followed, so name is never in the
// result: for R(i, j, k) = R(i, j, k-1) + A(i, k)*B(k, j), Dependencies("R")
// is {A, B}. The map is cached: the caller must not modify it.
func (e *Encoder) Dependencies(name string) map[string]bool {
	if d, ok := e.deps[name]; ok {
		return d
	}
	out := map[string]bool{}
	var visit func(string)
	visit = func(t string) {
		for _, u := range e.directDeps(t) {
			if u == name || out[u] {
				continue
			}
			out[u] = true
			visit(u)
		}
	}
	visit(name)
	e.deps[name] = out
	return out
}

// memoEntry is a memoised unfolding and the terms its key names.
type memoEntry struct {
	r    tv
	keep []*smt.Term
}

// directDeps lists the tensors accessed by the equations of tensor t.
func (e *Encoder) directDeps(t string) []string {
	if e.spec == nil {
		return nil
	}
	tensor := e.spec.Tensor(t)
	if tensor == nil {
		return nil
	}
	var out []string
	for _, eq := range tensor.Eqs {
		syntax.Inspect(eq.RHS, func(x syntax.Expr) bool {
			if c, ok := x.(*syntax.Call); ok && e.isTensorAccess(c) {
				out = append(out, c.Fun.Name)
			}
			return true
		})
	}
	return out
}

// isTensorAccess reports whether the call names a specification tensor
// rather than a cast or a built-in function.
func (e *Encoder) isTensorAccess(c *syntax.Call) bool {
	if syntax.TypeByName(c.Fun.Name) != syntax.Invalid && len(c.Args) == 1 {
		return false
	}
	if isBuiltin(c.Fun.Name) || isReinterpret(c.Fun.Name) {
		return false
	}
	return e.spec != nil && e.spec.Tensor(c.Fun.Name) != nil
}

// guard turns a panic inside an exported function into an error.
func guard(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("encode: %s: internal error: %v", what, r)
	}
}

// and is the conjunction of definedness terms, keeping true out.
func (e *Encoder) and(ts ...*smt.Term) *smt.Term {
	var keep []*smt.Term
	for _, t := range ts {
		if t.Equal(e.fls) {
			return e.fls
		}
		if !t.Equal(e.tru) {
			keep = append(keep, t)
		}
	}
	switch len(keep) {
	case 0:
		return e.tru
	case 1:
		return keep[0]
	}
	return e.z.And(keep...)
}

// or is the disjunction of the freedom terms ts, nil (never) ones left
// out; nil when all are.
func (e *Encoder) or(ts ...*smt.Term) *smt.Term {
	var keep []*smt.Term
	for _, t := range ts {
		if t != nil && !t.Equal(e.fls) {
			keep = append(keep, t)
		}
	}
	switch len(keep) {
	case 0:
		return nil
	case 1:
		return keep[0]
	}
	return e.z.Or(keep...)
}

// orFalse is the freedom term t, false for nil.
func (e *Encoder) orFalse(t *smt.Term) *smt.Term {
	if t == nil {
		return e.fls
	}
	return t
}
