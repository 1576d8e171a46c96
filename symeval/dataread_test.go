package symeval

import (
	"context"
	"strings"
	"testing"

	"github.com/augur-verify/augur/sched"
)

// lutSpec applies a computed table at a data-dependent index.
const lutSpec = `param N
assume N >= 1
input A(x) : i32
tensor L(v) : f32
L(v) = f32(v) * 0.5 where 0 <= v < 256
tensor O(x) : f32
O(x) = L(clamp(A(x), 0, 255))
output O
`

// lutKernel wraps the statements body in a kernel with a local table t
// of size cells.
func lutKernel(size, body string) string {
	return `kernel lut(N)
assume N >= 1
in  a[x] : i32[N] = A(x)
out o[x] : f32[N] = O(x)
{
  alloc t : f32[` + size + `] {
` + body + `
  }
}
`
}

const (
	lutFill = "    for v < 256 { t[v] {L(v)} := f32(v) * 0.5 }\n"
	lutUse  = "    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255)] }\n"
)

// letFill writes the table from the cell m = -1, which letUse subtracts
// from its index.
const (
	letFill = "    let m = -1\n    for v < 256 { t[v - m] {L(v)} := f32(v) * 0.5 }\n"
	letUse  = "    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255) - i32(m)] }\n"
)

// pwFill writes the table at cells offset by max(N - 5, 0); pwUse reads
// it at offset max(N - k, 0).
const pwFill = "    for v < 256 { t[v + max(N - 5, 0)] {L(v)} := f32(v) * 0.5 }\n"

func pwUse(k string) string {
	return "    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255) + max(i32(N) - " + k + ", 0)] }\n"
}

// dataConditions analyses the pair and returns its conditions by kind,
// in order.
func dataConditions(t *testing.T, spec, kernel string) map[sched.Kind][]*Condition {
	t.Helper()
	p := loadPair(t, "s.sare", spec, "k.sched", kernel)
	a, err := Analyze(context.Background(), p.kernel, p.kinfo, p.spec, p.sinfo, AnalyzeOptions{})
	if err != nil {
		t.Fatalf("analyze: %v", err)
	}
	out := map[sched.Kind][]*Condition{}
	for _, c := range a.Conditions {
		t.Logf("%s %s %s: %v %s", c.Kind, c.Pos, c.Text, c.Status, c.Reason)
		out[c.Kind] = append(out[c.Kind], c)
	}
	return out
}

// statuses returns the statuses of the conditions of the assignment of
// array o (the use of the table), in order.
func statuses(cs []*Condition, text string) []Status {
	var out []Status
	for _, c := range cs {
		if strings.Contains(c.Text, text) {
			out = append(out, c.Status)
		}
	}
	return out
}

func TestDataReadConditions(t *testing.T) {
	use := "o[x] {O(x)}"
	cases := []struct {
		name, spec, kernel string
		kind               sched.Kind
		text               string
		want               Status
		reason             string
	}{
		// The clamp's range lies within the table, which is all written.
		{"bounds by range", lutSpec, lutKernel("256", lutFill+lutUse), sched.OutOfBoundsRead, use, Proved, ""},
		{"defined by range", lutSpec, lutKernel("256", lutFill+lutUse), sched.UndefinedRead, use, Proved, ""},
		{"value", lutSpec, lutKernel("256", lutFill+lutUse), sched.WrongValue, use, Pending, ""},
		// One entry short: the bounds are the solver's.
		{"short table", lutSpec, lutKernel("255", strings.ReplaceAll(lutFill, "256", "255")+lutUse), sched.OutOfBoundsRead, use, Pending, ""},
		// Read before written: never in bounds, or undefined.
		{"unwritten table", lutSpec, lutKernel("256", lutUse+lutFill), sched.UndefinedRead, use, Pending, ""},
		// Half the table written: neither all nor none.
		{"half table", lutSpec, lutKernel("256", strings.ReplaceAll(lutFill, "v < 256", "v < 128")+lutUse), sched.UndefinedRead, use, Undecided, "some of its cells"},
		// A table shifted by one cell: its content is the cell plus an
		// offset, and the index's range shifted lies within the cells written.
		{"shifted table", lutSpec, lutKernel("257", "    for v < 256 { t[v + 1] {L(v)} := f32(v) * 0.5 }\n    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255) + 1] }\n"), sched.UndefinedRead, use, Proved, ""},
		{"shifted value", lutSpec, lutKernel("257", "    for v < 256 { t[v + 1] {L(v)} := f32(v) * 0.5 }\n    par x < N { o[x] {O(x)} := t[clamp(a[x], 0, 255) + 1] }\n"), sched.WrongValue, use, Pending, ""},
		// A table whose offset is a piecewise function of the parameter
		// (0 up to N = 5, N - 5 after): its content is affine in the cell
		// on each of two parameter domains, and the read's value has an
		// alternative on each (a condition for the solver, not undecided).
		// Its definedness is not decided: the offset is not a constant,
		// so the index's range is not known (valueRange).
		{"piecewise value", lutSpec, lutKernel("256 + max(N - 5, 0)", pwFill+pwUse("5")), sched.WrongValue, use, Pending, ""},
		{"piecewise bounds", lutSpec, lutKernel("256 + max(N - 5, 0)", pwFill+pwUse("5")), sched.OutOfBoundsRead, use, Pending, ""},
		{"piecewise defined", lutSpec, lutKernel("256 + max(N - 5, 0)", pwFill+pwUse("5")), sched.UndefinedRead, use, Undecided, "some of its cells"},
		// A table stored from a let bound to a constant, subtracted from
		// the index as Halide's realized mins are: the range shifted lies
		// within the table; read one cell further, it does not.
		{"let offset bounds", lutSpec, lutKernel("257", letFill+letUse), sched.OutOfBoundsRead, use, Proved, ""},
		{"let offset further", lutSpec, lutKernel("257", letFill+strings.Replace(letUse, "255) - i32(m)", "255) + 1 - i32(m)", 1)), sched.OutOfBoundsRead, use, Pending, ""},
		// A content that is not the cell itself at the read.
		{"reversed table", lutSpec, lutKernel("256", "    for v < 256 { t[v] {L(255 - v)} := f32(255 - v) * 0.5 }\n"+lutUse), sched.WrongValue, use, Undecided, "not one coordinate"},
		// The loop writes the table it reads at data-dependent indices.
		{"race", lutSpec, lutKernel("256", lutFill+"    par x < N { t[0] {L(0)} := 0.0\n o[x] {O(x)} := t[clamp(a[x], 0, 255)] }\n"), sched.ReadWriteRace, "par x < N", Undecided, "data-dependent index"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			byKind := dataConditions(t, c.spec, c.kernel)
			var found *Condition
			for _, cond := range byKind[c.kind] {
				if strings.Contains(cond.Text, c.text) && (found == nil || cond.Status != Proved) {
					found = cond
				}
			}
			if found == nil {
				t.Fatalf("no %s condition at %q", c.kind, c.text)
			}
			if found.Status != c.want || !strings.Contains(found.Reason, c.reason) {
				t.Errorf("%s: %v (%s), want %v (%q)", c.kind, found.Status, found.Reason, c.want, c.reason)
			}
			for kind, cs := range byKind {
				for _, cond := range cs {
					if cond.Status == Failed {
						t.Errorf("%s failed: a data-dependent read is never decided failed over Presburger sets", kind)
					}
				}
			}
		})
	}
}

