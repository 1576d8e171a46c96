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
