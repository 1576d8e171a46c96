// Package quasiaffine builds Presburger sets (package presburger) from the
// quasi-affine index expressions and constraints of package syntax,
// through the engine's constructors: no isl text is printed and parsed
// back, so the caller's context and budget reach every operation, an
// error keeps its cause (errors.Is(err, presburger.ErrBudget) holds
// through it), and no name can be misread as a keyword of the notation.
//
// The fragment is that of isl's quasi-affine expressions (Verdoolaege,
// "isl: An Integer Set Library for the Polyhedral Model", 2010): integer
// literals, names, +, -, unary -, * with a constant factor, / and % by a
// nonzero constant (floor division and the remainder of floor division),
// min and max of two arguments; a constraint compares such expressions
// (==, !=, <, <=, >, >=, chains such as lo <= i < hi) and combines
// comparisons with and, or, not, true and false. Whether a factor or a
// divisor is constant is decided on its value (N - N is the constant 0).
//
// A Formula is a constraint (Constraint) or a combination of formulas
// (And, Or, Not, Exists); Set builds { [dims] : formula } over named
// parameters. Names resolve to the innermost existential of that name,
// then to a dimension, then to a parameter; any other name is an error.
//
// Every comparison is built by the engine's builder of quasi-affine
// constraints (presburger.Builder), the one the engine's reader of isl
// notation uses, so a formula builds the same pieces as the same formula
// written out and read by presburger.ParseMap: a comparison is one
// conjunction per pair of pieces of its two sides (min and max split an
// expression into pieces), each division a local floor division, and the
// connectives the engine's intersection, union, complement and
// projection. This package only maps the nodes of package syntax to the
// builder's operations.
//
// The construction counts against the budget of Set's context as the
// engine's operations do (presburger.NewBuilderContext, presburger.Steps):
// a step per piece, division local and conjunction built, the
// conjunctions of every intersection and projection included, and a step
// per presburger.EntriesPerStep entries of their rows. Under a budget
// shared by a computation (presburger.WithSharedBudget), a formula whose
// pieces and divisions multiply stops at that budget with ErrBudget
// instead of growing without a step counted.
//
// Files, in reading order: quasiaffine.go (formulas, Set, Names, Check),
// build.go (the evaluation of formulas: comparisons through
// presburger.Builder, connectives and existentials through the engine's
// operations).
package quasiaffine
