package presburger

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"strings"
	"sync"
)

// This file records the engine's expensive operations as an iscc script, so
// that the work of a whole validation can be replayed elsewhere: in isl's
// own calculator, in Augur's (augur presburger), or operation by operation
// in both engines (the isl replay benchmark of presburger/islcheck).

// Tracer records every traced operation run under a context carrying it
// (see WithTracer) as iscc statements written to an io.Writer. The traced
// operations are the exported ones that take a context and can take
// exponential time: Map and UnionMap Subtract, IsEmpty, IsSubset, IsEqual;
// Map SubtractDomain, Complement, DropEmpty and Sample; UnionMap Simplify;
// LexMin, LexMax, LexMinUnion, LexMaxUnion (and LexMinMap, LexMaxMap
// through them); Coalesce and CoalesceSimplified.
//
// Each operation is written as one block: first an assignment for each
// operand not seen before ("R7 := [N] -> { S[i] : 0 <= i < N };"; an
// operand printed identically to an earlier one reuses its name), then the
// operation as an iscc expression followed by a comment naming the
// engine's operation and, for a test, its answer:
//
//	R12 - R7; # map subtract
//	R3 <= R4; # union is_subset: True
//	is_empty R5; # map is_empty: False
//	coalesce R9; # union simplify
//	lexmin R2; # map lexmin
//
// The comment reads "map" or "union" (which of Map and UnionMap ran the
// operation), then the operation's name. The expressions use only iscc
// operators that isl's iscc also has. Where the engine has an operation
// iscc lacks, the closest iscc form is written and the comment keeps the
// engine's name:
//
//   - simplify, drop_empty and coalesce_simplified are written
//     "coalesce X": iscc has no simplification of its own, and its
//     coalesce also drops empty pieces and redundant constraints.
//   - complement is written "U - X", U being the universe of X's space.
//   - subtract_domain is written "R - S", S a set (iscc's subtraction of a
//     domain).
//   - sample is written "sample X", which isl's iscc has and Augur's
//     calculator does not.
//   - the lexicographic optimum of a Map, a piecewise function in the
//     engine, is written "lexmin X" or "lexmax X", whose value in iscc is
//     the function's graph.
//
// An operation that fails (out of budget, cancelled) is written as a
// comment line, "# R12 - R7; # map subtract: failed: ...", with its
// operands assigned as usual.
//
// Operations run inside a traced one (Map.IsEqual calls Map.IsSubset,
// which calls Subtract and IsEmpty) are not recorded: the trace holds the
// operations the caller asked for. A Tracer is safe for concurrent use;
// the blocks of concurrent operations are written whole, one after the
// other. The first write error stops the recording and is kept (Err).
type Tracer struct {
	mu    sync.Mutex
	w     io.Writer
	names map[[sha256.Size]byte]string
	next  int
	ops   int
	err   error
}

// NewTracer returns a Tracer writing to w.
func NewTracer(w io.Writer) *Tracer {
	return &Tracer{w: w, names: map[[sha256.Size]byte]string{}}
}

type tracerKey struct{}

// WithTracer returns a context under which the traced operations of this
// package are recorded by t (a nil t records nothing).
func WithTracer(ctx context.Context, t *Tracer) context.Context {
	return context.WithValue(ctx, tracerKey{}, t)
}

// tracerFrom returns the Tracer of ctx, or nil. This is the only cost of a
// traced operation when nothing is traced: one lookup in the context.
func tracerFrom(ctx context.Context) *Tracer {
	if ctx == nil {
		return nil
	}
	t, _ := ctx.Value(tracerKey{}).(*Tracer)
	return t
}

// Comment writes each line of text as an iscc comment ("# line").
func (t *Tracer) Comment(text string) {
	var sb strings.Builder
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		sb.WriteString(strings.TrimRight("# "+line, " "))
		sb.WriteByte('\n')
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.write(sb.String())
}

// Ops returns the number of operations recorded so far, failed ones
// included.
func (t *Tracer) Ops() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ops
}

