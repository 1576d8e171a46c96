package sare

import (
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// TestErrorCodes checks the kind of each error, which tools and tests
// match instead of its wording (syntax.Code).
func TestErrorCodes(t *testing.T) {
	for _, c := range []struct {
		src  string
		want syntax.Code
	}{
		{"param N\ntensor C(i) : f32\nC(i) = \noutput C\n", syntax.CodeSyntax},
		{"param N, N\ninput A(i) : f32\noutput A\n", syntax.CodeRedeclared},
		{"param N\ntensor C(i) : f32\nC(i) = B(i)\noutput C\n", syntax.CodeUndeclared},
		{"param N\ninput A(i) : f32\ntensor C(i) : f32\nC(i) = A(i) * N\noutput C\n", syntax.CodeType},
		{"param N\ninput A(i) : f32\ntensor C(i) : f32\nC(i) = A(i * i)\noutput C\n", syntax.CodeNotAffine},
		{"param N\ninput A(i) : f32\ntensor C(i) : f32\nC(i) = A(i, i)\noutput C\n", syntax.CodeArity},
		{"param N\ninput A(i) : f32\noutput A\n", syntax.CodeDefinition},
	} {
		spec, errs := Parse(&syntax.Source{Name: "t.sare", Text: c.src})
		if len(errs) == 0 {
			_, errs = Check(spec)
		}
		if len(errs) == 0 {
			t.Errorf("%q: no error, want one of code %q", c.src, c.want)
			continue
		}
		if errs[0].Code != c.want {
			t.Errorf("%q: first error %q has code %q, want %q", c.src, errs[0].Msg, errs[0].Code, c.want)
		}
	}
}
