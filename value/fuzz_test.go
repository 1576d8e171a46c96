package value

import (
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// FuzzLiteral checks that Literal never panics, and that a value it
// accepts prints (String) to a spelling that Literal reads back to the
// same value.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{"0", "-128", "255", "0xFF", "1.5", ".5", "1.", "1e-3", "-0", "true", "16777217", "1e39"} {
		f.Add(s, uint8(syntax.I8))
	}
	f.Fuzz(func(t *testing.T, text string, ty uint8) {
		typ := syntax.Type(ty % 12)
		v, err := Literal(typ, text)
		if err != nil {
			return
		}
		if v.Type() != typ || v.IsUndef() {
			t.Fatalf("Literal(%s, %q) = %#v", typ, text, v)
		}
		s := v.String()
		if typ.IsFloat() {
			f := v.Float64()
			if math.IsInf(f, 0) || math.IsNaN(f) {
				t.Fatalf("Literal(%s, %q) = %v", typ, text, v)
			}
			if !strings.ContainsAny(s, ".e") {
				s += "."
			}
		}
		back, err := Literal(typ, s)
		if err != nil || !back.Equal(v) {
			t.Fatalf("Literal(%s, %q) = %v, which reads back as %#v (%v)", typ, text, v, back, err)
		}
	})
}

// FuzzDeriveReadings checks that DeriveReadings never panics on literals
// of any spelling, and that every reading it makes is of a kernel
// literal, within seven units of roundoff of the value it stands for.
func FuzzDeriveReadings(f *testing.F) {
	f.Add("3.0 0.055 1.055", "0.3333333432674407958984375 0.947867333889007568359375", false)
	f.Add("12.92 0.1", "0.077399380505084991455078125 -0.1 0.33", true)
	f.Fuzz(func(t *testing.T, spec, kernel string, f64 bool) {
		typ := syntax.F32
		u := 0x1p-24
		if f64 {
			typ, u = syntax.F64, 0x1p-53
		}
		consts := func(s string) []Constant {
			var out []Constant
			for _, w := range strings.Fields(s) {
				out = append(out, Constant{Type: typ, Text: w})
			}
			return out
		}
		ks := consts(kernel)
		r := DeriveReadings(consts(spec), ks)
		for _, rd := range r.List() {
			if !slices.ContainsFunc(ks, func(k Constant) bool { return strings.TrimPrefix(k.Text, "-") == rd.Text }) {
				t.Fatalf("reading of %q, not a kernel literal", rd.Text)
			}
			c := new(big.Rat).SetFloat64(rd.Value.Float64())
			d := new(big.Rat).Sub(c, rd.Rat)
			x, _ := new(big.Rat).Quo(d.Abs(d), new(big.Rat).Abs(rd.Rat)).Float64()
			if rd.Ops > MaxDerivedOps || x > 7*u {
				t.Fatalf("%s read as %s (%s): %g units of roundoff off", rd.Text, rd.Expr, rd.Rat.RatString(), x/u)
			}
		}
	})
}
