package sched

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// GarbageStep is one garbage write of a run with Options.GarbageWrites:
// an assignment that read a cell holding no defined value and wrote the
// undefined value ⊥ instead of its value. Steps chain back to where the
// garbage starts, so that a failure caused by ⊥ (an out cell holding it
// when the kernel ends) says by which path ⊥ got there.
type GarbageStep struct {
	// Pos and Stmt locate the assignment; Env holds the loop and let
	// variables in scope, outermost first.
	Pos  syntax.Pos
	Stmt string
	Env  []Var
	// Read is the cell read that held no defined value; Wrote the cell
	// the assignment wrote ⊥ into.
	Read, Wrote string
	// From is the garbage write that put ⊥ into Read, nil when Read was
	// never written (where the garbage starts).
	From *GarbageStep
	// Failure, set only where a chain starts with
	// Options.PoisonValueFailures, is the failed check of the value the
	// assignment stored (kind and message), for which it wrote ⊥
	// instead; Read is then empty.
	Failure string
}

// Origin returns the first step of the chain of s: the garbage write
// whose read found a cell that was never written, or whose value failed
// its check (Failure).
func (s *GarbageStep) Origin() *GarbageStep {
	for s.From != nil {
		s = s.From
	}
	return s
}

// Path returns the chain of s, its origin first.
func (s *GarbageStep) Path() []*GarbageStep {
	var out []*GarbageStep
	for t := s; t != nil; t = t.From {
		out = append(out, t)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// maxPathSteps bounds the steps GarbageStep.String names: a chain along
// an accumulation has one step per iteration.
const maxPathSteps = 6

// String describes the chain of s, its origin first: "buf_s[7] (never
// written) read at 12:9 (at i=7), written ⊥ into t[7]; t[7] read at
// 15:5 (at i=7), written ⊥ into c[7]". Past maxPathSteps, the steps
// between the first and the last ones are counted, not named.
func (s *GarbageStep) String() string {
	path := s.Path()
	var parts []string
	for i, t := range path {
		if len(path) > maxPathSteps && i == maxPathSteps-2 {
			parts = append(parts, fmt.Sprintf("%d more garbage writes", len(path)-maxPathSteps+1))
		}
		if len(path) > maxPathSteps && i >= maxPathSteps-2 && i < len(path)-1 {
			continue
		}
		env := ""
		if len(t.Env) > 0 {
			env = " (at " + formatEnv(t.Env) + ")"
		}
		if t.Failure != "" {
			parts = append(parts, fmt.Sprintf("%s at %s%s, ⊥ written into %s", t.Failure, t.Pos, env, t.Wrote))
			continue
		}
		read := t.Read
		if i == 0 {
			read += " (never written)"
		}
		parts = append(parts, fmt.Sprintf("%s read at %s%s, ⊥ written into %s", read, t.Pos, env, t.Wrote))
	}
	return strings.Join(parts, "; ")
}

// recordGarbage notes that the assignment s, reading the cell read that
// holds no defined value, wrote ⊥ into the cell wrote, at the current
// loop indices, and returns the step.
func (in *interp) recordGarbage(s *Assign, read, wrote loc) *GarbageStep {
	st := &GarbageStep{Pos: s.Pos(), Stmt: in.stmtLine(s), Env: in.env(), Read: read.String(), Wrote: wrote.String(), From: in.garbage[read]}
	if in.garbage == nil {
		in.garbage = map[loc]*GarbageStep{}
	}
	in.garbage[wrote] = st
	return st
}
