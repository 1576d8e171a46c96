package smt_test

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/augur-verify/augur/smt"
)

// Checks on several goroutines at once leave SIGINT with Go: its handler
// keeps its flags and a SIGINT sent to the process reaches os/signal
// (Z3 4.8's own handler, installed around every check, crashed the
// process on the next Ctrl-C).
func TestChecksLeaveSigintToGo(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	defer signal.Stop(ch)

	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for i := 0; i < 20; i++ {
				c, err := smt.NewContext()
				if err != nil {
					t.Error(err)
					return
				}
				s, err := c.NewSolver()
				if err != nil {
					t.Error(err)
					c.Close()
					return
				}
				x := c.BVConst("x", 8)
				s.Assert(x.BVAdd(c.BV(uint64(i), 8)).BVULt(x))
				if _, err := s.Check(context.Background()); err != nil {
					t.Error(err)
				}
				s.Close()
				c.Close()
			}
		})
	}
	wg.Wait()
	if !smt.GoOwnsSigint() {
		t.Fatal("after the checks SIGINT's action is not Go's any more")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGINT did not reach os/signal")
	}
}
