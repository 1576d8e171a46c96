package presburger_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/presburger/iscc"
)

// must parses s with parse, failing the test on error.
func must[T any](t testing.TB, parse func(string) (T, error), s string) T {
	t.Helper()
	v, err := parse(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func mustMap(t testing.TB, s string) *presburger.Map { return must(t, presburger.ParseMap, s) }

func mustUnion(t testing.TB, s string) *presburger.UnionMap {
	return must(t, presburger.ParseUnionMap, s)
}

// statements returns the non-comment lines of a trace.
func statements(trace string) []string {
	var out []string
	for line := range strings.SplitSeq(trace, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

var (
	assignRE = regexp.MustCompile(`^(R[0-9]+) := (.*);$`)
	opRE     = regexp.MustCompile(`^(.*); # (map|union) ([a-z_]+)(?:: (True|False))?$`)
	nameRE   = regexp.MustCompile(`\bR[0-9]+\b`)
)

func TestTraceRecordsOperations(t *testing.T) {
	var buf bytes.Buffer
	tr := presburger.NewTracer(&buf)
	ctx := presburger.WithTracer(context.Background(), tr)
	a := mustMap(t, "[N] -> { S[i] : 0 <= i < N }")
	b := mustMap(t, "[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }")
	r := mustMap(t, "[N] -> { S[i] -> T[j] : 0 <= i < N and 0 <= j <= i }")

	d, err := a.Subtract(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := d.IsEmpty(ctx); err != nil || e {
		t.Fatalf("is_empty: %v %v", e, err)
	}
	// IsEqual calls IsSubset, Subtract and IsEmpty: one line only.
	if eq, err := b.IsEqual(ctx, mustMap(t, b.String())); err != nil || !eq {
		t.Fatalf("is_equal: %v %v", eq, err)
	}
	if sub, err := b.IsSubset(ctx, a); err != nil || !sub {
		t.Fatalf("is_subset: %v %v", sub, err)
	}
	if _, err := presburger.LexMinMap(ctx, r); err != nil {
		t.Fatal(err)
	}
	if _, err := presburger.Coalesce(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := r.SubtractDomain(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Complement(ctx); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Sample(ctx); err != nil || p == nil {
		t.Fatalf("sample: %v %v", p, err)
	}
	u := presburger.NewUnionMap(a, r)
	if _, err := u.Simplify(ctx); err != nil {
		t.Fatal(err)
	}
	if e, err := u.IsEmpty(ctx); err != nil || e {
		t.Fatalf("union is_empty: %v %v", e, err)
	}
	// Not traced: no context.
	if _, err := a.Intersect(b); err != nil {
		t.Fatal(err)
	}

	wantOps := []string{
		"map subtract", "map is_empty: False", "map is_equal: True", "map is_subset: True",
		"map lexmin", "map coalesce", "map subtract_domain", "map complement", "map sample",
		"union simplify", "union is_empty: False",
	}
	var gotOps []string
	defined := map[string]string{}
	for _, s := range statements(buf.String()) {
		if m := assignRE.FindStringSubmatch(s); m != nil {
			if old, ok := defined[m[1]]; ok {
				t.Errorf("%s assigned twice: %s and %s", m[1], old, m[2])
			}
			for name, text := range defined {
				if text == m[2] {
					t.Errorf("operand %s assigned again as %s (already %s)", text, m[1], name)
				}
			}
			defined[m[1]] = m[2]
			continue
		}
		m := opRE.FindStringSubmatch(s)
		if m == nil {
			t.Errorf("not an operation: %q", s)
			continue
		}
		for _, n := range nameRE.FindAllString(m[1], -1) {
			if _, ok := defined[n]; !ok {
				t.Errorf("%q uses %s before its assignment", s, n)
			}
		}
		op := m[2] + " " + m[3]
		if m[4] != "" {
			op += ": " + m[4]
		}
		gotOps = append(gotOps, op)
	}
	if strings.Join(gotOps, "\n") != strings.Join(wantOps, "\n") {
		t.Errorf("operations recorded:\n%s\nwant:\n%s\ntrace:\n%s", strings.Join(gotOps, "\n"), strings.Join(wantOps, "\n"), buf.String())
	}
	if tr.Ops() != len(wantOps) {
		t.Errorf("Ops() = %d, want %d", tr.Ops(), len(wantOps))
	}
	if tr.Err() != nil {
		t.Error(tr.Err())
	}
	// b is the operand of four operations and is assigned once; a copy of
	// b prints identically and shares its name.
	if n := strings.Count(buf.String(), " := "+b.String()+";"); n != 1 {
		t.Errorf("b assigned %d times, want 1:\n%s", n, buf.String())
	}
}

// The trace of a run is a script that Augur's calculator runs, giving the
// answers the engine gave (sample, which isl's iscc has and the calculator
// lacks, is left out).
func TestTraceRunsInCalculator(t *testing.T) {
	var buf bytes.Buffer
	tr := presburger.NewTracer(&buf)
	tr.Comment("a header\nof two lines")
	ctx := presburger.WithTracer(context.Background(), tr)
	a := mustMap(t, "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 }")
	b := mustMap(t, "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 and (i + j) mod 3 = 0 }")
	c := mustMap(t, "[N] -> { S[i, j] : 0 <= i < N and j = 5 }")
	ua := mustUnion(t, "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4; T[k] : 0 <= k < N }")
	ub := mustUnion(t, "[N] -> { T[k] : 0 <= k < N }")
	var want []string
	check := func(ok bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, map[bool]string{true: "True", false: "False"}[ok])
	}
	check(b.IsSubset(ctx, a))
	check(a.IsSubset(ctx, b))
	check(a.IsEqual(ctx, b))
	d, err := a.Subtract(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, "set")
	check(c.IsEmpty(ctx))
	check(ub.IsSubset(ctx, ua))
	check(ua.IsEqual(ctx, ub))
	if _, err := presburger.Coalesce(ctx, d); err != nil {
		t.Fatal(err)
	}
	want = append(want, "set")
	if _, err := presburger.LexMax(ctx, b); err != nil {
		t.Fatal(err)
	}
	want = append(want, "set")

	if !strings.HasPrefix(buf.String(), "# a header\n# of two lines\n") {
		t.Errorf("trace does not start with the header:\n%s", buf.String())
	}
	var out, errOut bytes.Buffer
	if err := iscc.Run(context.Background(), "trace", strings.NewReader(buf.String()), &out, &errOut); err != nil {
		t.Fatalf("the calculator rejects the trace: %v\n%s\ntrace:\n%s", err, errOut.String(), buf.String())
	}
	got := statements(out.String())
	if len(got) != len(want) {
		t.Fatalf("calculator printed %d values, want %d:\n%s", len(got), len(want), out.String())
	}
	for i, w := range want {
		if w == "set" {
			if got[i] == "True" || got[i] == "False" {
				t.Errorf("value %d: got %s, want a set", i+1, got[i])
			}
			continue
		}
		if got[i] != w {
			t.Errorf("value %d: calculator says %s, engine said %s", i+1, got[i], w)
		}
	}
}

// Operations traced from concurrent goroutines are written as whole
// blocks: every name is assigned before it is used.
func TestTraceConcurrent(t *testing.T) {
	var buf bytes.Buffer
	tr := presburger.NewTracer(&buf)
	ctx := presburger.WithTracer(context.Background(), tr)
	const workers, each = 8, 20
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range each {
				a := mustMap(t, fmt.Sprintf("[N] -> { S[i] : %d <= i < N }", (w*each+k)%13))
				b := mustMap(t, fmt.Sprintf("[N] -> { S[i] : 0 <= i < N and i mod %d = 0 }", 2+k%5))
				if _, err := a.Subtract(ctx, b); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	defined := map[string]bool{}
	ops := 0
	for _, s := range statements(buf.String()) {
		if m := assignRE.FindStringSubmatch(s); m != nil {
			defined[m[1]] = true
			continue
		}
		if !opRE.MatchString(s) {
			t.Fatalf("garbled line %q", s)
		}
		ops++
		for _, n := range nameRE.FindAllString(s, -1) {
			if !defined[n] {
				t.Errorf("%q uses %s before its assignment", s, n)
			}
		}
	}
	if ops != workers*each || tr.Ops() != ops {
		t.Errorf("%d operations written, Ops() = %d, want %d", ops, tr.Ops(), workers*each)
	}
}

// A failed operation is written as a comment; nothing is written without
// a tracer in the context.
func TestTraceFailedAndOff(t *testing.T) {
	var buf bytes.Buffer
	tr := presburger.NewTracer(&buf)
	a := mustMap(t, "{ S[i, j] : 0 <= i < 100 and 0 <= j < 100 }")
	b := mustMap(t, "{ S[i, j] : exists k : i = 3k and j mod 7 = 2 }")
	ctx := presburger.WithBudget(presburger.WithTracer(context.Background(), tr), presburger.Budget{MaxSteps: 1})
	if _, err := a.Subtract(ctx, b); !errors.Is(err, presburger.ErrBudget) {
		t.Fatalf("subtract within 1 step: %v, want a budget error", err)
	}
	lines := statements(buf.String())
	if len(lines) != 2 || !strings.Contains(buf.String(), "\n# R1 - R2; # map subtract: failed: ") {
		t.Errorf("failed operation recorded as:\n%s", buf.String())
	}
	buf.Reset()
	if _, err := a.Subtract(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Subtract(presburger.WithTracer(context.Background(), nil), b); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("traced without a tracer: %q", buf.String())
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestTraceWriteError(t *testing.T) {
	w := &failingWriter{}
	tr := presburger.NewTracer(w)
	ctx := presburger.WithTracer(context.Background(), tr)
	a := mustMap(t, "{ S[i] : 0 <= i < 10 }")
	for range 3 {
		if _, err := a.IsEmpty(ctx); err != nil {
			t.Fatalf("a write error of the trace failed the operation: %v", err)
		}
	}
	if tr.Err() == nil || w.n != 1 {
		t.Errorf("Err() = %v after %d writes, want the first write's error and no more writes", tr.Err(), w.n)
	}
}

// BenchmarkTraceOff measures a traced operation without a tracer under a
// context as deep as the verifier's (cancellation, deadline, budget): the
// hook costs one context lookup and no allocation.
func BenchmarkTraceOff(b *testing.B) {
	a := mustMap(b, "[N] -> { S[i] : 0 <= i < N }")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = context.WithValue(ctx, struct{ k int }{1}, 1)
	ctx = presburger.WithBudget(ctx, presburger.Budget{MaxSteps: 1 << 20})
	ctx = context.WithValue(ctx, struct{ k int }{2}, 2)
	b.ReportAllocs()
	for b.Loop() {
		if e, err := a.IsEmpty(ctx); err != nil || e {
			b.Fatal(e, err)
		}
	}
}
