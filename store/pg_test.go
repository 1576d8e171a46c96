package store

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/augur-verify/augur/internal/pgtest"
)

var pgServer = pgtest.New("augur_test") // the package's tests share one server

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(m.Run())
	}
	code := m.Run()
	pgServer.Stop()
	os.Exit(code)
}

// postgresDSN returns the DSN of a fresh database, or skips the test.
func postgresDSN(t *testing.T) string { t.Helper(); return pgServer.DSN(t) }

// TestPostgresOpenWhileWorking opens the store again and again, from
// several goroutines, while another store submits and works on the same
// database, as workers starting beside a running service do. Every Open
// succeeds: the schema's transaction neither takes the table's strongest
// lock when nothing is to be added nor gives up when PostgreSQL aborts it
// in a deadlock with a working transaction.
func TestPostgresOpenWhileWorking(t *testing.T) {
	dsn := postgresDSN(t)
	s := openT(t, dsn)
	s.work(2, okRunner("w"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			if _, err := s.Submit(ctx, &Validation{SpecName: "s.sare", Spec: fmt.Sprint("spec ", i),
				ProgramName: "p.sched", Program: "p", Meta: Meta{Labels: map[string]string{"i": fmt.Sprint(i)}}}); err != nil && ctx.Err() == nil {
				t.Errorf("Submit: %v", err)
				return
			}
		}
	})
	var opens sync.WaitGroup
	for range 4 {
		opens.Go(func() {
			for range 5 {
				o, err := Open(ctx, dsn, testOptions...)
				if err != nil {
					t.Errorf("Open while another store works: %v", err)
					return
				}
				o.Close()
			}
		})
	}
	opens.Wait()
	cancel()
	wg.Wait()
}