// TestDataReadSpecRange checks that a specification reading a table at
// an index of unknown range (the whole of i32) is not declared undefined:
// the annotations on it are undecided, not failed.
func TestDataReadSpecRange(t *testing.T) {
	spec := strings.Replace(lutSpec, "L(clamp(A(x), 0, 255))", "L(A(x))", 1)
	kernel := lutKernel("256", lutFill+"    par x < N { o[x] {O(x)} := t[a[x]] }\n")
	byKind := dataConditions(t, spec, kernel)
	got := statuses(byKind[sched.UndefinedAnnotation], "o[x] {O(x)}")
	if len(got) != 1 || got[0] != Undecided {
		t.Errorf("undefined annotation: %v, want [undecided]", got)
	}
	for kind, cs := range byKind {
		for _, c := range cs {
			if c.Status == Failed {
				t.Errorf("%s failed", kind)
			}
		}
	}
}

func TestValueRange(t *testing.T) {
	spec := `param N
input A(x) : i32
input U(x) : u8
input F(x) : f32
tensor O(x) : i32
O(x) = A(0)
output O
`
	cases := []struct {
		text   string
		lo, hi int64
	}{
		{"clamp(A(x), 0, 255)", 0, 255},
		{"max(min(A(x), 255), 0)", 0, 255},
		{"i32(U(x))", 0, 255},
		{"i32(U(x)) + 1", 1, 256},
		{"clamp(A(x), 10, 5)", -1 << 31, 1<<31 - 1},
		{"min(i32(U(x)), -3)", -3, -3},
		{"clamp(A(x), 0, 255) + 1", 1, 256},
		{"i32(U(x)) - 10", -10, 245},
		{"A(x) + 1", -1 << 31, 1<<31 - 1},
		// Float clamps converted: truncation is monotone.
		{"i32(max(min(F(x), f32(255.0)), f32(0.0)))", 0, 255},
		{"i32(clamp(F(x), f32(-2.5), f32(7.75))) + 1", -1, 8},
		{"i32(min(F(x), f32(255.0)))", -1 << 31, 1<<31 - 1},
		{"i32(max(min(F(x), f32(3000000000.0)), f32(0.0)))", -1 << 31, 1<<31 - 1},
		{"i32(max(min(F(x), f32(1.0)), f32(1.0)))", 0, 1},
	}
	for _, c := range cases {
		p := loadPair(t, "s.sare", strings.Replace(spec, "A(0)", c.text, 1), "k.sched", "kernel k(N)\nout o[x] : i32[N] = O(x)\n{\n}\n")
		rhs := p.spec.Tensor("O").Eqs[0].RHS
		lo, hi, ok := valueRange(rhs, p.sinfo.Types)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("%s: [%d, %d] %v, want [%d, %d]", c.text, lo, hi, ok, c.lo, c.hi)
		}
	}
}
