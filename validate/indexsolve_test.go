package validate

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/augur-verify/augur/frontend"
)

// indexObligation is a store to out at x + m*s, the flat index of a
// buffer whose min m (dimension 1) is bounded by lo <= m, with a loop x
// in [0, 100) and a stride s in [1, 1000].
func indexObligation(t *testing.T, lo string) frontend.IndexObligation {
	return frontend.IndexObligation{
		Access: "store", Buffer: "out", Index: "(x + (out.min.1*out.stride.1))",
		Vars:  []frontend.IndexVar{{SMT: "m", Name: "out.min.1", Kind: "param"}, {SMT: "s", Name: "out.stride.1", Kind: "param"}, {SMT: "x", Name: "x", Kind: "loop"}},
		Facts: terms(t, "(and (<= "+lo+" m) (<= m 2147483647))", "(and (<= 1 s) (<= s 1000))", "(<= 0 x)", "(< x 100)", "(<= m 1000)"),
		Terms: []frontend.IndexTerm{{Term: terms(t, "(+ x (* m s))")[0], Halide: "(x + (out.min.1*out.stride.1))", Bits: 32}, {Term: terms(t, "(* m s)")[0], Halide: "(out.min.1*out.stride.1)", Bits: 32}},
	}
}

// terms reads SMT-LIB terms.
func terms(t *testing.T, srcs ...string) []*frontend.IntTerm {
	t.Helper()
	out := make([]*frontend.IntTerm, len(srcs))
	for i, s := range srcs {
		x, err := frontend.ParseIntTerm(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		out[i] = x
	}
	return out
}

// TestCheckIndexes decides index overflow obligations: proved where the
// facts bound the product, refuted with a witness that replays (dimension
// 1, named from the stride the term reads) where a min may be far from 0,
// undecided where the driver could not translate the index.
func TestCheckIndexes(t *testing.T) {
	ctx := context.Background()
	far := indexObligation(t, "(- 2147483648)")
	undecided := indexObligation(t, "0")
	undecided.Undecided = "the index reads memory: lut[x]"
	got, err := CheckIndexes(ctx, []frontend.IndexObligation{indexObligation(t, "0"), far, undecided}, 0)
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
	v, err := far.Terms[0].Term.Eval(env)
	if err != nil || (o.Term == far.Terms[0].Halide && v.String() != o.Value) {
		t.Errorf("the witness gives %v (%v), the report %s", v, err, o.Value)
	}
	if v, _ := terms(t, "(* m s)")[0].Eval(env); v.Cmp(big.NewInt(-2147483648)) >= 0 {
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
