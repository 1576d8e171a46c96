package smt

// #include <stdlib.h>
// #include <z3.h>
import "C"

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// A Tactic describes a pipeline of Z3 tactics (Z3_mk_tactic and its
// combinators): a named tactic, tactics run one after the other (Then),
// the first that succeeds (OrElse), or a tactic with parameters (With).
// It is a plain Go value, built in Z3 only when a solver is made from it
// (Context.NewSolverFromTactic), so it holds no Z3 object and may be shared
// between contexts and goroutines. String prints it in the syntax of
// SMT-LIB2's check-sat-using.
//
// A solver made from a tactic honours the solver's resource limit
// (SetResourceLimit) and Z3_interrupt like any other: Z3 counts the
// tactics' steps against the limit of the check that runs them, and
// cancels them when the check's context is cancelled.
type Tactic struct {
	name   string   // a named tactic; "" for a combinator
	then   []Tactic // when op is "then" or "or-else": the tactics combined
	op     string   // "", "then", "or-else", "using-params"
	params []tparam // for "using-params": the parameters, in order
	inner  []Tactic // for "using-params": the tactic (one)
}

// tparam is one parameter of Tactic.With: a bool, an unsigned integer or a
// double.
type tparam struct {
	name  string
	value any
}

// NamedTactic is Z3's tactic called name ("simplify", "solve-eqs",
// "bit-blast", "sat", "smt", ...: z3 -tactics lists them). An unknown
// name is an error when a solver is made from it.
func NamedTactic(name string) Tactic { return Tactic{name: name} }

// Then runs the tactics one after the other, each on the goals the one
// before left (Z3_tactic_and_then).
func Then(ts ...Tactic) Tactic { return Tactic{op: "then", then: append([]Tactic(nil), ts...)} }

// OrElse runs the first tactic, and the next one on the original goal
// when it fails, and so on (Z3_tactic_or_else).
func OrElse(ts ...Tactic) Tactic { return Tactic{op: "or-else", then: append([]Tactic(nil), ts...)} }

// With is t run with the parameter name set to value, a bool, an unsigned
// integer (uint, uint32, uint64 or a non-negative int) or a float64
// (Z3_tactic_using_params). Parameters accumulate: t.With(a, x).With(b, y)
// sets both.
func (t Tactic) With(name string, value any) Tactic {
	if t.op == "using-params" {
		t.params = append(append([]tparam(nil), t.params...), tparam{name, value})
		return t
	}
	return Tactic{op: "using-params", inner: []Tactic{t}, params: []tparam{{name, value}}}
}

// String prints t in SMT-LIB2's tactic syntax, as check-sat-using reads
// it: (then simplify (using-params smt :arith.solver 6)).
func (t Tactic) String() string {
	switch t.op {
	case "then", "or-else":
		parts := make([]string, len(t.then))
		for i, u := range t.then {
			parts[i] = u.String()
		}
		return "(" + t.op + " " + strings.Join(parts, " ") + ")"
	case "using-params":
		var b strings.Builder
		b.WriteString("(using-params " + t.inner[0].String())
		for _, p := range t.params {
			b.WriteString(" :" + p.name + " " + fmt.Sprint(p.value))
		}
		return b.String() + ")"
	}
	return t.name
}

// NewSolverFromTactic makes a solver that checks its assertions by the
// tactic t (Z3_mk_solver_from_tactic). The tactic must decide the goal
// (end in a tactic such as "sat" or "smt"): a goal it leaves undecided is
// Unknown. The context's WithTimeout and WithResourceLimit apply as to
// NewSolver.
func (c *Context) NewSolverFromTactic(t Tactic) (*Solver, error) {
	const op = "NewSolverFromTactic"
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	b := tacticBuilder{z: z}
	defer b.release()
	tac, err := b.build(t)
	if err != nil {
		return nil, err
	}
	p := C.Z3_mk_solver_from_tactic(z, tac)
	return c.adopt(z, op, p)
}

// tacticBuilder builds a Tactic in Z3, holding one reference on each
// Z3 tactic and parameter set it makes until release.
type tacticBuilder struct {
	z       C.Z3_context
	tactics []C.Z3_tactic
	params  []C.Z3_params
}

