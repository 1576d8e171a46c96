package fuzz

import (
	"context"
	"slices"
	"strings"
)

// Minimise shrinks a case that Halide's JIT shows wrong over the region
// while it stays wrong and the translator still takes it: delta debugging over its schedule directives
// (each removed in turn, until none can be), then over its algorithm
// (updates removed, funcs bypassed by reading their first producer, terms
// of a sum or a max dropped), then the directives again.
func Minimise(ctx context.Context, d *Driver, c *Case, r Region) (*Case, error) {
	// The candidates are tried with the poison that shows the original
	// wrong only.
	first, err := Confirm(ctx, d, c, r)
	if err != nil {
		return nil, err
	}
	if !shows(first) {
		return c, nil
	}
	wrong := func(k *Case) (bool, error) {
		// The smaller case must still translate, so that its bundle
		// holds Augur's report on it.
		if t, err := d.Do(ctx, k, "translate"); err != nil || t.Cause != "" {
			return false, err
		}
		a, err := confirmWith(ctx, d, k, r, []int{first.Poison})
		if err != nil {
			return false, err
		}
		return shows(a), nil
	}
	return shrink(c, wrong)
}

// internalError is the driver's cause for an internal error of Halide's
// compiler.
const internalError = "halide-internal"

// MinimiseCrash shrinks a case whose translation makes Halide's compiler
// fail with an internal error while it fails with the same one (the
// same message once Normalize has replaced its names and numbers), as
// Minimise does. A case that translates, or fails otherwise, is returned
// as it is.
func MinimiseCrash(ctx context.Context, d *Driver, c *Case) (*Case, error) {
	a, err := d.Do(ctx, c, "translate")
	if err != nil {
		return nil, err
	}
	if a.Cause != internalError {
		return c, nil
	}
	want := Normalize(a.Msg)
	return shrink(c, func(k *Case) (bool, error) {
		t, err := d.Do(ctx, k, "translate")
		if err != nil {
			return false, err
		}
		return t.Cause == internalError && Normalize(t.Msg) == want, nil
	})
}

// shrink is the delta debugging of Minimise: candidates smaller than c
// are kept while keep holds of them.
func shrink(c *Case, keep func(*Case) (bool, error)) (*Case, error) {
	m := c.Clone()
	for pass := 0; pass < 3; pass++ {
		changed := false
		for _, step := range []func(*Case) []*Case{dropDirectives, dropUpdates, bypassFuncs, dropTerms} {
			// One sweep over the candidates: after a success, the
			// candidate at the same index is the next one of the
			// smaller case.
			for i := 0; ; {
				cands := step(m)
				if i >= len(cands) {
					break
				}
				ok, err := keep(cands[i])
				if err != nil {
					return nil, err
				}
				if ok {
					m, changed = cands[i], true
				} else {
					i++
				}
			}
		}
		if !changed {
			break
		}
	}
	return m, nil
}

// shows says whether a JIT answer shows the scheduled pipeline wrong: a
// cell differs, or its code crashed where the algorithm's ran.
func shows(a *Answer) bool {
	return a.Cause == "" && a.Mismatch > 0 || a.Cause == "crash-scheduled"
}

// dropDirectives are the case without one of its directives, the last
// first.
func dropDirectives(c *Case) []*Case {
	var out []*Case
	for i := len(c.Sched) - 1; i >= 0; i-- {
		k := c.Clone()
		k.Sched = slices.Delete(k.Sched, i, i+1)
		out = append(out, k)
	}
	return out
}

// dropUpdates are the case without one of its updates (the directives of
// that func's updates from it on are dropped too).
func dropUpdates(c *Case) []*Case {
	var out []*Case
	for i, d := range c.Defs {
		if d.Kind != UpdateDef {
			continue
		}
		k := c.Clone()
		k.Defs = slices.Delete(k.Defs, i, i+1)
		k.Sched = slices.DeleteFunc(k.Sched, func(s Directive) bool {
			f, st, ok := strings.Cut(s[1], ".")
			return f == d.Name && ok && st != "0"
		})
		out = append(out, k)
	}
	return out
}

// bypassFuncs are the case with a func other than the output removed, its
// readers reading its first producer instead (when of as many
// dimensions), and the directives that name it dropped.
func bypassFuncs(c *Case) []*Case {
	var out []*Case
	for _, d := range c.Defs {
		if d.Kind == UpdateDef || d.Name == c.Output {
			continue
		}
		src := d.Src
		if d.Kind == FuncDef {
			src = firstCall(d.Value)
		}
		if src == "" || c.Dims(src) != c.Dims(d.Name) {
			continue
		}
		k := c.Clone()
		k.Defs = slices.DeleteFunc(k.Defs, func(x Def) bool { return x.Name == d.Name })
		for i := range k.Defs {
			if k.Defs[i].Value != nil {
				rename(k.Defs[i].Value, d.Name, src)
			}
		}
		k.Sched = slices.DeleteFunc(k.Sched, func(s Directive) bool { return slices.Contains(s, d.Name) })
		out = append(out, k)
	}
	return out
}

func firstCall(e *Expr) string {
	if e.Op == "" {
		return ""
	}
	if _, ok := Ops[e.Op]; !ok {
		return e.Op
	}
	for _, a := range e.Args {
		if f := firstCall(a); f != "" {
			return f
		}
	}
	return ""
}

func rename(e *Expr, from, to string) {
	if e.Op == from {
		e.Op = to
	}
	for _, a := range e.Args {
		rename(a, from, to)
	}
}

// dropTerms are the case with one operation of two operands (+, -, *,
// min, max) of a definition replaced by one of its operands.
func dropTerms(c *Case) []*Case {
	var out []*Case
	for i, d := range c.Defs {
		if d.Value == nil {
			continue
		}
		n := countBinary(d.Value)
		for j := range n {
			for side := range 2 {
				k := c.Clone()
				if v := replaceBinary(k.Defs[i].Value, j, side); v != nil {
					k.Defs[i].Value = v
					if d.Kind != UpdateDef || calls(v, d.Name) {
						out = append(out, k)
					}
				}
			}
		}
	}
	return out
}

var binaries = map[string]bool{"+": true, "-": true, "*": true, "min": true, "max": true}

func countBinary(e *Expr) int {
	n := 0
	if binaries[e.Op] {
		n++
	}
	for _, a := range e.Args {
		n += countBinary(a)
	}
	return n
}

// replaceBinary returns e with its j-th binary operation (preorder)
// replaced by its operand side (0 or 1).
func replaceBinary(e *Expr, j, side int) *Expr {
	var walk func(e *Expr) *Expr
	n := 0
	walk = func(e *Expr) *Expr {
		if binaries[e.Op] {
			if n == j {
				n++
				return e.Args[side]
			}
			n++
		}
		for i, a := range e.Args {
			e.Args[i] = walk(a)
		}
		return e
	}
	return walk(e)
}

func calls(e *Expr, f string) bool {
	if e.Op == f {
		return true
	}
	return slices.ContainsFunc(e.Args, func(a *Expr) bool { return calls(a, f) })
}

// signature names what makes a minimised miscompilation distinct: its
// directives' names, in order (Augur's reason is not part of it: the same
// bug of Halide's fails different checks in different pipelines).
func signature(m *Case) string {
	var ds []string
	for _, d := range m.Sched {
		ds = append(ds, d[0])
	}
	return strings.Join(ds, " ")
}
