package value

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// exact spells the binary value f exactly in decimal, as Halide's front
// end prints its constants.
func exact(f float64) string {
	s := new(big.Rat).SetFloat64(f).FloatString(1100)
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}

func f32s(texts ...string) []Constant {
	out := make([]Constant, len(texts))
	for i, t := range texts {
		out[i] = Constant{Type: syntax.F32, Text: t}
	}
	return out
}

// srgb holds the constants of the sRGB-to-linear conversion of Halide's
// linear_blur app and what Halide's simplifier folds them into: x / 1.055
// becomes x * k1 with k1 the binary32 value nearest 1/1.055 (folded in
// binary64), and (x + 0.055) * k1 becomes x * k1 + k2 with k2 = 0.055 * k1.
func srgb() (c055, c1055, k1, k2 float32) {
	c055 = 0.055
	c1055 = 1.0 + c055
	k1 = float32(1 / float64(c1055))
	k2 = float32(float64(c055) * float64(k1))
	return
}

func TestDeriveReadings(t *testing.T) {
	third := exact(float64(float32(1.0 / 3)))
	c055, c1055, k1, k2 := srgb()
	cases := []struct {
		name         string
		spec, kernel []Constant
		want         map[string]string // literal text: expression read
	}{
		{"reciprocal", f32s("3.0"), f32s(third, "-"+third), map[string]string{third: "1 / 3"}},
		{"a wrong constant", f32s("3.0"), f32s("0.33", exact(float64(float32(0.33)))), nil},
		{"the float below 1/3", f32s("3.0"), f32s(exact(float64(math.Nextafter32(float32(1.0/3), 0)))), nil},
		{"the float above 1/3", f32s("3.0"), f32s(exact(float64(math.Nextafter32(float32(1.0/3), 1)))), nil},
		{"folded twice", f32s(exact(float64(c055)), exact(float64(c1055))), f32s(exact(float64(k1)), exact(float64(k2))),
			map[string]string{exact(float64(k1)): "1 / 1.055", exact(float64(k2)): "0.055 / 1.055"}},
		{"a constant of the specification", f32s("3.0", third), f32s(third), nil},
		{"exact", f32s(exact(float64(float32(1.0/12))), exact(float64(float32(2.0/12)))), f32s("2.0", "-2.0"), nil},
		{"spelled otherwise", f32s("0.1"), f32s(exact(float64(float32(0.1)))), map[string]string{exact(float64(float32(0.1))): "0.1"}},
		{"the largest float", f32s("3.0", exact(math.MaxFloat32)), f32s(exact(float64(math.Nextafter32(math.MaxFloat32, 0)))), nil},
		{"other type", []Constant{{syntax.F64, "3.0"}}, f32s(third), nil},
		{"binary64", []Constant{{syntax.F64, "3.0"}}, []Constant{{syntax.F64, exact(1.0 / 3)}}, map[string]string{exact(1.0 / 3): "1 / 3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := DeriveReadings(c.spec, c.kernel)
			got := map[string]string{}
			for _, rd := range r.List() {
				got[rd.Text] = rd.Expr
			}
			if len(got) != len(c.want) {
				t.Fatalf("readings %v, want %v", got, c.want)
			}
			for k, w := range c.want {
				if got[k] != w {
					t.Errorf("%s read as %q, want %q (all: %v)", k, got[k], w, got)
				}
			}
		})
	}
}

func TestReadingsRat(t *testing.T) {
	third := exact(float64(float32(1.0 / 3)))
	r := DeriveReadings(f32s("3.0"), f32s(third))
	for text, want := range map[string]*big.Rat{third: big.NewRat(1, 3), "-" + third: big.NewRat(-1, 3)} {
		got, ok := r.Rat(syntax.F32, text)
		if !ok || got.Cmp(want) != 0 {
			t.Errorf("Rat(f32, %s) = %v, %v; want %v", text, got, ok, want)
		}
	}
	if _, ok := r.Rat(syntax.F64, third); ok {
		t.Errorf("Rat(f64, %s) found: readings are by type", third)
	}
	if _, ok := r.Rat(syntax.F32, "3.0"); ok {
		t.Errorf("Rat(f32, 3.0) found: the literal keeps its own reading")
	}
	var none *Readings
	if _, ok := none.Rat(syntax.F32, third); ok || none.Len() != 0 || none.List() != nil {
		t.Errorf("a nil Readings holds readings")
	}
	if s := r.List()[0].String(); s != "0.33333334 as 1 / 3" {
		t.Errorf("String() = %q", s)
	}
}

// BenchmarkDeriveReadings derives from 40 distinct constants, the most
// for which expressions of two operations are tried.
func BenchmarkDeriveReadings(b *testing.B) {
	var spec []Constant
	for i := 1; i < maxLeavesTwoOps; i++ {
		spec = append(spec, Constant{syntax.F32, exact(float64(float32(1 + float64(i)/7)))})
	}
	kernel := f32s(exact(float64(float32(1.0/3))), "0.33", "2.0")
	for b.Loop() {
		DeriveReadings(spec, kernel)
	}
}

// TestDeriveReadingsCancelled: 1.0000001 * 3 - 3 evaluated in binary32
// is 2^-22 (the product rounds), 1.25 times its exact value 3 * 1.0000001
// - 3 over the binary constants: the literal is a binary evaluation of the
// expression but far from its value, and is not read as it.
func TestDeriveReadingsCancelled(t *testing.T) {
	a := float32(1.0000001)
	c := float32(a*3) - 3 // a*3 rounds in binary32
	exactVal := 3*float64(a) - 3
	if float64(c) == exactVal || math.Abs(float64(c)-exactVal) < 1e-3*exactVal {
		t.Fatalf("no cancellation: %v against %v", c, exactVal)
	}
	r := DeriveReadings(f32s(exact(float64(a)), "3.0"), f32s(exact(float64(c))))
	if r.Len() != 0 {
		t.Errorf("readings %v of a cancelled evaluation", r.List())
	}
}

// TestNear: a literal stands for x only within (2 ops + 3) units of
// roundoff of it.
func TestNear(t *testing.T) {
	tg := &target{c: float64(float32(1.0 / 3))}
	u := big.NewRat(1, 1<<24)
	at := func(k int64) *big.Rat { // c / (1 + k u): c is k u off, relatively
		d := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(k, 1), u))
		return new(big.Rat).Quo(new(big.Rat).SetFloat64(tg.c), d)
	}
	for _, c := range []struct {
		k    int64
		ops  int
		near bool
	}{{4, 1, true}, {6, 1, false}, {6, 2, true}, {8, 2, false}, {-4, 0, false}} {
		if got := tg.near(syntax.F32, at(c.k), c.ops); got != c.near {
			t.Errorf("%d units off, %d operations: near = %v", c.k, c.ops, got)
		}
	}
}
