package smt

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// BenchmarkBuildSmallQuery builds the terms of a small bit-vector query.
func BenchmarkBuildSmallQuery(b *testing.B) {
	c := newCtx(b)
	i := 0
	for b.Loop() {
		smallQuery(c, i)
		i++
	}
}

// BenchmarkSolveSmallQueryPushPop builds and solves a small query on one
// solver between Push and Pop, the cheap way to run many queries.
func BenchmarkSolveSmallQueryPushPop(b *testing.B) {
	c := newCtx(b)
	s, _ := c.NewSolver()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		s.Push()
		fs, _, want := smallQuery(c, i)
		s.Assert(fs...)
		if r, err := s.Check(ctx); r != want || err != nil {
			b.Fatal(r, err)
		}
		s.Pop(1)
		i++
	}
}

// BenchmarkSolveSmallQueryFreshLogicSolver uses a new QF_BV solver per
// query.
func BenchmarkSolveSmallQueryFreshLogicSolver(b *testing.B) {
	benchFreshSolvers(b, func(c *Context) (*Solver, error) { return c.NewSolverForLogic("QF_BV") })
}

// BenchmarkSolveSmallQueryFreshSolver uses a new default solver per query:
// Z3's default solver is costly to set up.
func BenchmarkSolveSmallQueryFreshSolver(b *testing.B) {
	benchFreshSolvers(b, (*Context).NewSolver)
}

// benchFreshSolvers decides small queries, each in a new solver that
// newSolver makes.
func benchFreshSolvers(b *testing.B, newSolver func(c *Context) (*Solver, error)) {
	c := newCtx(b)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		s, err := newSolver(c)
		if err != nil {
			b.Fatal(err)
		}
		fs, _, want := smallQuery(c, i)
		s.Assert(fs...)
		if r, err := s.Check(ctx); r != want || err != nil {
			b.Fatal(r, err)
		}
		s.Close()
		i++
	}
}

// TestContextsInParallel runs independent contexts on several goroutines
// (run with -race to check that nothing is shared).
func TestContextsInParallel(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := NewContext()
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			s, _ := c.NewSolverForLogic("QF_BV")
			for i := range 200 {
				s.Push()
				fs, _, want := smallQuery(c, g*1000+i)
				s.Assert(fs...)
				ctx, cancel := context.WithCancel(context.Background())
				r, err := s.Check(ctx)
				cancel()
				if err != nil || r != want {
					errs <- fmt.Errorf("goroutine %d, query %d: %v, %v; want %v", g, i, r, err, want)
					return
				}
				s.Pop(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("parallel query failed: %v", err)
	}
}

// BenchmarkCloseAfterCheck makes a context, checks a small query in it
// and closes it with the query's terms still held: given back first
// (Close), or left to Z3's deletion of the context, which goes over
// every term left in rounds (the context's deletion without them).
func BenchmarkCloseAfterCheck(b *testing.B) {
	for _, give := range []bool{true, false} {
		b.Run(fmt.Sprintf("giveBack=%v", give), func(b *testing.B) {
			ctx := context.Background()
			i := 0
			for b.Loop() {
				c, err := NewContext(WithManualRelease())
				if err != nil {
					b.Fatal(err)
				}
				s, err := c.NewSolver()
				if err != nil {
					b.Fatal(err)
				}
				fs, _, want := smallQuery(c, i)
				s.Assert(fs...)
				if r, err := s.Check(ctx); r != want || err != nil {
					b.Fatal(r, err)
				}
				s.Close()
				if give {
					c.Close()
				} else {
					c.h.destroy()
				}
				runtime.KeepAlive(fs)
				i++
			}
		})
	}
}
