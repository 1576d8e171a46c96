package main

import (
	"strings"
	"testing"
	"time"
)

// TestWorkerNeedsDB: augur worker has no default database (one of its
// own would hold no jobs): without --db it is a usage error, exit 3.
func TestWorkerNeedsDB(t *testing.T) {
	t.Chdir(t.TempDir()) // where a default database would be created
	type result struct {
		code        int
		out, errOut string
	}
	got := make(chan result, 1)
	go func() {
		code, out, errOut := augur("worker")
		got <- result{code, out, errOut}
	}()
	var r result
	select {
	case r = <-got:
	case <-time.After(time.Minute):
		t.Fatal("augur worker without --db is still running: it took a database of its own")
	}
	if r.code != exitUsage {
		t.Errorf("augur worker without --db: exit %d, want %d\n%s%s", r.code, exitUsage, r.out, r.errOut)
	}
	if !strings.Contains(r.errOut, "--db is required") || !strings.Contains(r.errOut, "usage: augur worker") {
		t.Errorf("augur worker without --db: stderr\n%s\nwant the missing flag named and the usage", r.errOut)
	}
}
