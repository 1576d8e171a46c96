package presburger

import "testing"

func TestPrintShapes(t *testing.T) {
	cases := map[string]string{
		"{ S[i] : 0 <= i < 4 }":                     "{ S[i] : i >= 0 and 3 >= i }",
		"[N] -> { : N > 0 }":                        "[N] -> { : N >= 1 }",
		"{ A[i] -> B[] }":                           "{ A[i] -> B[] }",
		"{ [i] : exists (e = floor(i/4): i = 4e) }": "{ [i] : exists (e0 = floor(i/4): i = 4*e0) }",
	}
	for src, want := range cases {
		m := mustParse(t, src)
		if got := m.String(); got != want {
			t.Errorf("%s printed as %q, want %q", src, got, want)
		}
	}
}
