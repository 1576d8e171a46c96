package sched

import (
	"fmt"
	"testing"

	"github.com/augur-verify/augur/syntax"
)

// A chain of garbage writes longer than maxPathSteps names its first and
// last steps and counts the others.
func TestGarbageStepString(t *testing.T) {
	var last *GarbageStep
	for i := range 8 {
		last = &GarbageStep{Pos: syntax.Pos{Line: 3, Col: 5}, Env: []Var{{Name: "k", Value: int64(i)}},
			Read: fmt.Sprintf("acc[%d]", i), Wrote: fmt.Sprintf("acc[%d]", i+1), From: last}
	}
	want := "acc[0] (never written) read at 3:5 (at k=0), ⊥ written into acc[1]; " +
		"acc[1] read at 3:5 (at k=1), ⊥ written into acc[2]; " +
		"acc[2] read at 3:5 (at k=2), ⊥ written into acc[3]; " +
		"acc[3] read at 3:5 (at k=3), ⊥ written into acc[4]; " +
		"3 more garbage writes; " +
		"acc[7] read at 3:5 (at k=7), ⊥ written into acc[8]"
	if got := last.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if o := last.Origin(); o.Read != "acc[0]" {
		t.Errorf("origin reads %s, want acc[0]", o.Read)
	}
}
