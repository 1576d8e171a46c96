package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/augur-verify/augur/store"
)

// pruneStore records the calls to Prune.
type pruneStore struct {
	store.Store
	mu    sync.Mutex
	calls []time.Time
	keeps []int
}

func (p *pruneStore) Prune(_ context.Context, before time.Time, keep int) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, before)
	p.keeps = append(p.keeps, keep)
	return 1, nil
}

func TestPrune(t *testing.T) {
	log := zerolog.Nop()
	st := &pruneStore{}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	start := time.Now()
	prune(ctx, st, time.Hour, 7, 10*time.Millisecond, &log)
	if len(st.calls) < 2 {
		t.Fatalf("%d prunes, want several", len(st.calls))
	}
	for i, before := range st.calls {
		if d := start.Sub(before); d < 59*time.Minute || d > 61*time.Minute || st.keeps[i] != 7 {
			t.Errorf("prune %d: before %v (%v ago), keep %d", i, before, d, st.keeps[i])
		}
	}
	// No retention: no prune at all.
	none := &pruneStore{}
	prune(context.Background(), none, 0, 0, time.Millisecond, &log)
	if len(none.calls) != 0 {
		t.Errorf("pruned without a retention policy")
	}
}
