package presburger

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// mustParse parses an isl map, failing the test or benchmark t on error.
func mustParse(t testing.TB, s string) *Map {
	t.Helper()
	m, err := ParseMap(s)
	if err != nil {
		t.Fatalf("ParseMap(%q): %v", s, err)
	}
	return m
}

func pt(vs ...int64) []Int { return ints(vs...) }

// TestParseAtPoints checks small parsed objects at listed points (columns:
// params, in, out).
func TestParseAtPoints(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		src     string
		in, out [][]int64
	}{
		{"{ S[i] : 0 <= i < 4 }", [][]int64{{0}, {3}}, [][]int64{{-1}, {4}}},
		{"[N] -> { S[i] : 0 <= i < N }", [][]int64{{5, 0}, {5, 4}}, [][]int64{{5, 5}, {0, 0}}},
		{"[N] -> { A[i, j] -> B[i + j] : 0 <= i < N and exists (e = floor(j/4): j = 4e) }",
			[][]int64{{3, 0, 4, 4}, {3, 2, 8, 10}}, [][]int64{{3, 0, 4, 5}, {3, 0, 5, 5}, {3, 3, 0, 3}}},
		{"{ [i] : i mod 3 = 1 }", [][]int64{{1}, {4}, {-2}}, [][]int64{{0}, {2}, {-1}}},
		{"{ [i] : i % 3 = 1 }", [][]int64{{1}, {-2}}, [][]int64{{3}}},
		{"{ [i] : 2i = 6 or 2*i = 8 }", [][]int64{{3}, {4}}, [][]int64{{5}}},
		{"{ [i, j] : 0 <= i, j < 3 }", [][]int64{{0, 2}, {2, 0}}, [][]int64{{3, 0}, {0, -1}}},
		{"{ [i] : not (0 <= i <= 5) }", [][]int64{{-1}, {6}}, [][]int64{{0}, {5}}},
		{"{ [i] : i > 0 implies i > 5 }", [][]int64{{0}, {-3}, {6}}, [][]int64{{1}, {5}}},
		{"{ [i] : i <= min(3, 10 - i) }", [][]int64{{3}, {-7}}, [][]int64{{4}}},
		{"{ [i] : i >= max(0, 2 - i) and i < 4 }", [][]int64{{1}, {3}}, [][]int64{{0}, {4}}},
		{"{ [i] : floor((i + 1)/2) = 2 }", [][]int64{{3}, {4}}, [][]int64{{2}, {5}}},
		{"{ [i] : ceil(i/3) = 1 }", [][]int64{{1}, {3}}, [][]int64{{0}, {4}}},
		{"{ [i] -> [i] }", [][]int64{{2, 2}}, [][]int64{{2, 3}}},
		{"{ [i, i] }", [][]int64{{2, 2}}, [][]int64{{2, 3}}},
		{"{ [[i] -> [j]] : j = i + 1 }", [][]int64{{1, 2}}, [][]int64{{1, 1}}},
		{"{ [i] : i != 2 and 0 <= i <= 3 }", [][]int64{{0}, {3}}, [][]int64{{2}}},
		{"[N] -> { : N > 0 }", [][]int64{{1}}, [][]int64{{0}}},
		{"{ [i] : false }", nil, [][]int64{{0}}},
		{"{ [i] : (i) mod 2 = 0 and (i + 1 >= 0 or i <= -10) }", [][]int64{{0}, {-10}}, [][]int64{{-2}, {1}}},
		{"{ [i] : exists (a, b : i = 3a + 5b and a >= 0 and b >= 0) }", [][]int64{{0}, {3}, {8}, {11}}, [][]int64{{1}, {4}, {7}}},
		{"[M] -> { [i] : i <= M }", [][]int64{{3, 3}}, [][]int64{{2, 3}}},
		{"{ [i] : -2i >= 0 }", [][]int64{{0}, {-3}}, [][]int64{{1}}},
		{"{ A[i] -> B[j] : j = -3i + 1 }", [][]int64{{1, -2}, {0, 1}}, [][]int64{{1, 1}}},
		{"{ [i] : - 2(i + 1) >= 0 }", [][]int64{{-1}}, [][]int64{{0}}},
		{"{ A[i] -> B[j = 1 - 3i] }", [][]int64{{1, -2}}, [][]int64{{1, 1}}},
		{"[N] -> { [a[i0 = -4, i1] -> E[j0 = -2]] : N >= -3 and i1 <= 2 }", [][]int64{{0, -4, 2, -2}}, [][]int64{{0, -3, 2, -2}, {0, -4, 3, -2}}},
	}
	for _, c := range cases {
		m := mustParse(t, c.src)
		for _, p := range c.in {
			if ok, err := m.ContainsPoint(ctx, pt(p...)); err != nil || !ok {
				t.Errorf("%s: %v should be in (err %v); got %v", c.src, p, err, m)
			}
		}
		for _, p := range c.out {
			if ok, err := m.ContainsPoint(ctx, pt(p...)); err != nil || ok {
				t.Errorf("%s: %v should not be in (err %v); got %v", c.src, p, err, m)
			}
		}
		// Round trip.
		back, err := ParseMap(m.String())
		if err != nil {
			t.Errorf("%s: reparse of %q: %v", c.src, m.String(), err)
			continue
		}
		if eq, err := back.IsEqual(ctx, m); err != nil || !eq {
			t.Errorf("%s: round trip %q differs (err %v)", c.src, m.String(), err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		src, at string
		code    ErrorCode
	}{
		{"{ [i] : i >= }", "1:14", CodeSyntax},
		{"{ [i] : i }", "1:11", CodeSyntax},
		{"{ [i] ", "1:7", CodeSyntax},
		{"[N -> { }", "1:4", CodeSyntax},
		{"{ [i] : i @ 2 }", "1:11", CodeSyntax},
		{"{ [i] : i * i >= 0 }", "1:11", CodeNotAffine},
		{"{ [i] : i / 2 >= 0 }", "1:11", CodeNotAffine},
		{"{ [i, j] : floor(i/j) = 0 }", "1:12", CodeNotAffine},
		{"{ [i] : i <= M }", "1:14", CodeUndeclared},
		{"{ [i] : i mod 0 = 0 }", "1:11", CodeRange},
		{"{ [i] : floor(i/0) = 0 }", "1:9", CodeRange},
		{"{ [i] : floor(i, 2) = 0 }", "1:9", CodeArity},
	}
	for _, c := range cases {
		_, err := ParseMap(c.src)
		checkParseError(t, c.src, err, c.at, c.code)
	}
}

// checkParseError requires err to be a ParseError of the code at the
// position ("line:col").
func checkParseError(t *testing.T, src string, err error, at string, code ErrorCode) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Errorf("ParseMap(%q) = %v, want a ParseError of code %s at %s", src, err, code, at)
		return
	}
	if got := fmt.Sprintf("%d:%d", pe.Line, pe.Col); got != at || pe.Code != code {
		t.Errorf("ParseMap(%q) = %v [%s], want code %s at %s", src, err, pe.Code, code, at)
	}
}

