package sare

import (
	"context"
	"testing"
)

// BenchmarkMatmul evaluates every element of C for 32x32x32 matrices.
func BenchmarkMatmul(b *testing.B) {
	spec, info := load(&testing.T{}, "matmul.sare", readFile(&testing.T{}, "../examples/matmul/matmul.sare"))
	const n = 32
	for b.Loop() {
		ev, err := NewEvaluator(spec, info, map[string]int64{"N": n, "M": n, "P": n}, RandomInputs(1))
		if err != nil {
			b.Fatal(err)
		}
		for i := int64(0); i < n; i++ {
			for j := int64(0); j < n; j++ {
				if _, err := ev.Eval(context.Background(), "C", []int64{i, j}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkRecurrence evaluates a histogram of 8 bins over 4,000
// pixels, each bin a scan over the pixels reached from its last step
// (TestRecurrenceEvaluatedOnce).
func BenchmarkRecurrence(b *testing.B) {
	spec, info := load(&testing.T{}, "hist.sare", histSpec)
	for b.Loop() {
		ev, err := NewEvaluator(spec, info, map[string]int64{"N": 4000}, RandomInputs(1))
		if err != nil {
			b.Fatal(err)
		}
		for x := int64(0); x < 8; x++ {
			if _, err := ev.Eval(context.Background(), "Hist", []int64{x}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
