package fuzz

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Bundle is a confirmed miscompilation, minimised, as its files: the
// original and minimised cases, a standalone C++ repro against Halide.h,
// Halide's lowered statement, Augur's translation and report.
type Bundle struct {
	Key      string
	Original *Case
	Case     *Case
	Region   Region
	Mismatch string // Halide's JIT on the minimised case
	Reason   string // Augur's on the minimised case
	Report   string
	Spec     string
	Sched    string
	Stmt     string
	// Crash is set when the minimised case makes Halide's compiler fail
	// with an internal error rather than compute wrong values.
	Crash bool
}

// NewBundle gathers the bundle of the minimised case m of c, wrong over
// the region r.
func NewBundle(ctx context.Context, d *Driver, v Validator, c, m *Case, r Region) (*Bundle, error) {
	b := &Bundle{Original: c, Case: m, Region: r}
	j, err := Confirm(ctx, d, m, r)
	if err != nil {
		return nil, err
	}
	switch {
	case j.Cause == "crash-scheduled":
		b.Mismatch = "the scheduled pipeline crashed: " + j.Msg
	case j.Cause != "":
		b.Mismatch = "the JIT failed: " + j.Cause + ": " + j.Msg
	default:
		b.Mismatch = fmt.Sprintf("%d cells differ, first at %s", j.Mismatch, j.First)
	}
	a, err := d.Do(ctx, m, "translate")
	if err != nil {
		return nil, err
	}
	if a.Cause != "" {
		b.Crash = a.Cause == internalError
		b.Reason = "not translated: " + a.Cause + ": " + a.Msg
	} else {
		b.Spec, b.Sched = a.Spec, a.Sched
		ver, err := v(ctx, a.Spec, a.Sched)
		if err != nil {
			return nil, err
		}
		b.Reason, b.Report = ver.Verdict+": "+ver.Reason, ver.Report
	}
	f, err := os.CreateTemp("", "augur-fuzz-stmt-*.txt")
	if err != nil {
		return nil, err
	}
	f.Close()
	defer os.Remove(f.Name())
	if s, err := d.Do(ctx, m, "stmt "+f.Name()); err != nil {
		return nil, err
	} else if s.Cause != "" {
		b.Stmt = "lowering failed: " + s.Msg + "\n"
	} else if t, err := os.ReadFile(f.Name()); err == nil {
		b.Stmt = string(t)
	}
	b.Key = signature(m)
	if b.Crash {
		b.Key = "crash " + b.Key
	}
	return b, nil
}

// Write writes the bundle's files into dir.
func (b *Bundle) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	what := "A miscompilation of stock Halide 14"
	if b.Crash {
		what = "An internal error of stock Halide 14's compiler"
	}
	readme := fmt.Sprintf("%s found by augur fuzz-halide.\n\n"+
		"case %s, minimised (case.txt; the original: original.txt)\n"+
		"output region (min extent per dimension; pad P: the inputs reach P cells past it): %s\n"+
		"Halide's JIT, scheduled against unscheduled: %s\n"+
		"Augur: %s\n\n"+
		"g++ -std=c++17 repro.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro && ./repro\n",
		what, b.Original.Name, b.Region, b.Mismatch, b.Reason)
	files := []struct{ name, text string }{
		{"README", readme},
		{"case.txt", b.Case.String()},
		{"original.txt", b.Original.String()},
		{"repro.cpp", Repro(b.Case.Pruned(), b.Region)},
		{"lowered.stmt", b.Stmt},
		{"augur.txt", b.Report},
		{"spec.sare", b.Spec},
		{"prog.sched", b.Sched},
	}
	for _, f := range files {
		if f.text == "" {
			continue
		}
		if err := writeFile(dir, f.name, f.text); err != nil {
			return err
		}
	}
	return nil
}

// Repro is a standalone C++ program against Halide.h that builds the
// case twice, scheduled and not, realises both with Halide's JIT over
// the region on the fuzz driver's inputs, with allocations filled with
// each poison byte, and prints the cells that differ; it exits 1 when
// some do.
func Repro(c *Case, r Region) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// A miscompilation of stock Halide 14, case %s (augur fuzz-halide).\n", c.Name)
	b.WriteString("// Build: g++ -std=c++17 repro.cpp -I/usr/include/halide14 -lHalide14 -lpthread -ldl -o repro\n")
	b.WriteString(reproHead)
	b.WriteString("Pipeline build(bool scheduled, std::vector<ImageParam> &inputs) {\n")
	b.WriteString("    Var x(\"x\"), y(\"y\"), z(\"z\");\n")
	p := &cxx{c: c, rdoms: map[string]string{}}
	for _, in := range c.Inputs {
		fmt.Fprintf(&b, "    ImageParam %s(%s, %d, %q);\n    inputs.push_back(%s);\n", in.Name, cxxType(in.Type), in.Dims, in.Name, in.Name)
	}
	for _, d := range c.Defs {
		b.WriteString(p.def(d))
	}
	b.WriteString("    if (scheduled) {\n")
	for _, d := range c.Sched {
		fmt.Fprintf(&b, "        %s;  // %s\n", p.directive(d), d)
	}
	fmt.Fprintf(&b, "    }\n    return Pipeline(%s);\n}\n\n", c.Output)
	fmt.Fprintf(&b, "int main() {\n    std::vector<int> mins{%s}, extents{%s};\n    int pad = %d;\n    Type t = %s;\n",
		joinInts(r.Mins), joinInts(r.Extents), r.InputMargin, cxxType(c.OutputType()))
	b.WriteString(reproMain)
	return b.String()
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

func cxxType(t Type) string {
	switch t {
	case Int16:
		return "Int(16)"
	case UInt8:
		return "UInt(8)"
	case Float32:
		return "Float(32)"
	}
	return "Int(32)"
}
