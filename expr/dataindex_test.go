package expr

import (
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// dataEnv gives X(i) = i8(i - 2) and U(i) = u8(250 + i) at every i, A(i,
// k) = f32(10 * i + k) for 0 <= i, k < 300 (undefined elsewhere), and an
// undefined X(7).
type dataEnv struct{}

func (dataEnv) Index(string) (int64, bool) { return 0, false }
func (dataEnv) Array(string, []int64) (value.Value, error) {
	return value.Undef(syntax.F32), nil
}
func (dataEnv) Tensor(name string, idx []int64) (value.Value, error) {
	switch name {
	case "X":
		if idx[0] == 7 {
			return value.Undef(syntax.I8), nil
		}
		return value.FromIndex(syntax.I8, idx[0]-2)
	case "U":
		return value.FromIndex(syntax.U8, 250+idx[0])
	}
	if idx[0] < 0 || idx[1] < 0 || idx[0] >= 300 || idx[1] >= 300 {
		return value.Undef(syntax.F32), nil
	}
	return value.FromIndex(syntax.F32, 10*idx[0]+idx[1])
}

func TestDataIndex(t *testing.T) {
	cases := []struct {
		text string
		want string // the value, or "undef"
	}{
		{"A(X(1), 0)", "undef"},                 // X(1) = -1: outside A's domain
		{"A(X(4), 3)", "23"},                    // X(4) = 2
		{"A(U(1), 1)", "2511"},                  // U(1) = 251, unsigned
		{"A(X(7), 0)", "undef"},                 // an undefined index
		{"A(i32(X(5)) + i32(U(0)), 1)", "2531"}, // 3 + 250 = 253
		// A conversion reads no tensor, but the index language has none:
		// a data-dependent index (a coordinate computed in float).
		{"A(i32(floor(f32(i32(7)) / f32(i32(2)))), 4)", "34"},
		{"A(i32(floor(f32(i32(-7)) / f32(i32(2)))), 0)", "undef"}, // -4
	}
	for _, c := range cases {
		x, info, errs := checkDataExpr(t, c.text)
		if errs != "" {
			t.Errorf("%s: %s", c.text, errs)
			continue
		}
		v, err := EvalValue(x, info, dataEnv{})
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		got := v.String()
		if v.IsUndef() {
			got = "undef"
		}
		if got != c.want {
			t.Errorf("%s = %s, want %s", c.text, got, c.want)
		}
	}
}

func TestDataIndexErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"A(A(0, 0), 0)", "e:1:3: data-dependent index A(0, 0) has type f32, want a signed integer type or u8, u16, u32"},
		{"A(u64(X(0)), 0)", "e:1:3: data-dependent index u64(X(0)) has type u64, want a signed integer type or u8, u16, u32"},
		{"A(i32(X(0)) + i, 0)", "e:1:15: index i used as a value must be cast, as in i32(i)"},
	}
	for _, c := range cases {
		_, _, errs := checkDataExpr(t, c.text)
		if !strings.HasPrefix(errs, c.want) {
			t.Errorf("%s: errors %q, want %q", c.text, errs, c.want)
		}
	}
	// Not allowed: the error of the index language.
	x, err := syntax.ParseExprString("A(X(0), 0)")
	if err != nil {
		t.Fatal(err)
	}
	r := &syntax.Reporter{Src: &syntax.Source{Name: "e", Text: "A(X(0), 0)"}}
	c := &Checker{R: r, Scope: testScope{}, Info: NewInfo(), AllowTensors: true}
	c.Value(x, syntax.Invalid)
	if len(r.Errs) != 1 || r.Errs[0].Error() != "e:1:3: tensor access X(0) in an index expression" {
		got := ""
		if len(r.Errs) > 0 {
			got = r.Errs[0].Error()
		}
		t.Errorf("without AllowDataIndex: %q", got)
	}
}

// checkDataExpr checks a value expression with data-dependent indices
// allowed, returning the errors' text.
func checkDataExpr(t *testing.T, text string) (syntax.Expr, *Info, string) {
	t.Helper()
	x, err := syntax.ParseExprString(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	r := &syntax.Reporter{Src: &syntax.Source{Name: "e", Text: text}}
	info := NewInfo()
	c := &Checker{R: r, Scope: testScope{}, Info: info, AllowTensors: true, AllowDataIndex: true}
	c.Value(x, syntax.Invalid)
	var msgs []string
	for _, e := range r.Errs {
		msgs = append(msgs, e.Error())
	}
	return x, info, strings.Join(msgs, "; ")
}

// TestIsDataIndexPlain checks IsDataIndex, which answers without
// Info.Types for an index of identifiers, literals and operators
// (plainIndex), against the types the checker recorded, at every index
// of the tensor accesses of checked expressions, and counts the
// data-dependent ones.
func TestIsDataIndexPlain(t *testing.T) {
	for _, tc := range []struct {
		text string
		data int
	}{
		{"A(i + 2 * j - 1, -k)", 0},
		{"A(X(i + 1), (N - 1) / 2)", 1},
		{"A(i32(X(-i)) + i32(U(0)), 0 - j)", 1},
		{"A(i32(floor(f32(i32(i)) / f32(i32(2)))), 4)", 1},
		{"A(i32(Z()), i32(U(j)) * 3)", 2},
	} {
		x, info, errs := checkDataExpr(t, tc.text)
		if errs != "" {
			t.Fatalf("%s: %s", tc.text, errs)
		}
		data := 0
		syntax.Inspect(x, func(n syntax.Expr) bool {
			c, ok := n.(*syntax.Call)
			if !ok || testTensors[c.Fun.Name].rank == 0 {
				return true
			}
			for _, a := range c.Args {
				_, typed := info.Types[a]
				if got := info.IsDataIndex(a); got != typed {
					t.Errorf("%s: IsDataIndex(%s) = %v, typed %v", tc.text, syntax.ExprString(a), got, typed)
				}
				if typed {
					data++
				}
			}
			return true
		})
		if data != tc.data {
			t.Errorf("%s: %d data-dependent indices, want %d", tc.text, data, tc.data)
		}
	}
}
