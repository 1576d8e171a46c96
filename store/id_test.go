package store

import (
	"testing"
	"time"
)

func TestIDsIncrease(t *testing.T) {
	var g idGen
	now := time.UnixMilli(1_700_000_000_000)
	prev := ""
	for i := range 2000 {
		at := now.Add(time.Duration(i/100) * time.Millisecond)
		if i == 1500 {
			at = now // a clock stepping back keeps the order
		}
		id, _, err := g.next(at)
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 26 || id <= prev {
			t.Fatalf("id %d: %q after %q", i, id, prev)
		}
		prev = id
	}
	a, ta, _ := (&idGen{}).next(now)
	b, tb, _ := (&idGen{}).next(now.Add(time.Millisecond))
	if a >= b || !ta.Equal(now) || !tb.After(ta) {
		t.Fatalf("ids of two generators: %s %s", a, b)
	}
}

func TestKey(t *testing.T) {
	base := Key("spec", "prog", Options{})
	if base != Key("spec", "prog", Options{ValueModel: "real"}) {
		t.Error("the default value model is real")
	}
	if len(base) != 64 {
		t.Errorf("key %q", base)
	}
	for _, other := range []string{
		Key("spec", "prog", Options{ValueModel: "ieee"}),
		Key("spec", "prog", Options{TimeoutSeconds: 5}),
		Key("specp", "rog", Options{}),
		Key("prog", "spec", Options{}),
		Key("spec ", "prog", Options{}),
	} {
		if other == base {
			t.Errorf("collision with %q", other)
		}
	}
}

func TestParseDSN(t *testing.T) {
	for _, c := range []struct{ dsn, kind, target string }{
		{"sqlite:/var/lib/augur.db", "sqlite", "/var/lib/augur.db"},
		{"sqlite::memory:", "sqlite", ":memory:"},
		{"data/augur.db", "sqlite", "data/augur.db"},
		{"postgres://u@h/db", "postgres", "postgres://u@h/db"},
		{"postgresql://u@h/db", "postgres", "postgresql://u@h/db"},
	} {
		kind, target, err := parseDSN(c.dsn)
		if err != nil || kind != c.kind || target != c.target {
			t.Errorf("parseDSN(%q) = %q, %q, %v", c.dsn, kind, target, err)
		}
	}
	for _, bad := range []string{"", "sqlite:", "mysql://h/db", "augur.sqlite"} {
		if _, _, err := parseDSN(bad); err == nil {
			t.Errorf("parseDSN(%q): no error", bad)
		}
	}
}
