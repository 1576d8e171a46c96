//go:build isl

package islcheck

import (
	"testing"

	"github.com/augur-verify/augur/presburger"
)

// knownCases are the smallest inputs found on which the engine and isl
// disagreed, or on which the engine failed where isl answers. Each is run
// through the same operation as the random tests and passes once the
// engine is fixed; fixed cases stay as regression tests.
var knownCases = []struct {
	op     string
	set    bool
	inputs []string
	why    string
}{
	{"parse", true, []string{"{ [i] : -2i >= 0 }"},
		"the parser rejects implicit multiplication after a leading minus; isl reads -2i as -2*i"},
	{"parse", false, []string{"{ A[i] -> B[j] : j = -3i + 1 }"},
		"same, in a relation"},
	{"lexmin_pw", true, []string{"[N] -> { [i] : exists (a, b: i = 2a + 3b and 0 <= i <= N) }"},
		"lexmin fails with ErrUnsupportedExistential; isl gives [N] -> { [0] : N >= 0 }"},
	{"lexmin", true, []string{"[N] -> { [i] : exists (a, b: i = 2a + 3b and 0 <= i <= N) }"},
		"same, as a relation"},
	{"lexmin_pw", true, []string{"{ [a[i] -> E[j]] : 0 <= i <= 1 and 0 <= j <= 1 }"},
		"PwMultiAff.String drops the nested tuple: prints { [(0), (0)] } for { [a[0] -> E[0]] }"},
	{"lexmin_pw", false, []string{"{ A[i] -> [b[j] -> E[k]] : i <= k <= 3 and 0 <= j <= 1 }"},
		"same for a nested range: prints { A[i] -> [(0), (i)] : 3 >= i }"},
	{"lexmin_pw", true, []string{"{ S[i] : 1 = 0 }"},
		"an empty PwMultiAff printed as {  }, which loses its space"},
	{"lexmin_print", true, []string{"{ S[i, j] : i >= -3 and 2j >= i + 1 }"},
		"the lexmin keeps a division with a constant numerator and prints it as floor(-2/2), which isl does not read"},
}

// printOp applies LexMinMap and reads the engine's output into isl as
// printed, without the harness's rewriting of constant divisions.
func printOp() op {
	return op{name: "lexmin_print", run: func(e *env, in []obj) result {
		m, err := presburger.ParseMap(in[0].String())
		if err != nil {
			return differ("parse error: "+err.Error(), "", "engine rejects input")
		}
		l, err := presburger.LexMinMap(e.ctx, m)
		if err != nil {
			return engineFailed(err)
		}
		s, err := e.c.ReadSet(l.String())
		if err != nil {
			return differ(l.String(), "", "isl cannot read the engine's output: "+err.Error())
		}
		s.Free()
		return agreed()
	}}
}

func TestKnownCases(t *testing.T) {
	ops := map[string]op{}
	for _, o := range append(setOps(), printOp()) {
		ops[o.name] = o
	}
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			t.Error(err)
		}
	}()
	for _, kc := range knownCases {
		o, ok := ops[kc.op]
		if !ok {
			t.Fatalf("unknown operation %q", kc.op)
		}
		var in []obj
		for _, src := range kc.inputs {
			in = append(in, rawObj(src, kc.set))
		}
		res := runCase(c, o, in)
		if res.out != agree {
			t.Errorf("%s on %s: %s\n  engine: %s\n  isl:    %s\n  note: %s%s", kc.op, inputsString(in), kc.why, res.ours, res.isl,
				res.note, noteOf(outcomeName(res.out)))
		}
	}
}

func outcomeName(o outcome) string {
	return [...]string{"agree", "disagree", "engine error", "isl error", "skipped"}[o]
}

// TestPrintConstantDivision checks that a division whose numerator is a
// constant, which the API allows (AddLocalDiv), prints in a form isl reads:
// isl rejects "floor(-3/2)" and needs "floor((-3)/2)".
func TestPrintConstantDivision(t *testing.T) {
	sp := presburger.SetSpace(nil, presburger.FlatTuple("S", "i"))
	b := presburger.NewBasicMap(sp)
	b.AddLocalDiv([]presburger.Int{presburger.NewInt(0), presburger.NewInt(-3)}, presburger.NewInt(2))
	b.AddEq([]presburger.Int{presburger.NewInt(1), presburger.NewInt(-1), presburger.NewInt(0)})
	c := NewCtx()
	defer func() {
		if err := c.Free(); err != nil {
			t.Error(err)
		}
	}()
	want, err := c.ReadSet("{ S[-2] }")
	if err != nil {
		t.Fatal(err)
	}
	defer want.Free()
	got, err := c.ReadSet(b.String())
	if err != nil {
		t.Fatalf("isl cannot read %s: %v", b, err)
	}
	defer got.Free()
	if eq, err := got.IsEqual(want); err != nil || !eq {
		t.Errorf("%s read by isl as %s, want %s (%v)", b, got, want, err)
	}
}
