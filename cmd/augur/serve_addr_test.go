package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/api/apitest"
)

// TestServeWarnsBeyondLoopback: augur serve listens on loopback by
// default, and says loudly (a warning) when it listens beyond loopback
// without a token.
func TestServeWarnsBeyondLoopback(t *testing.T) {
	if def := newServeCmd().Flags().Lookup("addr").DefValue; def != "127.0.0.1:8080" {
		t.Errorf("--addr defaults to %q, want 127.0.0.1:8080", def)
	}
	for _, c := range []struct {
		addr   string
		tokens []string
		warn   bool
	}{
		{":0", nil, true},
		{"0.0.0.0:0", nil, true},
		{":0", []string{"t"}, false},
		{"127.0.0.1:0", nil, false},
	} {
		withStore(t, apitest.NewStore())
		ctx, cancel := context.WithCancel(context.Background())
		var logs syncBuffer
		done := make(chan error, 1)
		listening := make(chan string, 1)
		go func() {
			done <- runServe(ctx, &logs, serveFlags{addr: c.addr, db: "sqlite:unused.db", tokens: c.tokens,
				maxBody: 1 << 20, logFormat: "json", onListen: func(a string) { listening <- a }})
		}()
		select {
		case <-listening:
		case err := <-done:
			t.Fatalf("--addr %s: %v\n%s", c.addr, err, logs.String())
		case <-time.After(time.Minute):
			t.Fatalf("--addr %s: not listening", c.addr)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("--addr %s: %v", c.addr, err)
		}
		var warned bool
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, `"level":"warn"`) && strings.Contains(line, "beyond loopback without a token") {
				warned = true
			}
		}
		if warned != c.warn {
			t.Errorf("--addr %s, %d tokens: warned %v, want %v; the log:\n%s", c.addr, len(c.tokens), warned, c.warn, logs.String())
		}
	}
}