// Err returns the first error the writer returned, if any.
func (t *Tracer) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// write writes s unless an earlier write failed; t.mu is held.
func (t *Tracer) write(s string) {
	if t.err != nil {
		return
	}
	if _, err := io.WriteString(t.w, s); err != nil {
		t.err = fmt.Errorf("presburger trace: %w", err)
	}
}

// traceOp describes how one operation is written: form is the iscc
// expression with one %s per operand, kind the engine's name in the
// comment ("map subtract").
type traceOp struct {
	form, kind string
}

// The traced operations.
var (
	trMapSubtract       = traceOp{"%s - %s", "map subtract"}
	trMapSubtractDomain = traceOp{"%s - %s", "map subtract_domain"}
	trMapComplement     = traceOp{"%s - %s", "map complement"}
	trMapDropEmpty      = traceOp{"coalesce %s", "map drop_empty"}
	trMapSimplify       = traceOp{"coalesce %s", "map simplify"}
	trMapIsEmpty        = traceOp{"is_empty %s", "map is_empty"}
	trMapIsSubset       = traceOp{"%s <= %s", "map is_subset"}
	trMapIsEqual        = traceOp{"%s = %s", "map is_equal"}
	trMapSample         = traceOp{"sample %s", "map sample"}
	trMapLexMin         = traceOp{"lexmin %s", "map lexmin"}
	trMapLexMax         = traceOp{"lexmax %s", "map lexmax"}
	trMapCoalesce       = traceOp{"coalesce %s", "map coalesce"}
	trMapCoalesceSimp   = traceOp{"coalesce %s", "map coalesce_simplified"}
	trUnionSubtract     = traceOp{"%s - %s", "union subtract"}
	trUnionIsEmpty      = traceOp{"is_empty %s", "union is_empty"}
	trUnionIsSubset     = traceOp{"%s <= %s", "union is_subset"}
	trUnionIsEqual      = traceOp{"%s = %s", "union is_equal"}
	trUnionSimplify     = traceOp{"coalesce %s", "union simplify"}
	trUnionLexMin       = traceOp{"lexmin %s", "union lexmin"}
	trUnionLexMax       = traceOp{"lexmax %s", "union lexmax"}
)

// traced runs f, operation op of the engine on operands, with tracing
// turned off inside it, and records it in t.
func traced[R any](ctx context.Context, t *Tracer, op traceOp, f func(context.Context) (R, error), operands ...fmt.Stringer) (R, error) {
	r, err := f(context.WithValue(ctx, tracerKey{}, (*Tracer)(nil)))
	answer := ""
	if b, ok := any(r).(bool); ok && err == nil {
		answer = "False"
		if b {
			answer = "True"
		}
	}
	t.record(op, operands, answer, err)
	return r, err
}

// record writes one operation: the assignments of its new operands, then
// the operation.
func (t *Tracer) record(op traceOp, operands []fmt.Stringer, answer string, opErr error) {
	texts := make([]string, len(operands))
	keys := make([][sha256.Size]byte, len(operands))
	for i, o := range operands {
		texts[i] = o.String()
		keys[i] = sha256.Sum256([]byte(texts[i]))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var sb strings.Builder
	args := make([]any, len(operands))
	for i := range operands {
		name, ok := t.names[keys[i]]
		if !ok {
			t.next++
			name = fmt.Sprintf("R%d", t.next)
			t.names[keys[i]] = name
			fmt.Fprintf(&sb, "%s := %s;\n", name, texts[i])
		}
		args[i] = name
	}
	stmt := fmt.Sprintf(op.form, args...) + "; # " + op.kind
	switch {
	case opErr != nil:
		msg, _, _ := strings.Cut(opErr.Error(), "\n")
		stmt = "# " + stmt + ": failed: " + msg
	case answer != "":
		stmt += ": " + answer
	}
	sb.WriteString(stmt)
	sb.WriteByte('\n')
	t.ops++
	t.write(sb.String())
}
