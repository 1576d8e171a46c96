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

// kindInfo is what the table of kinds says of one kind.
type kindInfo struct {
	// name is the kind as messages, reports and corpus headers print it.
	name string
	// help explains the failure to a user: what went wrong, and what to
	// look at.
	help string
	// reduction is set for the kinds of reductions' bookkeeping, which
	// only kernels of specifications with reductions can fail.
	reduction bool
}

// kinds is the table of kinds, indexed by Kind; kinds[0] is no kind. It
// is the one list of the kinds: their names, the order in which Kinds
// lists them, and their help texts.
var kinds = [...]kindInfo{
	WrongValue: {name: "annotation mismatch",
		help: "An assignment stores a value that differs from its annotation, the specification element it claims to write, " +
			"for some parameter values and inputs (a false prophecy). The counterexample gives them, the annotated and the computed value; " +
			"its reproduce line replays the failure with augur run."},
	UndefinedAnnotation: {name: "undefined annotation",
		help: "An assignment's annotation names a specification element outside every equation's domain: " +
			"the kernel claims to compute something the specification does not define."},
	UndefinedStore: {name: "undefined value stored",
		help: "An assignment stores an undefined value that does not come from a read, such as an out-of-range conversion."},
	OutOfBoundsWrite: {name: "out-of-bounds write",
		help: "An assignment writes outside its array's extents for some parameter values and loop indices (given by the counterexample)."},
	OutOfBoundsRead: {name: "out-of-bounds read",
		help: "An expression reads outside its array's extents for some parameter values and loop indices (given by the counterexample)."},
	UndefinedRead: {name: "undefined read",
		help: "An expression reads a cell that holds no defined value yet: it is neither an input nor written earlier."},
	ReadWriteRace: {name: "read-write race",
		help: "In a par loop, a cell written by one iteration is read by another: the result depends on the order of the iterations. " +
			"Make the loop sequential or give each iteration its own cells."},
	WriteWriteConflict: {name: "write-write conflict",
		help: "In a par loop, two iterations write different values into the same cell: the result depends on which writes last."},
	OutputNotWritten: {name: "output not written",
		help: "When the kernel ends, a cell of an out binding holds no defined value: some output is never computed."},
	OutputWrongValue: {name: "output wrong value",
		help: "When the kernel ends, a cell of an out binding holds another value than the specification's."},
	BindingOverlap: {name: "overlapping bindings",
		help: "A cell is covered by two in bindings or two out bindings of its array: their where domains are not disjoint."},
	IndexError: {name: "index error",
		help: "An index expression cannot be evaluated (an int64 overflow), or extents or loop bounds are too large."},
	IllDefinedSpec: {name: "ill-defined specification",
		help: "The specification itself is ill-defined: equations of one tensor with overlapping domains, " +
			"or a recursion Augur cannot prove well founded."},
	WrongIdentity: {name: "wrong identity", reduction: true,
		help: "An accumulator is initialised with another value than the identity of its reduction's operator " +
			"(0 for +, 1 for *, the type's extreme for min and max)."},
	DoubleCount: {name: "position accumulated twice", reduction: true,
		help: "A position of a reduction is accumulated twice into one cell, directly or through merged partial results: " +
			"the reduction counts it twice."},
	IncompleteReduction: {name: "incomplete reduction", reduction: true,
		help: "A cell holding a partial result is read other than by a merge, or is an output, " +
			"before every position of its reduction was accumulated into it."},
	OutsideReduction: {name: "position outside the reduction", reduction: true,
		help: "An accumulation adds a position that lies outside its reduction's domain."},
	NotAccumulator: {name: "not an accumulator", reduction: true,
		help: "An accumulation or a merge uses a cell that holds no partial result of the annotated reduction element: " +
			"it was never initialised with @ (), or was initialised for another element."},
	WrongOperator: {name: "wrong reduction operator", reduction: true,
		help: "An accumulation or a merge uses another operator than its reduction's."},
	ReorderedReduction: {name: "re-ordered float reduction", reduction: true,
		help: "A float + or * reduction is computed in another order than its specification's, which IEEE rounding does not allow " +
			"(reported in the ieee value model; the real model allows the re-ordering)."},
}

// Kinds returns every kind, in the order of their declaration.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(kinds)-1)
	for k := WrongValue; int(k) < len(kinds); k++ {
		ks = append(ks, k)
	}
	return ks
}

// ParseKind returns the kind whose name (String) is name.
func ParseKind(name string) (Kind, error) {
	for _, k := range Kinds() {
		if kinds[k].name == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown failure kind %q", name)
}

// valid reports whether k is one of the declared kinds.
func (k Kind) valid() bool { return k > 0 && int(k) < len(kinds) }

// String names the kind as messages do ("read-write race").
func (k Kind) String() string {
	if k.valid() {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Help explains the failure to a user: what went wrong, and what to
// look at. It is "" for an undeclared kind.
func (k Kind) Help() string {
	if k.valid() {
		return kinds[k].help
	}
	return ""
}

// Reduction reports whether k is a kind of reductions' bookkeeping, which
// only kernels of specifications with reductions can fail.
func (k Kind) Reduction() bool { return k.valid() && kinds[k].reduction }

// MarshalText encodes the kind as its name (String); the zero Kind, no
// kind, as the empty text.
func (k Kind) MarshalText() ([]byte, error) {
	switch {
	case k == 0:
		return nil, nil
	case !k.valid():
		return nil, fmt.Errorf("marshal %v: not a failure kind", k)
	}
	return []byte(kinds[k].name), nil
}

// UnmarshalText decodes a kind's name (ParseKind); the empty text is the
// zero Kind.
func (k *Kind) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*k = 0
		return nil
	}
	kind, err := ParseKind(string(text))
	if err != nil {
		return err
	}
	*k = kind
	return nil
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
