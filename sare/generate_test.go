package sare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// specGen writes random well-typed specifications: one input tensor In_t
// and one computed tensor T_t per type t, each T_t defined by a random
// value expression of type t over the inputs.
type specGen struct {
	r *rand.Rand
}

var genTypes = []syntax.Type{syntax.Bool, syntax.I8, syntax.I16, syntax.I32, syntax.I64,
	syntax.U8, syntax.U16, syntax.U32, syntax.U64, syntax.F32, syntax.F64}

func (g *specGen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

func (g *specGen) numericType() syntax.Type { return genTypes[1+g.r.IntN(len(genTypes)-1)] }

// index writes a quasi-affine index expression in i, j, N and M.
func (g *specGen) index(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.pick("i", "j", "N", "M", "0", "1", "-2", "7")
	}
	a, b := g.index(d-1), g.index(d-1)
	switch g.r.IntN(8) {
	case 0:
		return a + " + " + b
	case 1:
		return a + " - (" + b + ")"
	case 2:
		return g.pick("2", "3", "-1") + " * (" + a + ")"
	case 3:
		return "(" + a + ") / " + g.pick("1", "2", "4")
	case 4:
		return "(" + a + ") % " + g.pick("1", "3", "8")
	case 5:
		return "min(" + a + ", " + b + ")"
	case 6:
		return "max(" + a + ", " + b + ")"
	}
	return "select(" + g.cond(d-1) + ", " + a + ", " + b + ")"
}

// cond writes a constraint.
func (g *specGen) cond(d int) string {
	switch g.r.IntN(5) {
	case 0:
		if d > 0 {
			return "(" + g.cond(d-1) + " " + g.pick("and", "or", "&&", "||") + " " + g.cond(d-1) + ")"
		}
	case 1:
		if d > 0 {
			return "not (" + g.cond(d-1) + ")"
		}
	case 2:
		return g.index(d) + " <= " + g.index(d) + " < " + g.index(d)
	}
	return g.index(d) + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " " + g.index(d)
}

func (g *specGen) literal(t syntax.Type) string {
	switch {
	case t == syntax.Bool:
		return g.pick("true", "false")
	case t.IsFloat():
		return g.pick("0", "1", "1.5", ".25", "2.", "1e-2", "3")
	}
	return g.pick("0", "1", "3", "100", "0x1F", "127")
}

// value writes a value expression of type t.
func (g *specGen) value(t syntax.Type, d int) string {
	access := func() string { return fmt.Sprintf("In_%s(%s, %s)", t, g.index(1), g.index(1)) }
	if d <= 0 {
		if g.r.IntN(3) == 0 {
			return g.literal(t)
		}
		return access()
	}
	sub := func() string { return "(" + g.value(t, d-1) + ")" }
	if t == syntax.Bool {
		switch g.r.IntN(6) {
		case 0:
			u := g.numericType()
			return g.value(u, d-1) + " " + g.pick("==", "!=", "<", "<=", ">", ">=") + " (" + g.value(u, d-1) + ")"
		case 1:
			return sub() + " " + g.pick("and", "or") + " " + sub()
		case 2:
			return "not " + sub()
		case 3:
			return g.cond(d - 1)
		case 4:
			u := g.numericType()
			return "(" + g.value(u, d-1) + ") < (" + g.value(u, d-1) + ") <= (" + g.value(u, d-1) + ")"
		}
		return "select(" + g.value(syntax.Bool, d-1) + ", " + sub() + ", " + sub() + ")"
	}
	switch g.r.IntN(9) {
	case 0:
		return sub() + " " + g.pick("+", "-", "*", "/", "%") + " " + sub()
	case 1:
		if t.IsUnsigned() {
			return "-" + access()
		}
		return "-" + sub()
	case 2:
		if t.IsInteger() {
			return sub() + " " + g.pick("&", "|", "^", "<<", ">>") + " " + sub()
		}
		return g.pick("sqrt", "exp", "log", "floor", "ceil", "round", "sin", "cos", "tanh", "fast_inverse", "fast_inverse_sqrt", "abs") + "(" + g.value(t, d-1) + ")"
	case 3:
		if t.IsInteger() {
			return "~" + sub()
		}
		return "pow(" + g.value(t, d-1) + ", " + g.value(t, d-1) + ")"
	case 4:
		u := genTypes[g.r.IntN(len(genTypes))]
		inner := g.value(u, d-1)
		if !strings.Contains(inner, "In_") {
			// A cast of literals alone may be an index expression, where
			// a divisor must be a positive constant.
			inner = fmt.Sprintf("In_%s(i, j)", u)
		}
		return fmt.Sprintf("%s(%s)", t, inner)
	case 5:
		return fmt.Sprintf("%s(%s)", t, g.index(d-1))
	case 6:
		return g.pick("min", "max") + "(" + g.value(t, d-1) + ", " + g.value(t, d-1) + ")"
	case 7:
		return "clamp(" + g.value(t, d-1) + ", " + g.literal(t) + ", " + g.value(t, d-1) + ")"
	}
	return "select(" + g.value(syntax.Bool, d-1) + ", " + sub() + ", " + sub() + ")"
}

