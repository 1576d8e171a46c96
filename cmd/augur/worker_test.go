package main

import (
	"context"
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

// TestDatabaseErrorsHidePassword: when the database cannot be reached,
// neither augur serve's nor augur worker's error (nor their logs) shows
// the DSN's password.
func TestDatabaseErrorsHidePassword(t *testing.T) {
	const dsn = "postgres://augur:s3cr%3Dt@127.0.0.1:1/augur" // nothing listens on port 1
	for _, c := range []struct {
		name string
		run  func(errw *syncBuffer) error
	}{
		{"serve", func(errw *syncBuffer) error {
			return runServe(context.Background(), errw, serveFlags{addr: "127.0.0.1:0", db: dsn, logFormat: "text"})
		}},
		{"worker", func(errw *syncBuffer) error {
			return runWorker(context.Background(), errw, workerFlags{db: dsn, concurrency: 1, logFormat: "text"})
		}},
	} {
		var logs syncBuffer
		err := c.run(&logs)
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		if exitCode(err) != exitMalformed {
			t.Errorf("%s: exit %d, want %d", c.name, exitCode(err), exitMalformed)
		}
		if strings.Contains(err.Error(), "s3cr") || strings.Contains(logs.String(), "s3cr") {
			t.Errorf("%s shows the password: %v\n%s", c.name, err, logs.String())
		}
		if !strings.Contains(err.Error(), "postgres://augur:xxxxx@127.0.0.1:1/augur") {
			t.Errorf("%s: %v, want the DSN with its password masked", c.name, err)
		}
	}
}
