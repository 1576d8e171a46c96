package validate

import (
	"cmp"
	"slices"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// LiteralReading is a float literal of the kernel that the real value
// model read as a constant derived from the specification's constants,
// rather than as the number it spells (docs/validate.md, "Value models").
type LiteralReading struct {
	// Literal is the literal as the kernel spells it, Type its type.
	Literal string `json:"literal"`
	Type    string `json:"type"`
	// Value is its binary value, in the shortest spelling that reads
	// back to it.
	Value string `json:"value"`
	// As is the expression over the specification's constants it was
	// read as ("1 / 3"), Exact that expression's value as a fraction
	// ("1/3").
	As    string `json:"as"`
	Exact string `json:"exact"`
}

// literalReadings derives the readings of the kernel's float literals in
// the real model (value.DeriveReadings); there are none in the ieee
// model, where every literal is its binary value.
func literalReadings(in *input, m encode.Model) *value.Readings {
	if m != encode.Real {
		return nil
	}
	kernel := floatLiterals(in.kinfo.Types)
	if len(kernel) == 0 {
		return nil
	}
	return value.DeriveReadings(floatLiterals(in.sinfo), kernel)
}

// floatLiterals lists the literals of float type among the typed
// expressions of info (a negated literal is a literal under a negation),
// sorted.
func floatLiterals(info *expr.Info) []value.Constant {
	if info == nil {
		return nil
	}
	var out []value.Constant
	for x, t := range info.Types {
		if lit, ok := x.(*syntax.Lit); ok && t.IsFloat() && lit.Kind != syntax.BoolLiteral {
			out = append(out, value.Constant{Type: t, Text: lit.Text})
		}
	}
	slices.SortFunc(out, func(a, b value.Constant) int {
		return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.Text, b.Text))
	})
	return slices.Compact(out)
}

// reportReadings describes the readings for the report.
func reportReadings(r *value.Readings) []LiteralReading {
	var out []LiteralReading
	for _, rd := range r.List() {
		out = append(out, LiteralReading{
			Literal: rd.Text, Type: rd.Type.String(), Value: rd.Value.String(),
			As: rd.Expr, Exact: rd.Rat.RatString(),
		})
	}
	return out
}
