package validate

import (
	"fmt"
	"strings"

	"github.com/augur-verify/augur/symeval"
)

// Script is the condition's SMT-LIB2 script as augur validate --emit-smt
// writes it and the service serves it: comments naming the condition, its
// status and how to read z3's answer, then the scripts of its query (SMT),
// which say in comments what was decided before the solver; "" when the
// condition has none.
func (c *ConditionResult) Script() string {
	if c.SMT == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; Augur condition C%d (%s) at %s:%d:%d: %s\n", c.ID, c.Kind, c.File, c.Line, c.Col, c.Text)
	status := string(c.Status)
	if c.Solver != "" {
		status += ", " + c.Solver
	}
	fmt.Fprintf(&b, "; status: %s\n", status)
	b.WriteString(comment("unsat means the condition holds. sat gives a point where, in this encoding, a side may be " +
		"undefined or the two sides differ, and z3 prints its model: a counterexample only once the report " +
		"confirms it (an encoding may leave elements of the specification uninterpreted). " +
		"z3 exits 0 whatever the answer."))
	b.WriteString(c.SMT)
	return b.String()
}

// commentWidth is the width comment wraps its text to.
const commentWidth = 78

// comment renders text as SMT-LIB2 comment lines, wrapped at spaces.
func comment(text string) string {
	var b strings.Builder
	line := ";"
	for _, w := range strings.Fields(text) {
		if len(line) > 1 && len(line)+1+len(w) > commentWidth {
			b.WriteString(line + "\n")
			line = ";"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// queryScript joins the scripts of the pieces of value condition ob's
// query under the encoding named encoding, after comments on what the
// scripts leave out: the two sides as the specification and the kernel
// write them, and the encoding. "" when there is no script.
func queryScript(ob *symeval.Obligation, encoding string, scripts []string) string {
	if len(scripts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(comment("the kernel's side: " + ob.ImplExpr() + holes("i", ob.Impl.Holes)))
	b.WriteString(comment("the specification's side: " + ob.SpecExpr() + holes("s", ob.Spec.Holes)))
	b.WriteString(comment("encoding: " + encoding))
	b.WriteString(comment("Each script below asserts the points of a piece of the condition (the parameters and holes " +
		"where it applies), then that a side is undefined or that the two sides differ there. " +
		"A piece without a script has the sides of an earlier piece, closed without the solver."))
	b.WriteString(strings.Join(scripts, "(reset)\n"))
	return b.String()
}

// holes names the n holes of a side, prefix1 to prefixn, in parentheses
// ("" when none).
func holes(prefix string, n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (hole " + prefix + "1)"
	case 2:
		return fmt.Sprintf(" (holes %s1 and %s2)", prefix, prefix)
	}
	return fmt.Sprintf(" (holes %s1 to %s%d)", prefix, prefix, n)
}

// sameTermsNote says why a piece's script asserts false: the sides met
// before any solver ran.
const sameTermsNote = "Decided before the solver: at these points, with the encoding's substitutions " +
	"(the parameters and holes that the points fix, the specification's elements replaced by their " +
	"equations as the encoding says), the kernel's side and the specification's side are the same " +
	"term, and both are defined, so their difference simplified to false (the last assertion). " +
	"z3 answers unsat at once."

// closedNote says how matching first closed a piece whose script follows,
// from closeQuickly's, closeDeep's or closeGroups' answer how.
func closedNote(how string) string {
	switch {
	case how == "same terms":
		return sameTermsNote
	case how == "same terms under shared guards":
		return "Decided before the solver: with the if-then-else guards that both sides share (their " +
			"other branches the same term) peeled off, the two sides are the same term, so they cannot " +
			"differ at these points. The query below is the one before peeling, unsatisfiable too."
	case how == "unsat":
		return fmt.Sprintf("Proved by z3's plain SMT kernel on the query below, within %d resource units.", matchFirstResources)
	case strings.HasPrefix(how, "unsat under shared guards"):
		return fmt.Sprintf("Proved by z3's plain SMT kernel within %d resource units (%s) on a stronger query: "+
			"the one below with the if-then-else guards that both sides share peeled off, so the query "+
			"below is unsatisfiable too.", matchFirstResources, how)
	}
	return ""
}
