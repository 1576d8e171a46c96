package validate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkValidate validates every valid example kernel and reports the
// time of each phase per validation (parse, symbolic, solve, confirm) as
// custom metrics, in milliseconds.
func BenchmarkValidate(b *testing.B) {
	specs, _ := filepath.Glob(filepath.Join("..", "examples", "*", "*.sare"))
	for _, spec := range specs {
		progs, _ := filepath.Glob(filepath.Join(filepath.Dir(spec), "*.sched"))
		for _, prog := range progs {
			name := strings.TrimSuffix(filepath.Base(prog), ".sched")
			b.Run(name, func(b *testing.B) {
				s, p := benchSource(b, spec), benchSource(b, prog)
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
}
