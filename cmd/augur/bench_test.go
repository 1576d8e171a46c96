package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestBench runs augur bench on one small pair (the Halide sdot, a second
// or two), as a table and as JSON, and checks its usage errors. It runs in
// process: the child processes augur bench starts otherwise are augur
// itself, not the test binary.
func TestBench(t *testing.T) {
	var out, errw bytes.Buffer
	if code := execute([]string{"bench", "--in-process", "--only", "halide/sdot", "--timeout", "5m"}, nil, &out, &errw); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errw.String())
	}
	if !strings.Contains(out.String(), "| halide/sdot ") || !strings.Contains(out.String(), "| VALID ") {
		t.Errorf("table:\n%s", out.String())
	}

	out.Reset()
	errw.Reset()
	if code := execute([]string{"bench", "--in-process", "--only", "sdot", "--halide", "--json"}, nil, &out, &errw); code != 0 {
		t.Fatalf("--json: exit %d\n%s%s", code, out.String(), errw.String())
	}
	var res struct {
		Summary struct{ Expected, Mismatches int }
		Results []struct {
			ID, Outcome string
			Phases      []struct{ Phase string }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, out.String())
	}
	if len(res.Results) != 1 || res.Results[0].ID != "halide/sdot" || res.Results[0].Outcome != "valid" || len(res.Results[0].Phases) == 0 || res.Summary.Expected != 1 {
		t.Errorf("--json: %+v", res)
	}

	for _, args := range [][]string{
		{"bench", "--halide", "--bundled"},
		{"bench", "--only", "nosuch"},
		{"bench", "--value-model", "fast"},
		{"bench", "extra"},
	} {
		out.Reset()
		errw.Reset()
		if code := execute(args, nil, &out, &errw); code != exitUsage {
			t.Errorf("augur %s: exit %d, want %d\n%s", strings.Join(args, " "), code, exitUsage, errw.String())
		}
	}
}

// TestBenchList lists the suite without running it.
func TestBenchList(t *testing.T) {
	var out, errw bytes.Buffer
	if code := execute([]string{"bench", "--list"}, nil, &out, &errw); code != 0 {
		t.Fatalf("exit %d\n%s", code, errw.String())
	}
	for _, id := range []string{"halide/sgemmTA", "bundled/sc32", "halide/nl_means"} {
		if !strings.Contains(out.String(), id) {
			t.Errorf("--list lacks %s:\n%s", id, out.String())
		}
	}
}
