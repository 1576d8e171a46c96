package halide

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Sample is what Halide's JIT computed on one set of inputs: the parameter
// values (buffer mins and extents, int32 parameters), the input elements
// and the output elements, named as in the translation (docs/halide.md,
// "Checking against Halide's JIT").
type Sample struct {
	Params  map[string]int64
	Inputs  map[string]string // key(tensor, idx) -> value text
	Outputs []Cell
	// Derived are the translation's derived parameters, whose values
	// Check computes from the sample's inputs.
	Derived []DerivedParam
}

// Cell is one element of a tensor.
type Cell struct {
	Tensor string
	Index  []int64
	Value  string
}

func key(tensor string, idx []int64) string { return fmt.Sprint(tensor, idx) }

// ParseSample reads a sample: lines "param NAME = V", "in TENSOR I... = V",
// "out TENSOR I... = V" and "derived NAME = DEF" (DerivedParam).
func ParseSample(text string) (*Sample, error) {
	s := &Sample{Params: map[string]int64{}, Inputs: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, derivedKeyword+" ") {
			d, err := parseDerived(line)
			if err != nil {
				return nil, fmt.Errorf("sample line %d: %w", n, err)
			}
			s.Derived = append(s.Derived, d)
			continue
		}
		lhs, val, ok := strings.Cut(line, " = ")
		f := strings.Fields(lhs)
		if !ok || len(f) < 2 {
			return nil, fmt.Errorf("sample line %d: %q", n, line)
		}
		var idx []int64
		for _, x := range f[2:] {
			i, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("sample line %d: bad index %q", n, x)
			}
			idx = append(idx, i)
		}
		switch f[0] {
		case "param":
			v, err := strconv.ParseInt(val, 10, 64)
			if err != nil || len(f) != 2 {
				return nil, fmt.Errorf("sample line %d: %q", n, line)
			}
			s.Params[f[1]] = v
		case "in":
			s.Inputs[key(f[1], idx)] = val
		case "out":
			s.Outputs = append(s.Outputs, Cell{Tensor: f[1], Index: idx, Value: val})
		default:
			return nil, fmt.Errorf("sample line %d: %q", n, line)
		}
	}
	return s, sc.Err()
}

// CheckResult counts what Check compared.
type CheckResult struct {
	Assignments int64 // the kernel's assignments run, each checked against its annotation
	KernelCells int64 // the kernel's out cells checked against the specification
	HalideCells int   // Halide's output cells checked against the specification
}

// Check runs the kernel prog with the reference interpreter on the
// sample's inputs and parameters, against the specification spec
// evaluated on the same inputs (every annotation and every out cell
// checked), and compares every output cell Halide computed with the
// specification's value. The kernel and the specification are compared
// exactly; Halide's cells up to tolerance for floats, as value.Close
// compares (0: exactly), since Halide's code generator may contract
// multiplies and adds into fused ones.
func (s *Sample) Check(ctx context.Context, specText, progText string, tolerance float64) (*CheckResult, error) {
	return s.check(ctx, specText, progText, 0, tolerance, false)
}

// CheckTruncated is Check where an integer output cell of Halide's may
// also differ from the specification's by one, for a pipeline whose
// integer outputs convert floats: where Halide's code generator contracts
// a multiply and an add into a fused one (the tolerance of Check), a
// value a rounding away converts to the next integer. The kernel and the
// specification are still compared exactly.
func (s *Sample) CheckTruncated(ctx context.Context, specText, progText string, tolerance float64) (*CheckResult, error) {
	return s.check(ctx, specText, progText, 0, tolerance, true)
}

// CheckRounded is Check with the kernel's values compared with the
// specification's up to tolerance too, for a pipeline built without
// strict_float: Halide folds its float constants (x / 3 becomes
// x * 0.333333343) and reassociates, so the interpreter's binary32 run of
// the kernel and the specification's differ by rounding.
func (s *Sample) CheckRounded(ctx context.Context, specText, progText string, tolerance float64) (*CheckResult, error) {
	return s.check(ctx, specText, progText, tolerance, tolerance, false)
}

