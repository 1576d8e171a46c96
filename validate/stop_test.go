package validate

import (
	"context"
	"errors"
	"testing"
)

// TestStopCtx: a stopCtx is done once stopped or once its parent is, and
// its Err asks the parent's first.
func TestStopCtx(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newStopCtx(parent)
	defer c.release()
	select {
	case <-c.Done():
		t.Fatal("done before any cancellation")
	default:
	}
	if err := c.Err(); err != nil {
		t.Fatalf("Err = %v before any cancellation", err)
	}
	c.stop()
	<-c.Done()
	if err := c.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err = %v once stopped, want context.Canceled", err)
	}
	if parent.Err() != nil {
		t.Fatal("stopping the child cancelled its parent")
	}

	d, dcancel := context.WithCancelCause(context.Background())
	c2 := newStopCtx(d)
	defer c2.release()
	cause := errors.New("the parent's reason")
	dcancel(cause)
	<-c2.Done()
	if err := c2.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err = %v once the parent is cancelled, want the parent's error", err)
	}
	if context.Cause(d) != cause {
		t.Fatal("the parent's cause was lost")
	}
}
