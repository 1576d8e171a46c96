package smt

// #include <pthread.h>
// #include <time.h>
//
// static int augur_thread_clock(clockid_t *c) {
// 	return pthread_getcpuclockid(pthread_self(), c);
// }
//
// static long long augur_clock_ns(clockid_t c) {
// 	struct timespec ts;
// 	if (clock_gettime(c, &ts) != 0) {
// 		return -1;
// 	}
// 	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
// }
import "C"

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The CPU-time guard of a check (Solver.SetCPUGuard): the time the thread
// that runs Z3 spends on the check, read from that thread's CPU clock
// (pthread_getcpuclockid), not the time on the wall. On a loaded machine
// a check gets a fraction of a core, and a wall-clock bound stops checks
// that count their resource units steadily and would stop at their limit
// (Halide's bilateral_grid: 59 million of a query's 100 million units
// counted when five minutes of wall-clock time had passed); the thread's
// CPU time grows only as the check works, so the guard stops the loops
// that count no units (Z3 4.8.12's nonlinear arithmetic has some) at
// about the same point of their work under any load.

// cpuGuardPoll is how often the guard reads the check's thread's CPU
// clock.
const cpuGuardPoll = 100 * time.Millisecond

// A cpuGuard cancels a check's context once the thread running the check
// has used limit of CPU time.
type cpuGuard struct {
	limit  time.Duration
	cancel context.CancelFunc
	hit    atomic.Bool

	mu      sync.Mutex
	stopped bool
	done    chan struct{}
	wg      sync.WaitGroup
}

// newCPUGuard returns a guard of limit that calls cancel when it is
// reached.
func newCPUGuard(limit time.Duration, cancel context.CancelFunc) *cpuGuard {
	return &cpuGuard{limit: limit, cancel: cancel, done: make(chan struct{})}
}

// start begins measuring the CPU time of the calling goroutine's thread,
// which the caller keeps locked to it (runtime.LockOSThread) for the
// check. A thread whose clock cannot be read is not guarded.
func (g *cpuGuard) start() {
	var clock C.clockid_t
	if C.augur_thread_clock(&clock) != 0 {
		return
	}
	base := int64(C.augur_clock_ns(clock))
	if base < 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	g.wg.Add(1)
	go g.poll(clock, base)
}

// poll reads the thread's clock every cpuGuardPoll until the limit is
// reached or the guard stops.
func (g *cpuGuard) poll(clock C.clockid_t, base int64) {
	defer g.wg.Done()
	tick := time.NewTicker(cpuGuardPoll)
	defer tick.Stop()
	for {
		select {
		case <-g.done:
			return
		case <-tick.C:
		}
		now := int64(C.augur_clock_ns(clock))
		if now >= 0 && time.Duration(now-base) >= g.limit {
			g.hit.Store(true)
			g.cancel()
			return
		}
	}
}

// stop ends the measure; the guard is not started after it.
func (g *cpuGuard) stop() {
	g.mu.Lock()
	if !g.stopped {
		g.stopped = true
		close(g.done)
	}
	g.mu.Unlock()
	g.wg.Wait()
}
