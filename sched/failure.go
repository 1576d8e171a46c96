package sched

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Kind classifies a failure of a kernel found by the interpreter.
type Kind int

// Kinds of failures.
const (
	// WrongValue: an assignment stores a value that differs from its
	// annotation evaluated over the specification (a false prophecy).
	WrongValue Kind = iota + 1
	// UndefinedAnnotation: an assignment's annotation is undefined (a
	// tensor element outside every equation's domain).
	UndefinedAnnotation
	// UndefinedStore: an assignment stores an undefined value that does
	// not come from a read (such as an out-of-range float conversion).
	UndefinedStore
	// OutOfBoundsWrite: an assignment writes outside its array.
	OutOfBoundsWrite
	// OutOfBoundsRead: a value reads outside its array.
	OutOfBoundsRead
	// UndefinedRead: a value reads a cell that holds no defined value.
	UndefinedRead
	// ReadWriteRace: a cell written by one iteration of a par loop is
	// read by another.
	ReadWriteRace
	// WriteWriteConflict: two iterations of a par loop write different
	// values into the same cell.
	WriteWriteConflict
	// OutputNotWritten: when the kernel ends, a cell of an out binding
	// holds no defined value.
	OutputNotWritten
	// OutputWrongValue: when the kernel ends, a cell of an out binding
	// holds another value than the specification's.
	OutputWrongValue
	// BindingOverlap: a cell is covered by two in bindings or two out
	// bindings of its array (their where domains are not disjoint).
	BindingOverlap
	// IndexError: an index expression cannot be evaluated (an int64
	// overflow), or extents or loop bounds are too large to run.
	IndexError
	// IllDefinedSpec: the specification itself is ill-defined (equations
	// of one tensor with overlapping domains, a cyclic definition). The
	// interpreter reports it as an error; the verifier as a reason.
	IllDefinedSpec
	// WrongIdentity: an accumulator is initialised (`{T(x) @ ()} := e`)
	// with another value than its operator's identity.
	WrongIdentity
	// DoubleCount: a position of a reduction is accumulated twice into
	// one cell, directly or through merged partial results.
	DoubleCount
	// IncompleteReduction: a cell holding a partial result is read other
	// than by a merge, or is an output, before every position of its
	// reduction was accumulated.
	IncompleteReduction
	// OutsideReduction: an accumulation names a position outside its
	// reduction's domain.
	OutsideReduction
	// NotAccumulator: an accumulation or a merge uses a cell that holds no
	// partial result of the annotated reduction element (never
	// initialised with @ (), or initialised for another element).
	NotAccumulator
	// WrongOperator: an accumulation or a merge uses another operator
	// than its reduction's.
	WrongOperator
	// ReorderedReduction: a float + or * reduction is computed in another
	// order than its specification's, which IEEE rounding does not allow
	// (reported by the verifier in the ieee value model).
	ReorderedReduction
)

var kindNames = map[Kind]string{
	WrongValue:          "annotation mismatch",
	UndefinedAnnotation: "undefined annotation",
	UndefinedStore:      "undefined value stored",
	OutOfBoundsWrite:    "out-of-bounds write",
	OutOfBoundsRead:     "out-of-bounds read",
	UndefinedRead:       "undefined read",
	ReadWriteRace:       "read-write race",
	WriteWriteConflict:  "write-write conflict",
	OutputNotWritten:    "output not written",
	OutputWrongValue:    "output wrong value",
	BindingOverlap:      "overlapping bindings",
	IndexError:          "index error",
	IllDefinedSpec:      "ill-defined specification",
	WrongIdentity:       "wrong identity",
	DoubleCount:         "position accumulated twice",
	IncompleteReduction: "incomplete reduction",
	OutsideReduction:    "position outside the reduction",
	NotAccumulator:      "not an accumulator",
	WrongOperator:       "wrong reduction operator",
	ReorderedReduction:  "re-ordered float reduction",
}

// String names the kind as messages do ("read-write race").
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Var is a loop or let variable with its value at the point of a failure.
type Var struct {
	Name  string
	Value int64
}

// Failure is a failure of a kernel found by Run: the kernel is wrong for
// the parameters and inputs it ran on. It is returned as an error; other
// errors returned by Run (bad parameters, an exhausted budget, a
// cancelled context, an ill-defined specification) are not failures of the
// kernel.
type Failure struct {
	Kind Kind
	// File, Pos and LineText locate the statement (for races, the par
	// loop; for output checks, the binding). LineText is empty when the
	// kernel has no source.
	File     string
	Pos      syntax.Pos
	LineText string
	// Stmt is the statement's canonical text (its header for a compound
	// statement; the binding for output checks).
	Stmt string
	// Env holds the loop and let variables in scope, outermost first.
	Env []Var
	// Array and Index name the cell concerned, when there is one: the cell
	// read for a read failure, the cell written for an assignment's
	// failure, the cell raced on, the out cell checked.
	Array string
	Index []int64
	// Expected and Actual are the values compared: the annotation's value
	// (or the specification's element) and the value stored (or found).
	// For a write-write conflict they are the two values written.
	Expected, Actual value.Value
	// Tensor is the specification element the expected value comes from,
	// such as "R(0, 1, 2)", when it is a single tensor access.
	Tensor string
	// For races and conflicts: the par loop's variable and the two
	// iterations involved. For a read-write race Iters[0] writes the cell
	// and Iters[1] reads it.
	LoopVar string
	Iters   [2]int64
	// Garbage is, for an out cell holding the undefined value ⊥ of a
	// garbage write (Options.GarbageWrites), the last garbage write into
	// it, whose chain says where the garbage starts; nil otherwise.
	Garbage *GarbageStep
	// Msg completes the description.
	Msg string
	// Steps is the work of the run up to the failure, counted as
	// Result.Steps.
	Steps int64
}

// Cell renders the cell concerned, such as "c[1, 2]", or "".
func (f *Failure) Cell() string {
	if f.Array == "" {
		return ""
	}
	return formatCell(f.Array, f.Index)
}

func formatCell(name string, idx []int64) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('[')
	for i, n := range idx {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, n)
	}
	b.WriteByte(']')
	return b.String()
}

func formatEnv(env []Var) string {
	parts := make([]string, len(env))
	for i, v := range env {
		parts[i] = fmt.Sprintf("%s=%d", v.Name, v.Value)
	}
	return strings.Join(parts, " ")
}

// Error renders the failure on one line: "file:line:col: kind: message
// (at i=0 j=1)".
func (f *Failure) Error() string {
	var b strings.Builder
	switch {
	case f.File != "" && f.Pos.IsValid():
		fmt.Fprintf(&b, "%s:%s: ", f.File, f.Pos)
	case f.Pos.IsValid():
		fmt.Fprintf(&b, "%s: ", f.Pos)
	}
	b.WriteString(f.Kind.String())
	b.WriteString(": ")
	b.WriteString(f.Msg)
	if len(f.Env) > 0 {
		fmt.Fprintf(&b, " (at %s)", formatEnv(f.Env))
	}
	return b.String()
}

// Detail renders the failure with the statement's source line and a
// caret, like syntax.Error.Detail, followed by the statement's canonical
// text.
func (f *Failure) Detail() string {
	e := &syntax.Error{File: f.File, Pos: f.Pos, Msg: f.Kind.String() + ": " + f.Msg, LineText: f.LineText}
	if len(f.Env) > 0 {
		e.Msg += fmt.Sprintf(" (at %s)", formatEnv(f.Env))
	}
	s := e.Detail()
	if f.LineText == "" && f.Stmt != "" {
		s += "\n    " + f.Stmt
	}
	return s
}
