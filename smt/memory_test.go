package smt

import (
	"context"
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// smallQuery builds the i-th query of a family: distinct numerals make
// distinct terms, so a leak would grow with i. With k = i+1, x + k = y and
// y < k (unsigned) force the addition to wrap, x >= 2^32 - k: sat, unless
// (odd i) x < 2^31 is also asserted.
func smallQuery(c *Context, i int) (fs []*Term, x *Term, want Result) {
	x, y := c.BVConst("x", 32), c.BVConst("y", 32)
	k := c.BV(uint64(i+1), 32)
	fs = []*Term{x.BVAdd(k).Eq(y), y.BVULt(k)}
	if i%2 == 1 {
		return append(fs, x.BVULt(c.BV(1<<31, 32))), x, Unsat
	}
	return fs, x, Sat
}

// residentBytes is the process's resident set size, or 0 where
// /proc/self/statm is not available.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// settle releases every unreachable wrapper, repeating until the count of
// live references stops falling, and returns it.
func settle(c *Context) int {
	prev := -1
	for range 20 {
		c.ReleaseUnused()
		if c.live == prev {
			break
		}
		prev = c.live
	}
	return c.live
}

// TestManyQueriesStableMemory builds and solves 10,000 small queries in one
// context, as Augur does: most on one solver between Push and Pop, every
// tenth on a fresh solver for QF_BV, closed after use. Terms are left to
// the garbage collector; half of the models are closed, half left too.
func TestManyQueriesStableMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 queries")
	}
	// Resident memory is measured against a leak, not against the
	// collector's setting: the test runs with Go's default one (make test
	// raises it).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	c := newCtx(t)
	const warm, total = 1000, 10000
	var liveWarm int
	var rssWarm int64
	ctx := context.Background()
	shared, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	for i := range total {
		if i == warm {
			liveWarm, rssWarm = settle(c), residentBytes()
		}
		if i%1000 == 0 {
			t.Logf("%5d queries: RSS %.1f MB, %d live references", i, float64(residentBytes())/1e6, c.live)
		}
		s := shared
		if i%10 == 0 {
			s, err = c.NewSolverForLogic("QF_BV")
			if err != nil {
				t.Fatal(err)
			}
		}
		s.Push()
		fs, x, want := smallQuery(c, i)
		if err := s.Assert(fs...); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r != want {
			t.Fatalf("query %d: %v, want %v", i, r, want)
		}
		if r == Sat {
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			if v, err := m.Uint64(x); err != nil || v < 1<<32-uint64(i+1) {
				t.Fatalf("query %d: x = %d, %v", i, v, err)
			}
			if i%4 == 0 {
				m.Close()
			}
		}
		s.Pop(1)
		if s != shared {
			s.Close()
		}
	}
	liveEnd, rssEnd := settle(c), residentBytes()
	t.Logf("after %d queries: %d live Z3 references, RSS %.1f MB; after %d: %d, %.1f MB",
		warm, liveWarm, float64(rssWarm)/1e6, total, liveEnd, float64(rssEnd)/1e6)
	if liveEnd > liveWarm+50 {
		t.Errorf("live references grew from %d to %d", liveWarm, liveEnd)
	}
	if rssWarm > 0 && rssEnd-rssWarm > 32<<20 {
		t.Errorf("resident memory grew by %.1f MB over %d queries", float64(rssEnd-rssWarm)/1e6, total-warm)
	}
}

// TestHeld checks that Held counts the references of the wrappers made,
// and that ReleaseUnused gives back those of the unreachable ones.
func TestHeld(t *testing.T) {
	c := newCtx(t)
	base := settle(c)
	keep := make([]*Term, 0, 100)
	for i := range 200 {
		x := c.Int(int64(1000 + i))
		if i%2 == 0 {
			keep = append(keep, x)
		}
	}
	if got := c.Held(); got < base+200 {
		t.Fatalf("Held() = %d after 200 terms, want at least %d", got, base+200)
	}
	// A release may end before the collector's cleanups run (it waits
	// for them a bounded time): try again while nothing came back.
	for i := 0; i < 50 && c.Held() >= base+200; i++ {
		c.ReleaseUnused()
	}
	if got := c.Held(); got < base+100 || got >= base+200 {
		t.Errorf("Held() = %d with 100 of 200 terms reachable, want %d to %d", got, base+100, base+199)
	}
	runtime.KeepAlive(keep)
}

