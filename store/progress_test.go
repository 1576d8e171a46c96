package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestProgressWriterTrailingWrite: whatever the rhythm of the events, the
// writer writes them in order and ends with the latest, even when it came
// within the interval of the previous write.
func TestProgressWriterTrailingWrite(t *testing.T) {
	var mu sync.Mutex
	var written []int
	last := make(chan struct{})
	const n = 1000
	p := startProgress(context.Background(), 5*time.Millisecond, func(_ context.Context, pr Progress) {
		mu.Lock()
		defer mu.Unlock()
		written = append(written, pr.Done)
		if pr.Done == n {
			close(last)
		}
	})
	defer p.close()
	for i := 1; i <= n; i++ {
		p.update(Progress{Phase: "solve", Done: i, Total: n})
	}
	select {
	case <-last:
	case <-time.After(time.Minute):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the last event was never written; written: %v", written)
	}
	p.close()
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(written); i++ {
		if written[i] <= written[i-1] {
			t.Fatalf("writes out of order or repeated: %v", written)
		}
	}
	if p.latest().Done != n {
		t.Errorf("latest %+v", p.latest())
	}
}