func (s *Sample) check(ctx context.Context, specText, progText string, kernelTol, tolerance float64, offByOne bool) (*CheckResult, error) {
	spec, errs := sare.Parse(&syntax.Source{Name: "spec.sare", Text: specText})
	if len(errs) > 0 {
		return nil, errs
	}
	sinfo, errs := sare.Check(spec)
	if len(errs) > 0 {
		return nil, errs
	}
	k, errs := sched.Parse(&syntax.Source{Name: "prog.sched", Text: progText})
	if len(errs) > 0 {
		return nil, errs
	}
	kinfo, errs := sched.Check(k, spec)
	if len(errs) > 0 {
		return nil, errs
	}
	inputs := sare.InputFunc(func(t *sare.Tensor, idx []int64) (value.Value, error) {
		text, ok := s.Inputs[key(t.Name.Name, idx)]
		if !ok {
			return value.Value{}, fmt.Errorf("the sample has no %s", expr.FormatIndex(t.Name.Name, idx, '(', ')'))
		}
		return value.Parse(t.Type, text)
	})
	params, err := s.derive(ctx, specText, inputs)
	if err != nil {
		return nil, err
	}
	newEval := func() (*sare.Evaluator, error) { return sare.NewEvaluator(spec, sinfo, params, inputs) }
	ev, err := newEval()
	if err != nil {
		return nil, err
	}
	// With garbage writes, the semantics validated (docs/validate.md):
	// Halide computes vectors and tiles past the end of the data, from
	// cells never written, into cells no output reads.
	res, err := sched.Run(ctx, k, kinfo, ev, sched.Options{Tolerance: kernelTol, GarbageWrites: true})
	if err != nil {
		var f *sched.Failure
		if errors.As(err, &f) {
			return nil, fmt.Errorf("the kernel fails on Halide's inputs:\n%s", f.Detail())
		}
		return nil, fmt.Errorf("running the kernel on Halide's inputs: %w", err)
	}
	out := &CheckResult{Assignments: res.Assignments, KernelCells: res.OutputCells}
	if ev, err = newEval(); err != nil {
		return nil, err
	}
	for _, c := range s.Outputs {
		t := spec.Tensor(c.Tensor)
		if t == nil {
			return nil, fmt.Errorf("the sample's output %s is not a tensor of the specification", c.Tensor)
		}
		want, err := value.Parse(t.Type, c.Value)
		if err != nil {
			return nil, err
		}
		got, err := ev.Eval(ctx, c.Tensor, c.Index)
		if err != nil {
			return nil, fmt.Errorf("evaluating %s: %w", expr.FormatIndex(c.Tensor, c.Index, '(', ')'), err)
		}
		same := got.Equal(want)
		if !same && tolerance > 0 {
			same = got.Close(want, tolerance)
		}
		if !same && offByOne {
			same = offByOneInt(got, want)
		}
		if !same {
			return nil, fmt.Errorf("%s: Halide computed %s, the specification %s",
				expr.FormatIndex(c.Tensor, c.Index, '(', ')'), want, got)
		}
		out.HalideCells++
	}
	return out, nil
}

// derive returns the sample's parameter values with those of its derived
// parameters (DerivedParam): each its computation, evaluated on the
// sample's inputs as a 0-d tensor added to the specification, the derived
// parameters 0 meanwhile (no computation reads one).
func (s *Sample) derive(ctx context.Context, specText string, inputs sare.Inputs) (map[string]int64, error) {
	d := s.Derived
	params := maps.Clone(s.Params)
	if len(d) == 0 {
		return params, nil
	}
	var b strings.Builder
	b.WriteString(specText)
	for i, p := range d {
		params[p.Name] = 0
		fmt.Fprintf(&b, "\ntensor augur_derived_%d() : i32\naugur_derived_%d() = %s\n", i, i, p.Def)
	}
	spec, errs := sare.Parse(&syntax.Source{Name: "spec.sare", Text: b.String()})
	if len(errs) > 0 {
		return nil, fmt.Errorf("the computations of the derived parameters: %w", errs)
	}
	info, errs := sare.Check(spec)
	if len(errs) > 0 {
		return nil, fmt.Errorf("the computations of the derived parameters: %w", errs)
	}
	ev, err := sare.NewEvaluator(spec, info, params, inputs)
	if err != nil {
		return nil, err
	}
	for i, p := range d {
		v, err := ev.Eval(ctx, fmt.Sprintf("augur_derived_%d", i), nil)
		if err != nil {
			return nil, fmt.Errorf("computing %s = %s: %w", p.Name, p.Def, err)
		}
		if v.IsUndef() {
			return nil, fmt.Errorf("%s = %s has no value on the sample's inputs", p.Name, p.Def)
		}
		params[p.Name] = v.Int64()
	}
	return params, nil
}

// offByOneInt reports whether a and b are defined integers of one type
// that differ by one.
func offByOneInt(a, b value.Value) bool {
	t := a.Type()
	if t != b.Type() || !t.IsInteger() || a.IsUndef() || b.IsUndef() {
		return false
	}
	if t.IsSigned() {
		d := a.Int64() - b.Int64()
		return d == 1 || d == -1
	}
	x, y := a.Uint64(), b.Uint64()
	return x-y == 1 || y-x == 1
}
