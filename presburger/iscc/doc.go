// Package iscc is a calculator over Presburger sets and relations in the
// style of isl's iscc: it reads statements terminated by ";", evaluates
// them with the exact engine of package presburger, and prints every value
// that is not assigned to a name.
//
// A script is a sequence of statements:
//
//	S := [N] -> { A[i] : 0 <= i < N };   # bind a name
//	R := { A[i] -> B[i + 1] };
//	R(S);                                # print a value
//	S <= dom R;                          # print True or False
//
// Expressions are literal sets and relations in isl notation, names,
// parentheses, the binary operators + (union), - (difference; for a
// relation and a set, subtraction of the domain), * (intersection; for a
// relation and a set, intersection of the domain), . (join: R . Q is R then
// Q), the tests = (equality), <= < >= > (inclusion), the application R(S)
// (the image of a set, or the composition S then R of a relation), the
// inverse R^-1, and the prefix operators dom, ran, lexmin, lexmax,
// coalesce, is_empty and is_single_valued. + and * also act on booleans as
// "or" and "and".
//
// Precedence is iscc's: the postfix operators ^-1 and application bind
// tightest, then the prefix operators (whose operand is a primary with its
// postfix operators, so dom R . Q is (dom R) . Q and dom R(S) is
// dom (R(S))); all binary operators share one precedence level and
// associate to the left, so A + B * C is (A + B) * C.
//
// Reading order: lex.go splits the input into statements and tokens,
// parse.go builds the syntax tree of ast.go, value.go and eval.go evaluate
// it, and run.go drives a whole script (Run) with positioned errors. A
// failing statement is reported and the calculator continues with the
// next one.
//
// Files, in reading order: lex.go, parse.go, ast.go, value.go, eval.go,
// run.go, errors.go.
package iscc