func (g *specGen) spec() string {
	var b strings.Builder
	b.WriteString("param N, M\nassume N >= 0 and M >= 0\n")
	for _, t := range genTypes {
		fmt.Fprintf(&b, "input In_%s(i, j) : %s\n", t, t)
	}
	var outs []string
	for _, t := range genTypes {
		fmt.Fprintf(&b, "tensor T_%s(i, j) : %s\n", t, t)
		fmt.Fprintf(&b, "T_%s(i, j) = %s where %s\n", t, g.value(t, 3), g.cond(1))
		fmt.Fprintf(&b, "T_%s(i, j) = %s where not (%s)\n", t, g.value(t, 2), "i == j")
		outs = append(outs, "T_"+t.String())
	}
	// A recurrence along k, reading the other tensors.
	t := genTypes[g.r.IntN(len(genTypes))]
	fmt.Fprintf(&b, "tensor Rec(i, j, k) : %s\n", t)
	fmt.Fprintf(&b, "Rec(i, j, k) = %s where k == -1\n", g.value(t, 2))
	fmt.Fprintf(&b, "Rec(i, j, k) = select(%s, Rec(i, j, k - 1), T_%s(k, i)) where 0 <= k < N + 2\n", g.value(syntax.Bool, 2), t)
	outs = append(outs, "Rec")
	fmt.Fprintf(&b, "output %s\n", strings.Join(outs, ", "))
	return b.String()
}

// TestGeneratedSpecs checks random well-typed specifications end to end:
// each must check without error, print and parse back Equal, survive
// JSON, and evaluate without any error but those a valid specification
// may meet (overlapping equations, index overflow).
func TestGeneratedSpecs(t *testing.T) {
	seed := uint64(2026)
	n := 100
	if testing.Short() {
		n = 30
	}
	// SARE_GEN_SPECS=count[,seed] runs a longer or different campaign.
	if env := os.Getenv("SARE_GEN_SPECS"); env != "" {
		if _, err := fmt.Sscanf(env, "%d,%d", &n, &seed); err != nil {
			if _, err := fmt.Sscanf(env, "%d", &n); err != nil {
				t.Fatalf("SARE_GEN_SPECS=%q: want count[,seed]", env)
			}
		}
	}
	g := &specGen{r: rand.New(rand.NewPCG(seed, 11))}
	for k := range n {
		text := g.spec()
		src := &syntax.Source{Name: fmt.Sprintf("gen%d.sare", k), Text: text}
		spec, info, err := Load(src)
		if err != nil {
			t.Fatalf("generated specification does not check:\n%s\n%s", err.(syntax.ErrorList).Detail(), text)
		}
		runFuzzBody(t, text)
		ev, err := NewEvaluator(spec, info, map[string]int64{"N": 3, "M": 2}, RandomInputs(uint64(k)))
		if err != nil {
			t.Fatal(err)
		}
		for _, tensor := range spec.Tensors {
			if tensor.Input {
				continue
			}
			for i := int64(-2); i <= 2; i++ {
				for j := int64(-1); j <= 1; j++ {
					idx := []int64{i, j}
					if tensor.Rank() == 3 {
						idx = append(idx, i+j+2)
					}
					_, err := ev.Eval(context.Background(), tensor.Name.Name, idx)
					if err != nil && !expectedEvalError(err) {
						t.Fatalf("%s(%d, %d): %v\n%s", tensor.Name.Name, i, j, err, text)
					}
				}
			}
		}
	}
}