// TestManualRelease checks that a context made WithManualRelease gives
// nothing back on its own, whatever the collector found unreachable, and
// everything unreachable when ReleaseUnused is called.
func TestManualRelease(t *testing.T) {
	c, err := NewContext(WithManualRelease())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	x := c.IntConst("x")
	base := c.Held()
	for i := range 200 {
		c.Add(x, c.Int(int64(1000+i)))
	}
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		c.Add(x, x) // a call that would give the queue back
	}
	if got := c.Held(); got < base+400 {
		t.Fatalf("Held() = %d after 400 unreachable terms and collections, want at least %d: released on its own", got, base+400)
	}
	for i := 0; i < 50 && c.Held() >= base+400; i++ {
		c.ReleaseUnused()
	}
	if got := c.Held(); got >= base+400 {
		t.Errorf("Held() = %d after ReleaseUnused, want fewer than %d", got, base+400)
	}
	runtime.KeepAlive(x)
}

// heldSum is the number of references c.held counts, each object as
// many times as it is held.
func heldSum(c *Context) int {
	n := 0
	for _, k := range c.held {
		n += int(k)
	}
	return n
}

// TestHeldByObject checks that the context counts, by object, exactly
// the references its wrappers hold (what Close gives back before
// deleting the context): terms made twice, solvers and models closed or
// not, references given back by ReleaseUnused; and that Close with
// references still held, then collections queueing the dead wrappers'
// releases, leave nothing to give back twice.
func TestHeldByObject(t *testing.T) {
	c, err := NewContext(WithManualRelease())
	if err != nil {
		t.Fatal(err)
	}
	agree := func(when string) {
		t.Helper()
		if got := heldSum(c); got != c.Held() {
			t.Fatalf("%s: the counts by object sum to %d, Held() = %d", when, got, c.Held())
		}
	}
	x := c.BVConst("x", 32)
	again := c.BVConst("x", 32) // the same Z3 term, a second reference
	if n := c.held[release{relAST, unsafe.Pointer(again.a)}]; n < 2 {
		t.Fatalf("a term wrapped twice is counted %d times, want at least 2", n)
	}
	agree("after two wrappers of one term")
	ctx := context.Background()
	var keep []*Model
	for i := range 20 {
		s, err := c.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		fs, _, want := smallQuery(c, i)
		if err := s.Assert(fs...); err != nil {
			t.Fatal(err)
		}
		if r, err := s.Check(ctx); r != want || err != nil {
			t.Fatalf("query %d: %v, %v; want %v", i, r, err, want)
		}
		if want == Sat {
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			if i%4 == 0 {
				m.Close()
			} else {
				keep = append(keep, m)
			}
		}
		if i%3 != 0 {
			s.Close() // the others are left to ReleaseUnused and Close
		}
	}
	agree("after 20 queries")
	before := c.Held()
	c.ReleaseUnused()
	if c.Held() >= before {
		t.Fatalf("Held() = %d after ReleaseUnused, was %d: nothing given back", c.Held(), before)
	}
	agree("after ReleaseUnused")
	runtime.KeepAlive(x)
	runtime.KeepAlive(again)
	runtime.KeepAlive(keep)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if c.held != nil || c.Held() != 0 {
		t.Fatalf("after Close: %d objects counted, Held() = %d", len(c.held), c.Held())
	}
	// The wrappers die after Close: their releases must be dropped, not
	// given to a deleted context.
	keep, x, again = nil, nil, nil
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if _, err := c.enter(); !errors.Is(err, ErrClosed) {
		t.Fatalf("enter after Close: %v, want ErrClosed", err)
	}
}
