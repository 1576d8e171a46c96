package api

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// TestRunnerProgressCounts: the progress events of a real validation
// count one thing, the report's conditions: once known, Total is their
// number and stays so, Done never goes back and ends at Total, which the
// done event repeats; a progress bar built on them does not jump.
func TestRunnerProgressCounts(t *testing.T) {
	for _, prog := range []string{"blur/blur.sched", "blur/broken_wrong_row.sched", "matmul/matmul_tiled.sched"} {
		spec := "blur/blur.sare"
		if prog == "matmul/matmul_tiled.sched" {
			spec = "matmul/matmul.sare"
		}
		v := &store.Validation{SpecName: spec, Spec: example(t, spec), ProgramName: prog, Program: example(t, prog)}
		var events []store.Progress
		res, err := Runner(RunnerOptions{Jobs: 2})(context.Background(), v, func(p store.Progress) { events = append(events, p) })
		if err != nil {
			t.Fatalf("%s: %v", prog, err)
		}
		var rep validate.Report
		if err := json.Unmarshal(res.Report, &rep); err != nil {
			t.Fatal(err)
		}
		n := len(rep.Conditions)
		if n == 0 {
			t.Fatalf("%s: no conditions", prog)
		}
		prev := store.Progress{}
		for _, e := range events {
			if prev.Total > 0 && (e.Total != prev.Total || e.Done < prev.Done) {
				t.Errorf("%s: progress %+v after %+v: the count changed or went back (events %v)", prog, e, prev, events)
			}
			if e.Total != 0 && e.Total != n || e.Done > e.Total {
				t.Errorf("%s: progress %+v: want 0 or the report's %d conditions", prog, e, n)
			}
			prev = e
		}
		if prev != (store.Progress{Phase: "done", Done: n, Total: n}) {
			t.Errorf("%s: last progress %+v, want done %d of %d", prog, prev, n, n)
		}
	}
}
