package validate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/augur-verify/augur/internal/corpus"
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