// TestParseErrorWording keeps the rendering of one error to the byte.
func TestParseErrorWording(t *testing.T) {
	const want = `1:18: expected "," or ":" after the variables of exists, found identifier "x"`
	if _, err := ParseMap("{ [x] : exists x x > 0 }"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseUnion(t *testing.T) {
	ctx := context.Background()
	u, err := ParseUnionMap("[N] -> { A[i] -> B[i + 1] : 0 <= i < N; C[j] -> B[j] : j = 2; A[i] -> B[i] : i = N }")
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Maps()) != 2 {
		t.Fatalf("want 2 spaces, got %d: %v", len(u.Maps()), u)
	}
	back, err := ParseUnionMap(u.String())
	if err != nil {
		t.Fatalf("reparse %q: %v", u.String(), err)
	}
	if eq, err := back.IsEqual(ctx, u); err != nil || !eq {
		t.Fatalf("round trip differs: %v", u)
	}
	r := u.Range()
	if len(r.Maps()) != 1 {
		t.Fatalf("range: %v", r)
	}
	sv, err := u.IsSingleValued(ctx)
	if err != nil || !sv {
		t.Fatalf("single valued: %v %v", sv, err)
	}
	inj, err := u.IsInjective(ctx)
	if err != nil || inj {
		t.Fatalf("injective: %v %v (A[2]->B[3] and C[2]->B[2]... and A[N]->B[N])", inj, err)
	}
	e, err := ParseUnionMap("{ }")
	if err != nil {
		t.Fatal(err)
	}
	if empty, _ := e.IsEmpty(ctx); !empty {
		t.Fatal("{ } not empty")
	}
}

// TestParseExistsWithoutParentheses checks isl's existential without
// parentheses, "exists x, y : formula", whose formula extends as far to
// the right as possible: each set equals its parenthesised form, and both
// print to text that parses back to an equal set.
func TestParseExistsWithoutParentheses(t *testing.T) {
	ctx := context.Background()
	cases := []struct{ bare, paren string }{
		{"{ [i] : exists k : i = 4k and 0 <= i < 10 }",
			"{ [i] : exists (k : i = 4k and 0 <= i < 10) }"},
		{"{ [i] : exists a, b : i = 3a + 5b and a >= 0 and b >= 0 }",
			"{ [i] : exists (a, b : i = 3a + 5b and a >= 0 and b >= 0) }"},
		{"{ [i] : exists e = floor(i/3), f : i = 3e and f = e + 1 and 0 <= f < 4 }",
			"{ [i] : exists (e = floor(i/3), f : i = 3e and f = e + 1 and 0 <= f < 4) }"},
		// The scope takes in or and implies, and the variable is bound there.
		{"{ [i] : exists k : i = 2k and k >= 0 or i = 2k + 1 and k < -2 }",
			"{ [i] : exists (k : i = 2k and k >= 0 or i = 2k + 1 and k < -2) }"},
		{"{ [i] : exists k : i = 3k implies k > 1 }",
			"{ [i] : exists (k : i = 3k implies k > 1) }"},
		// It ends with the enclosing parentheses, or with the piece.
		{"{ [i] : (exists k : i = 2k and k > 0) or i = -1 }",
			"{ [i] : exists (k : i = 2k and k > 0) or i = -1 }"},
		{"{ A[i] : exists k : i = 2k and 0 <= k < 3; A[i] : exists k : i = 5k and k < 0 }",
			"{ A[i] : exists (k : i = 2k and 0 <= k < 3); A[i] : exists (k : i = 5k and k < 0) }"},
		// After and, not and implies, and nested.
		{"{ [i] : 0 <= i < 20 and exists k : i = 3k + 1 }",
			"{ [i] : 0 <= i < 20 and exists (k : i = 3k + 1) }"},
		{"{ [i] : 0 <= i < 20 and not exists k : i = 2k }",
			"{ [i] : 0 <= i < 20 and not (exists (k : i = 2k)) }"},
		{"{ [i] : i > 0 implies exists k : i = 2k }",
			"{ [i] : i > 0 implies exists (k : i = 2k) }"},
		{"{ [i, j] : exists a : i = 2a and exists b : j = 3b and a < b }",
			"{ [i, j] : exists (a : i = 2a and exists (b : j = 3b and a < b)) }"},
		{"[N] -> { A[i] -> B[j] : exists k : j = i + 2k and 0 <= k < N }",
			"[N] -> { A[i] -> B[j] : exists (k : j = i + 2k and 0 <= k < N) }"},
	}
	for _, c := range cases {
		bare := mustParse(t, c.bare)
		paren := mustParse(t, c.paren)
		if eq, err := bare.IsEqual(ctx, paren); err != nil || !eq {
			t.Errorf("%s = %v\ndiffers from %s = %v (err %v)", c.bare, bare, c.paren, paren, err)
		}
		for _, m := range []*Map{bare, paren} {
			back, err := ParseMap(m.String())
			if err != nil {
				t.Errorf("%s: reparse of %q: %v", c.bare, m.String(), err)
				continue
			}
			if eq, err := back.IsEqual(ctx, m); err != nil || !eq {
				t.Errorf("%s: round trip %q differs (err %v)", c.bare, m.String(), err)
			}
		}
	}
}

// TestParseExistsErrors checks the positioned errors of malformed
// existentials.
func TestParseExistsErrors(t *testing.T) {
	cases := []struct {
		src, at string
		code    ErrorCode
	}{
		{"{ [x] : exists : x > 0 }", "1:16", CodeSyntax},
		{"{ [x] : exists x x > 0 }", "1:18", CodeSyntax},
		{"{ [x] : exists y, : x = 2y }", "1:19", CodeSyntax},
		{"{ [x] : exists y }", "1:18", CodeSyntax},
		{"{ [x] : exists (y : x = 2y }", "1:28", CodeSyntax},
		{"{ [x] : exists (y) : x = 2y }", "1:18", CodeSyntax},
		// The variable is bound up to the enclosing parenthesis only.
		{"{ [x] : (exists y : x = 2y) and y > 0 }", "1:33", CodeUndeclared},
	}
	for _, c := range cases {
		_, err := ParseMap(c.src)
		checkParseError(t, c.src, err, c.at, c.code)
	}
}
