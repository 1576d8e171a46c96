package validate

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend"
)

// TestEvalSMT evaluates the driver's SMT-LIB terms exactly, beyond int64
// too (the uint64 reading of a negative int32), with Euclidean div and mod.
func TestEvalSMT(t *testing.T) {
	env := map[string]int64{"a": 2147483647, "b": -7, "c": 2}
	for _, c := range []struct{ term, want string }{
		{"(+ a 1)", "2147483648"},
		{"(* a a)", "4611686014132420609"},
		{"(* (* a a) 4)", "18446744056529682436"},
		{"(- 0 (* a c))", "-4294967294"},
		{"(div b c)", "-4"},
		{"(mod b c)", "1"},
		{"(ite (< b 0) (+ b 18446744073709551616) b)", "18446744073709551609"},
		{"(and (<= (- 5) b) (not (= c 3)))", "0"},
		{"(or (> a b) false)", "1"},
	} {
		got, err := EvalSMT(c.term, env)
		if err != nil || got.String() != c.want {
			t.Errorf("EvalSMT(%s) = %v, %v; want %s", c.term, got, err, c.want)
		}
	}
	for _, bad := range []string{"(+ a", "(foo a)", "x", "(div a 0)"} {
		if _, err := EvalSMT(bad, env); err == nil {
			t.Errorf("EvalSMT(%s) has no error", bad)
		}
	}
}

// indexObligation is a store to out at x + m*s, the flat index of a
// buffer whose min m (dimension 1) is bounded by lo <= m, with a loop x
// in [0, 100) and a stride s in [1, 1000].
func indexObligation(lo string) frontend.IndexObligation {
	return frontend.IndexObligation{
		Access: "store", Buffer: "out", Index: "(x + (out.min.1*out.stride.1))",
		Vars:  []frontend.IndexVar{{SMT: "m", Name: "out.min.1", Kind: "param"}, {SMT: "s", Name: "out.stride.1", Kind: "param"}, {SMT: "x", Name: "x", Kind: "loop"}},
		Facts: []string{"(and (<= " + lo + " m) (<= m 2147483647))", "(and (<= 1 s) (<= s 1000))", "(<= 0 x)", "(< x 100)", "(<= m 1000)"},
		Terms: []frontend.IndexTerm{{SMT: "(+ x (* m s))", Halide: "(x + (out.min.1*out.stride.1))", Bits: 32}, {SMT: "(* m s)", Halide: "(out.min.1*out.stride.1)", Bits: 32}},
	}
}

// TestCheckIndexes decides index overflow obligations: proved where the
// facts bound the product, refuted with a witness that replays (dimension
// 1, named from the stride the term reads) where a min may be far from 0,
// undecided where the driver could not translate the index.
func TestCheckIndexes(t *testing.T) {
	ctx := context.Background()
	far := indexObligation("(- 2147483648)")
	undecided := indexObligation("0")
	undecided.Undecided = "the index reads memory: lut[x]"
	got, err := CheckIndexes(ctx, []frontend.IndexObligation{indexObligation("0"), far, undecided}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Result != IndexProved {
		t.Errorf("bounded min: %s, want proved", got[0])
	}
	o := got[1]
	if o.Result != IndexOverflows || o.Buffer != "out" || o.Dimension != 1 || o.Bits != 32 || len(o.Witness) != 3 {
		t.Fatalf("min far from 0: %s (dimension %d), want an overflow of out's dimension 1 with a witness", o, o.Dimension)
	}
	env := map[string]int64{}
	for _, w := range o.Witness {
		env[map[string]string{"out.min.1": "m", "out.stride.1": "s", "x": "x"}[w.Name]] = w.Value
	}
	v, err := EvalSMT(far.Terms[0].SMT, env)
	if err != nil || (o.Term == far.Terms[0].Halide && v.String() != o.Value) {
		t.Errorf("the witness gives %v (%v), the report %s", v, err, o.Value)
	}
	if v, _ := EvalSMT("(* m s)", env); v.Cmp(big.NewInt(-2147483648)) >= 0 {
		t.Errorf("the witness %v does not overflow the product: %v", o.Witness, v)
	}
	if got[2].Result != IndexUndecided || !strings.Contains(got[2].Reason, "reads memory") {
		t.Errorf("untranslated index: %s, want undecided naming it", got[2])
	}
	for i, c := range got {
		if c.Resources > IndexResources+IndexResources/10 {
			t.Errorf("check %d used %d of Z3's resources, over its budget", i, c.Resources)
		}
	}
}
