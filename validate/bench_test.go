package validate

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/augur-verify/augur/internal/corpus"
	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/syntax"
)

// BenchmarkValidate validates every pair of the corpus (testdata/corpus)
// in the default value model, one job, and reports the time of each phase
// per validation (parse, symbolic, solve, confirm) in milliseconds.
// Run it with -benchtime=1x for one validation per pair.
func BenchmarkValidate(b *testing.B) {
	cases, err := corpus.Load(filepath.Join("..", "testdata", "corpus"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			s, p := benchSource(b, c.SpecFile), benchSource(b, c.ProgFile)
			phases := map[string]float64{}
			for b.Loop() {
				rep, err := Validate(context.Background(), s, p, Options{Jobs: 1})
				if err != nil {
					b.Fatal(err)
				}
				for _, t := range rep.Timings {
					phases[t.Phase] += t.Seconds
				}
			}
			for ph, sec := range phases {
				b.ReportMetric(sec*1e3/float64(b.N), ph+"-ms/op")
			}
		})
	}
}

// shapeCases are the corpus's small kernels of mixed bit-vector, integer
// and float arithmetic that a solver strategy must decide in seconds: a
// float truncated to an integer, a hash unrolled by 3, a Euclidean
// division by a negative divisor, an in binding with undefined cells
// never read, an index converted to a value, and a bit-vector hash
// converted to floats, with wrong variants.
var shapeCases = []string{
	"trunc8_halved", "trunc8_shift", "trunc8_signed", "trunc8_rounded",
	"hash_unroll3", "hash_unroll3_horner", "hash_unroll3_wrong_power",
	"ediv_wide", "ediv_negated", "ediv_truncating",
	"partial_padded", "partial_padded_both",
	"indexcast_sum", "indexcast_tiled", "indexcast_narrow", "indexcast_off_by_one",
	"rdinit_rows", "rdinit_vec8", "rdinit_swapped",
}

// BenchmarkShapes validates each of shapeCases in both value models, one
// job, and reports the process's CPU time (Z3's threads included) and the
// solver's resource units per validation. Run it with -benchtime=1x.
func BenchmarkShapes(b *testing.B) {
	cases, err := corpus.Load(filepath.Join("..", "testdata", "corpus"))
	if err != nil {
		b.Fatal(err)
	}
	byName := map[string]corpus.Case{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	for _, name := range shapeCases {
		c, ok := byName[name]
		if !ok {
			b.Fatalf("no corpus case %s", name)
		}
		for _, model := range []encode.Model{encode.Real, encode.IEEE} {
			b.Run(name+"/"+model.String(), func(b *testing.B) {
				s, p := benchSource(b, c.SpecFile), benchSource(b, c.ProgFile)
				var cpu float64
				var units uint64
				for b.Loop() {
					before := cpuSeconds()
					rep, err := Validate(context.Background(), s, p, Options{Jobs: 1, ValueModel: model})
					if err != nil {
						b.Fatal(err)
					}
					cpu += cpuSeconds() - before
					for _, r := range rep.Conditions {
						units += r.Resources
					}
				}
				b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(units)/float64(b.N), "units/op")
			})
		}
	}
}

// cpuSeconds is the CPU time, user and system, of the process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// BenchmarkUnconstrainedProduct validates equaliseKernel (hist's last
// stage, reduced: a pixel scaled by 255 over an i32 product of
// parameters that may overflow, unconstrained there) in the real model,
// one job, and reports the process's CPU time and the solver's resource
// units per validation.
func BenchmarkUnconstrainedProduct(b *testing.B) {
	s := &syntax.Source{Name: "e.sare", Text: equaliseSpec}
	p := &syntax.Source{Name: "e.sched", Text: equaliseKernel}
	var cpu float64
	var units uint64
	for b.Loop() {
		before := cpuSeconds()
		rep, err := Validate(context.Background(), s, p, Options{Jobs: 1})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Verdict != Valid {
			b.Fatalf("%s (%s), want VALID", rep.Verdict, rep.Reason)
		}
		cpu += cpuSeconds() - before
		for _, r := range rep.Conditions {
			units += r.Resources
		}
	}
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(units)/float64(b.N), "units/op")
}
