package syntax

// Code identifies the kind of a diagnostic independently of its wording,
// as the codes of go/types do: tools and tests match the code, and the
// message may be reworded freely. Codes are stable: a code, once given,
// keeps its meaning and is never reused for another kind of error. The
// zero Code is "no code": a diagnostic of a kind not classified yet.
//
// Error.Code carries the code; validate.ErrorDetail and the service's
// problem details expose it as "code".
type Code string

// The codes of the two input languages (packages syntax, sare and sched)
// and of loading a pair. Each is the kind of error, not its place: a
// tensor declared twice and a parameter declared twice are both
// CodeRedeclared.
const (
	// CodeSyntax: the text does not follow the grammar (an unexpected or
	// illegal token, an unterminated construct).
	CodeSyntax Code = "syntax"
	// CodeTooMany ends a list of errors cut at MaxErrors.
	CodeTooMany Code = "too-many"
	// CodeReserved: a declaration uses a keyword or a name reserved for
	// generated code.
	CodeReserved Code = "reserved"
	// CodeRedeclared: a name is declared twice in one scope, or the
	// declaration of one kind of name takes the name of another.
	CodeRedeclared Code = "redeclared"
	// CodeUndeclared: a name is used that no declaration in scope gives.
	CodeUndeclared Code = "undeclared"
	// CodeWrongKind: a name of one kind (parameter, tensor, array, variable)
	// is used where another kind is needed.
	CodeWrongKind Code = "wrong-kind"
	// CodeArity: the number of indices, arguments or variables does not match
	// the declaration.
	CodeArity Code = "arity"
	// CodeType: a value of the wrong type (operands that disagree, a
	// condition that is not boolean, an annotation of another type than
	// its target).
	CodeType Code = "type"
	// CodeNotAffine: an index, bound or condition is outside the quasi-affine
	// language (a product of variables, a division by a non-constant).
	CodeNotAffine Code = "not-affine"
	// CodeBinding: the kernel's interface (parameters, inputs, outputs) does
	// not agree with the specification's.
	CodeBinding Code = "binding"
	// CodeDefinition: a tensor's definition is incomplete or misplaced (no
	// equations, equations for an input, an output that is not computed),
	// or a reduction is used against its rules (an annotation, an
	// accumulation or a merge of the wrong form).
	CodeDefinition Code = "definition"
	// CodeNotChecked: the kernel was parsed but not type-checked, because
	// its specification is malformed. It carries no position.
	CodeNotChecked Code = "not-checked"
	// CodeNotText: the file is not text (a NUL byte, or bytes that are
	// not UTF-8): it is refused whole, in one error without a line.
	CodeNotText Code = "not-text"
	// CodeRange: a number outside the range its place allows (a literal
	// too large for its type, an extent or dimension that is zero or too
	// large, a divisor of zero).
	CodeRange Code = "range"
)

// The codes of the tensor front ends (packages atl and rink, and the
// algorithm language of the bundled compiler), beside the codes above.
// The Presburger engine's parser spells the kinds of its errors
// (presburger.ErrorCode) as the codes above.
const (
	// CodeShape: a tensor's rank, extents or dimension numbers are not
	// those an operation needs (a tensor where a scalar is needed or the
	// reverse, the concatenation of shapes that disagree, a dimension
	// number past the rank, a contraction of dimensions of different
	// extents, a size that may be negative).
	CodeShape Code = "shape"
	// CodeBounds: a read, or a truncation, may fall outside its tensor
	// for some value of the parameters the assumptions allow.
	CodeBounds Code = "bounds"
	// CodePadding: a truncation may drop elements that are not provably
	// padding (the rules TRUNCLPAD and TRUNCRPAD of ATL's pad type
	// system, Liu et al. 2024, section 6.3).
	CodePadding Code = "padding"
	// CodeLaneAlias: a lane of a wide binding reads the result of another
	// lane of the same binding, which the fused loop computes at the same
	// time (Prasanna 2026, section 2.4.1).
	CodeLaneAlias Code = "lane-alias"
	// CodeLookback: a sequential computation (ATL's GenRec) reads a row
	// that is not strictly earlier than the one it computes (Prasanna
	// 2026, section 3.4).
	CodeLookback Code = "lookback"
)

// The codes of the bundled compiler (package compiler), beside those of
// its algorithm language above.
const (
	// CodeSchedule: a schedule the compiler rejects as illegal, a
	// directive that breaks a rule of the schedule model (a loop that does
	// not exist, a reduction loop made parallel, a func stored inside the
	// loop where it is computed, a fold too small for the values it must
	// hold, bounds that do not cover what the consumers read).
	CodeSchedule Code = "schedule"
	// CodeUnsupported: a construct the language allows that the compiler
	// does not compile yet (an update whose left-hand side moves a pure
	// variable, an empty range, a loop of non-constant extent where the
	// kernel needs a constant).
	CodeUnsupported Code = "unsupported"
)
