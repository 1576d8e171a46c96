package value

import (
	"math"
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
