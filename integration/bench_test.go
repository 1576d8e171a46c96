package integration

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
)

// BenchmarkSubmit measures the service as augur serve runs it by default
// (the API over one SQLite file, two in-process workers running the real
// verifier, the store's and the API's default polling): submissions per
// second and the latency of POST /v1/validations?wait=60s until the
// verdict, at the 50th, 90th and 99th percentiles, for
//
//   - cached: the kernel was validated before, the answer is the stored
//     verdict (8 clients at once);
//   - uncached: every kernel is new (a distinct comment line), so each
//     one is queued and validated (4 clients at once).
//
// The kernel is examples/outer/outer_split.sched, valid, one of the
// quickest to validate. Run it with a fixed count, e.g.
//
//	go test ./integration -run '^$' -bench Submit -benchtime 100x
func BenchmarkSubmit(b *testing.B) {
	var p pair
	for _, q := range loadPairs(b) {
		if q.program == "examples/outer/outer_split.sched" {
			p = q
		}
	}
	svc := startService(b, 2)
	sub := func(program string) submission {
		return submission{Spec: p.specText, SpecName: p.spec, Program: program, ProgramName: p.program,
			Meta: store.Meta{Repository: "integration/bench"}}
	}
	// The first validation, whose verdict the cached submissions reuse.
	if v, code, err := submit(svc.Client, svc.URL, "?wait=60s", sub(p.programText)); err != nil || code != http.StatusOK || v.Verdict != p.verdict {
		b.Fatalf("first validation: %v %d %+v", err, code, v)
	}

	run := func(b *testing.B, clients int, program func() string, cached bool) {
		lat := make([]time.Duration, b.N)
		var next atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		b.ResetTimer()
		start := time.Now()
		for range clients {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= b.N {
						return
					}
					t0 := time.Now()
					v, code, err := submit(svc.Client, svc.URL, "?wait=60s", sub(program()))
					lat[i] = time.Since(t0)
					switch {
					case err != nil:
						errs <- err
						return
					case code != http.StatusOK || v.Status != store.Done || v.Verdict != p.verdict:
						errs <- fmt.Errorf("submission %d: %d, status %s, verdict %q, want 200, done, %s", i, code, v.Status, v.Verdict, p.verdict)
						return
					case cached != (v.CachedFrom != ""):
						errs <- fmt.Errorf("submission %d: cached from %q, want cached %v", i, v.CachedFrom, cached)
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		b.StopTimer()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		slices.Sort(lat)
		pct := func(q float64) float64 {
			return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
		}
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "submissions/s")
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.90), "p90-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
	}

	b.Run("cached", func(b *testing.B) {
		run(b, 8, func() string { return p.programText }, true)
	})
	b.Run("uncached", func(b *testing.B) {
		prefix := rand.Uint64() // distinct across the benchmark's runs
		var n atomic.Int64
		run(b, 4, func() string {
			return fmt.Sprintf("# bench %x %d\n%s", prefix, n.Add(1), p.programText)
		}, false)
	})
}
