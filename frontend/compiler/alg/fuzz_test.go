package alg_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/frontend/compiler/alg"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/syntax"
)

// FuzzParse checks that parsing and checking never panic; that whatever
// parses prints to text that parses back to an Equal program and prints
// the same again; and that whatever checks either compiles, with the
// default schedule, to a specification and a kernel that load, or fails
// with an error (never a panic).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../../examples/alg/*.alg")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	for _, text := range []string{
		"param N\ninput A(x) : i32\nfunc F(x) : i32 = A(x)\nF(x) *= 2 where x % 2 == 0\nrdom r(k in 0 .. 4)\nF(x) -= A(x + r.k) where r.k != x % 4\noutput F over x in 0 .. N\n",
		"param N, M\ninput A(x, y) : u8\nfunc F(x, y) : u16 = u16(A(x, y)) + u16(A(max(x - 1, 0), y / 2))\noutput F over x in 0 .. N, y in 0 .. M\nschedule {\n  F.split(x, xo, xi, 8).parallel(xo)\n}\n",
		"param N\ninput A(x) : f32\nfunc F(x) : f32 = 0\nrdom r(k in 0 .. N, l in 1 .. 3)\nF(r.k) += A(r.k + r.l)\noutput F over x in 0 .. N\n",
	} {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, errs := alg.Parse(&syntax.Source{Name: "fuzz.alg", Text: text})
		cerrs := alg.Check(p)
		if len(errs) > 0 {
			return
		}
		printed := alg.Print(p)
		q, errs2 := alg.Parse(&syntax.Source{Name: "printed.alg", Text: printed})
		if len(errs2) > 0 {
			t.Fatalf("printed form does not parse: %v\ninput:\n%s\nprinted:\n%s", errs2.Detail(), text, printed)
		}
		if !alg.Equal(p, q) {
			t.Fatalf("parse(print(x)) != x\ninput:\n%s\nprinted:\n%s\nreprinted:\n%s", text, printed, alg.Print(q))
		}
		if p2 := alg.Print(q); p2 != printed {
			t.Fatalf("printing is not idempotent:\n%s\n%s", printed, p2)
		}
		if len(cerrs) > 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r, err := compiler.Compile(ctx, p, "fuzz", compiler.Options{})
		if err != nil {
			return
		}
		spec, _, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: r.Spec})
		if err != nil {
			t.Fatalf("the specification does not load: %v\ninput:\n%s\nspec:\n%s", err, text, r.Spec)
		}
		if _, _, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: r.Kernels[0].Text}, spec); err != nil {
			t.Fatalf("the kernel does not load: %v\ninput:\n%s\nkernel:\n%s", err, text, r.Kernels[0].Text)
		}
	})
}

// FuzzParseSchedule checks that schedule files parse without panics, print
// back to an equal schedule, and that whatever parses either compiles the
// blur algorithm to a pair that loads or is rejected with an error.
func FuzzParseSchedule(f *testing.F) {
	blur, err := os.ReadFile("../../../examples/alg/blur.alg")
	if err != nil {
		f.Fatal(err)
	}
	p, err := alg.Load(&syntax.Source{Name: "blur.alg", Text: string(blur)})
	if err != nil {
		f.Fatal(err)
	}
	for _, text := range []string{
		"Out.tile(x, y, xo, yo, xi, yi, 8, 8).vectorize(xi).parallel(yo)\nBH.compute_at(Out, xo)\n",
		"schedule {\n  BH.compute_at(Out, y).store_root().fold_storage(y, 4)\n}\n",
		"Out.split(y, yo, yi, 3, shift).specialize(W >= 8).vectorize(x, 4)\nBH.compute_inline()\n",
		"Out.fuse(x, y, t).parallel(t)\nBH.compute_root().align_bounds(x, 4, 1).bound(y, -1, H + 2)\n",
		"BH.compute_with(Out, y)\nOut.split(y, yo, yi, 4)\n",
	} {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, errs := alg.ParseSchedule(&syntax.Source{Name: "fuzz.schedule", Text: text})
		if len(errs) > 0 {
			return
		}
		printed := s.String()
		s2, errs2 := alg.ParseSchedule(&syntax.Source{Name: "printed.schedule", Text: printed})
		if len(errs2) > 0 {
			t.Fatalf("printed form does not parse: %v\ninput:\n%s\nprinted:\n%s", errs2.Detail(), text, printed)
		}
		if s2.String() != printed {
			t.Fatalf("printing is not idempotent:\n%s\n%s", printed, s2.String())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		src := &syntax.Source{Name: "fuzz.schedule", Text: text}
		r, err := compiler.Compile(ctx, p, "fuzz", compiler.Options{Schedule: s, ScheduleSrc: src})
		if err != nil {
			return
		}
		spec, _, err := sare.Load(&syntax.Source{Name: "spec.sare", Text: r.Spec})
		if err != nil {
			t.Fatalf("the specification does not load: %v", err)
		}
		if _, _, err := sched.Load(&syntax.Source{Name: "prog.sched", Text: r.Kernels[0].Text}, spec); err != nil {
			t.Fatalf("the kernel does not load: %v\nschedule:\n%s\nkernel:\n%s", err, text, r.Kernels[0].Text)
		}
	})
}