func (b *tacticBuilder) keep(t C.Z3_tactic) C.Z3_tactic {
	C.Z3_tactic_inc_ref(b.z, t)
	b.tactics = append(b.tactics, t)
	return t
}

// release gives back the references taken: a solver made from the
// tactic holds its own.
func (b *tacticBuilder) release() {
	for _, t := range b.tactics {
		C.Z3_tactic_dec_ref(b.z, t)
	}
	for _, p := range b.params {
		C.Z3_params_dec_ref(b.z, p)
	}
}

func (b *tacticBuilder) build(t Tactic) (C.Z3_tactic, error) {
	const op = "NewSolverFromTactic"
	z := b.z
	switch t.op {
	case "":
		if t.name == "" {
			return nil, opError(op, "empty tactic name")
		}
		cs := C.CString(t.name)
		defer C.free(unsafe.Pointer(cs))
		r := C.Z3_mk_tactic(z, cs)
		if err := check(z, op); err != nil {
			return nil, err
		}
		return b.keep(r), nil
	case "then", "or-else":
		if len(t.then) == 0 {
			return nil, opError(op, "no tactic to combine")
		}
		r, err := b.build(t.then[0])
		if err != nil {
			return nil, err
		}
		for _, u := range t.then[1:] {
			s, err := b.build(u)
			if err != nil {
				return nil, err
			}
			if t.op == "then" {
				r = C.Z3_tactic_and_then(z, r, s)
			} else {
				r = C.Z3_tactic_or_else(z, r, s)
			}
			if err := check(z, op); err != nil {
				return nil, err
			}
			r = b.keep(r)
		}
		return r, nil
	case "using-params":
		inner, err := b.build(t.inner[0])
		if err != nil {
			return nil, err
		}
		p := C.Z3_mk_params(z)
		C.Z3_params_inc_ref(z, p)
		b.params = append(b.params, p)
		for _, kv := range t.params {
			k := symbol(z, kv.name)
			switch v := kv.value.(type) {
			case bool:
				C.Z3_params_set_bool(z, p, k, C.bool(v))
			case uint:
				C.Z3_params_set_uint(z, p, k, C.uint(v))
			case uint32:
				C.Z3_params_set_uint(z, p, k, C.uint(v))
			case uint64:
				C.Z3_params_set_uint(z, p, k, C.uint(min(v, 1<<32-1)))
			case int:
				if v < 0 {
					return nil, opError(op, "negative parameter "+kv.name+" = "+strconv.Itoa(v))
				}
				C.Z3_params_set_uint(z, p, k, C.uint(min(uint64(v), 1<<32-1)))
			case float64:
				C.Z3_params_set_double(z, p, k, C.double(v))
			default:
				return nil, opError(op, fmt.Sprintf("parameter %s: unsupported value %v of type %T", kv.name, v, v))
			}
		}
		r := C.Z3_tactic_using_params(z, inner, p)
		if err := check(z, op); err != nil {
			return nil, err
		}
		return b.keep(r), nil
	}
	return nil, opError(op, "unknown combinator "+t.op)
}

// Translate copies the terms ts, all of one other context, into c
// (Z3_translate). The source context is only read: checks in c then
// leave it as it was, which matters because Z3's searches depend on the
// terms a context holds (a check in the source context could take
// another course after terms were made there).
func (c *Context) Translate(ts ...*Term) ([]*Term, error) {
	const op = "Translate"
	if len(ts) == 0 {
		return nil, nil
	}
	src := ts[0].Context()
	if src == nil {
		return nil, errNilTerm
	}
	if src == c {
		return append([]*Term(nil), ts...), nil
	}
	zs, err := src.enter()
	if err != nil {
		return nil, err
	}
	as, err := astsOf(src, ts)
	if err != nil {
		return nil, err
	}
	z, err := c.enter()
	if err != nil {
		return nil, err
	}
	out := make([]*Term, len(ts))
	for i, a := range as {
		r := C.Z3_translate(zs, a, z)
		if err := check(zs, op); err != nil {
			return nil, err
		}
		out[i] = c.term(z, r, op)
		if err := out[i].Err(); err != nil {
			return nil, err
		}
	}
	runtime.KeepAlive(ts)
	return out, nil
}
