package compiler

import (
	"context"
	"testing"
)

// BenchmarkCompile compiles each example, plain, scheduled and
// autoscheduled: bounds inference (Presburger images and extrema at every
// loop level) dominates.
func BenchmarkCompile(b *testing.B) {
	for _, name := range []string{"matmul", "matmul_vec_par", "blur", "blur_fold", "blur_at", "conv1d_split", "stencils_at", "separable_at"} {
		b.Run(name, func(b *testing.B) {
			p := loadExampleB(b, name)
			for b.Loop() {
				if _, err := Compile(context.Background(), p, name, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, name := range allExamples {
		b.Run("auto/"+name, func(b *testing.B) {
			p := loadExampleB(b, name)
			for b.Loop() {
				if _, err := Compile(context.Background(), p, name, Options{Auto: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
