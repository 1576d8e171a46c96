package validate

import (
	"fmt"
	"strings"
)

// IndexResult is the outcome of one index overflow check (IndexCheck).
type IndexResult string

// The outcomes of an index overflow check.
const (
	// IndexProved: no point of the access's domain overflows.
	IndexProved IndexResult = "proved"
	// IndexOverflows: a witness, replayed, puts a term of the index
	// outside its type.
	IndexOverflows IndexResult = "overflows"
	// IndexUndecided: neither (a term the checker cannot read, or the
	// solver's resource limit).
	IndexUndecided IndexResult = "undecided"
)

// IndexCheck is the check that one access of a compiler's final code
// computes its flat index without signed overflow (Clément 2022, section
// 9.5): augur halide --validate at --stage final checks every load and
// store of Halide's final statement, whose int32 index arithmetic the
// kernel's delinearised accesses do not model.
type IndexCheck struct {
	// Access is "load" or "store"; Buffer the array; Index the flat index
	// as the compiler prints it.
	Access string `json:"access"`
	Buffer string `json:"buffer"`
	Index  string `json:"index"`
	// Result is the outcome; Reason says why an undecided check is, or
	// what an approximate witness left out.
	Result IndexResult `json:"result"`
	Reason string      `json:"reason,omitempty"`
	// Term is the overflowing subexpression of the index (or of a let it
	// reads), Bits its type's width, and Value its exact value at the
	// witness.
	Term  string `json:"term,omitempty"`
	Bits  int    `json:"bits,omitempty"`
	Value string `json:"value,omitempty"`
	// Dimension is the buffer's dimension whose stride the overflowing
	// term multiplies, -1 when it reads no stride or several.
	Dimension int `json:"dimension"`
	// Witness gives the parameters (buffer fields included), loop
	// variables and vector lane of the overflowing point.
	Witness []IndexValue `json:"witness,omitempty"`
	// Approximate is set on a witness found in a domain wider than the
	// access's (facts the checker could not read were left out): the
	// point may not be reached.
	Approximate bool `json:"approximate,omitempty"`
	// Resources is Z3's work on the check, in its resource units.
	Resources uint64 `json:"resources,omitempty"`
}

// IndexValue is one variable's value in an index overflow witness.
type IndexValue struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Summary is the check in one line, without its witness.
func (c IndexCheck) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s of %s at %s: %s", c.Access, c.Buffer, c.Index, c.Result)
	if c.Result == IndexOverflows {
		fmt.Fprintf(&b, ": %s = %s, outside int%d", c.Term, c.Value, c.Bits)
		if c.Dimension >= 0 {
			fmt.Fprintf(&b, " (%s's dimension %d)", c.Buffer, c.Dimension)
		}
	} else if c.Reason != "" {
		fmt.Fprintf(&b, " (%s)", c.Reason)
	}
	return b.String()
}

// String is the check in one line, with its witness.
func (c IndexCheck) String() string {
	var b strings.Builder
	b.WriteString(c.Summary())
	if c.Result == IndexOverflows {
		var w []string
		for _, v := range c.Witness {
			w = append(w, fmt.Sprintf("%s = %d", v.Name, v.Value))
		}
		fmt.Fprintf(&b, " at %s", strings.Join(w, ", "))
		if c.Approximate {
			b.WriteString(" (approximate: " + c.Reason + ")")
		}
	}
	return b.String()
}

// IndexOverflowReason is the reason of the UNKNOWN verdict a VALID one
// becomes when an index overflow check is not proved (see
// ApplyIndexChecks).
const IndexOverflowReason = "an index of the compiler's final code may overflow (signed overflow is undefined there), which the kernel's delinearised accesses do not model"

// ApplyIndexChecks records the index overflow checks in the report and
// makes a VALID verdict UNKNOWN when one of them is not proved, unless
// assume is set: the report then says the verdict assumes that no index
// overflows. An INVALID or UNKNOWN verdict keeps its reason.
func (r *Report) ApplyIndexChecks(checks []IndexCheck, assume bool) {
	r.IndexChecks = checks
	var open []IndexCheck
	for _, c := range checks {
		if c.Result != IndexProved {
			open = append(open, c)
		}
	}
	if len(open) == 0 {
		return
	}
	if assume {
		r.IndexOverflowAssumed = true
		return
	}
	if r.Verdict == Valid {
		r.Verdict = Unknown
		r.Reason = fmt.Sprintf("%s: %s", IndexOverflowReason, open[0].Summary())
	}
}

// writeIndexChecks lists the index checks not proved, and counts the
// others.
func writeIndexChecks(b *strings.Builder, r *Report) {
	if len(r.IndexChecks) == 0 {
		return
	}
	proved := 0
	var open []IndexCheck
	for _, c := range r.IndexChecks {
		if c.Result == IndexProved {
			proved++
		} else {
			open = append(open, c)
		}
	}
	fmt.Fprintf(b, "\nindex overflow: %d of %d accesses' indices proved within their types", proved, len(r.IndexChecks))
	if r.IndexOverflowAssumed {
		b.WriteString("; the verdict assumes the others do not overflow")
	}
	b.WriteString("\n")
	for _, c := range open {
		fmt.Fprintf(b, "  %s\n", c)
	}
}
