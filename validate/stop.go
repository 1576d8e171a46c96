package validate

import (
	"context"
	"sync"
	"sync/atomic"
)

// stopCtx is a context that its parent cancels, or stop. Unlike a context
// of context.WithCancel, its Err asks the parent's Err first: the engine
// polls Err as it works (the Presburger engine every 64 steps), and a
// parent that decides on being polled (a deadline in steps, a test's) is
// then polled as it would be without stopCtx between.
type stopCtx struct {
	context.Context
	done    chan struct{}
	once    sync.Once
	stopped atomic.Bool
	release func() bool
}

// newStopCtx returns a stopCtx of parent; call its stop method (or the
// parent's cancellation) to cancel it, and release once it is no longer
// used.
func newStopCtx(parent context.Context) *stopCtx {
	c := &stopCtx{Context: parent, done: make(chan struct{})}
	c.release = context.AfterFunc(parent, c.close)
	return c
}

func (c *stopCtx) close() { c.once.Do(func() { close(c.done) }) }

// stop cancels c.
func (c *stopCtx) stop() {
	c.stopped.Store(true)
	c.close()
}

// Done is closed once c is stopped or its parent is done.
func (c *stopCtx) Done() <-chan struct{} { return c.done }

// Err returns the parent's error, or context.Canceled once c is stopped.
func (c *stopCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if c.stopped.Load() {
		return context.Canceled
	}
	return nil
}
