package sched

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every kind has a distinct name and a help text, and its name parses
// back to it.
func TestKindTable(t *testing.T) {
	ks := Kinds()
	if len(ks) != int(ReorderedReduction) || ks[0] != WrongValue || ks[len(ks)-1] != ReorderedReduction {
		t.Fatalf("Kinds() = %v, want WrongValue to ReorderedReduction", ks)
	}
	seen := map[string]Kind{}
	for _, k := range ks {
		name := k.String()
		if name == "" || strings.HasPrefix(name, "Kind(") {
			t.Errorf("kind %d has no name", int(k))
		}
		if other, dup := seen[name]; dup {
			t.Errorf("%v and %d share the name %q", other, int(k), name)
		}
		seen[name] = k
		if !strings.HasSuffix(k.Help(), ".") {
			t.Errorf("%v: help %q is not a sentence", k, k.Help())
		}
		if got, err := ParseKind(name); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", name, got, err, k)
		}
	}
	if _, err := ParseKind("race"); err == nil {
		t.Error(`ParseKind("race") succeeds`)
	}
	if Kind(99).Help() != "" || Kind(99).Reduction() || Kind(99).String() != "Kind(99)" {
		t.Error("an undeclared kind has a name, a help text or a class")
	}
	if !DoubleCount.Reduction() || ReadWriteRace.Reduction() {
		t.Error("Reduction: want DoubleCount, not ReadWriteRace")
	}
}

// A kind marshals as its name, no kind as the empty string.
func TestKindJSON(t *testing.T) {
	type row struct {
		Kind Kind `json:"kind"`
	}
	for _, c := range []struct {
		kind Kind
		text string
	}{{ReadWriteRace, `{"kind":"read-write race"}`}, {0, `{"kind":""}`}} {
		data, err := json.Marshal(row{c.kind})
		if err != nil || string(data) != c.text {
			t.Errorf("marshal %v: %s, %v; want %s", c.kind, data, err, c.text)
		}
		var back row
		if err := json.Unmarshal(data, &back); err != nil || back.Kind != c.kind {
			t.Errorf("unmarshal %s: %v, %v; want %v", data, back.Kind, err, c.kind)
		}
	}
	if _, err := json.Marshal(row{Kind(99)}); err == nil {
		t.Error("an undeclared kind marshals")
	}
	if err := json.Unmarshal([]byte(`{"kind":"race"}`), new(row)); err == nil {
		t.Error("an unknown name unmarshals")
	}
}
