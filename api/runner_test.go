package api

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

func TestRunnerBudgetAndCancel(t *testing.T) {
	v := &store.Validation{SpecName: "blur.sare", Spec: example(t, "blur/blur.sare"), ProgramName: "blur.sched", Program: example(t, "blur/blur.sched"),
		Options: store.Options{ValueModel: "ieee", TimeoutSeconds: 5}}
	// A budget that runs out gives unknown, never a claim.
	res, err := Runner(RunnerOptions{Budget: time.Nanosecond})(context.Background(), v, nil)
	data := res.Report
	if err != nil || res.Verdict != "unknown" || !strings.Contains(res.Reason, "time budget") || res.Cacheable {
		t.Fatalf("budget: %v %+v", err, res)
	}
	var rep validate.Report
	if err := json.Unmarshal(data, &rep); err != nil || rep.Verdict != validate.Unknown || rep.ValueModel != "ieee" {
		t.Errorf("report %s: %v", data, err)
	}
	// The end of the context is an error, for the store to handle.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Runner(RunnerOptions{})(ctx, v, nil); err == nil {
		t.Error("a cancelled context gave a verdict")
	}
	// A full run keeps the SMT and reports progress.
	var phases []string
	res, err = Runner(RunnerOptions{})(context.Background(), &store.Validation{SpecName: "blur.sare", Spec: v.Spec, ProgramName: "blur.sched", Program: v.Program},
		func(p store.Progress) { phases = append(phases, p.Phase) })
	if err != nil || res.Verdict != "valid" || !strings.Contains(string(res.Report), `"smt":`) || len(phases) == 0 || phases[len(phases)-1] != "done" || !res.Cacheable {
		t.Errorf("run: %v %s cacheable %v phases %v", err, res.Verdict, res.Cacheable, phases)
	}
}

// Only deterministic verdicts are cacheable.
func TestCacheable(t *testing.T) {
	for _, c := range []struct {
		name string
		rep  *validate.Report
		want bool
	}{
		{"valid", &validate.Report{Verdict: validate.Valid}, true},
		{"invalid", &validate.Report{Verdict: validate.Invalid}, true},
		{"unknown by resources", &validate.Report{Verdict: validate.Unknown,
			Conditions: []validate.ConditionResult{{Status: validate.Undecided, Reason: "resource limit"}}}, true},
		{"time bound", &validate.Report{Verdict: validate.Unknown, TimeBound: true}, false},
		{"valid, time bound elsewhere", &validate.Report{Verdict: validate.Valid, TimeBound: true}, false},
		{"internal error", &validate.Report{Verdict: validate.Unknown, InternalErrors: []string{"panic"}}, false},
		{"out of memory", &validate.Report{Verdict: validate.Unknown, MemoryBound: true,
			Conditions: []validate.ConditionResult{{Status: validate.Undecided, Reason: "max. memory exceeded"}}}, false},
		{"valid, out of memory elsewhere", &validate.Report{Verdict: validate.Valid, MemoryBound: true}, false},
		{"error", &validate.Report{Verdict: validate.Error}, false},
	} {
		if got := Cacheable(c.rep); got != c.want {
			t.Errorf("%s: Cacheable = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRealStore runs the API over the embedded SQLite store.
func TestRealStore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, "sqlite:"+t.TempDir()+"/augur.db")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := &harness{t: t, srv: newTestServer(Config{Store: st, Poll: 20 * time.Millisecond})}
	defer h.srv.Close()
	done := make(chan struct{})
	go func() { defer close(done); _ = st.Work(ctx, 1, time.Second, Runner(RunnerOptions{})) }()
	defer func() { cancel(); <-done }()

	resp, body := h.submitJSON("?wait=60s", blurSubmission("broken_wrong_row.sched"))
	if resp.StatusCode != 200 {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	d := decode[Detail](t, body)
	if d.Verdict != "invalid" || d.Counterexample == nil {
		t.Fatalf("%+v", d)
	}
	resp, body = h.do("GET", d.URL+"/conditions/"+itoa(d.Counterexample.Condition)+".smt2", "", "")
	if resp.StatusCode != 200 || !strings.Contains(body, "status: failed") {
		t.Errorf("smt2: %d %s", resp.StatusCode, body)
	}
	_, body = h.do("GET", "/v1/validations?verdict=invalid&repository=acme/kernels", "", "")
	if l := decode[List](t, body); len(l.Validations) != 1 {
		t.Errorf("list: %s", body)
	}
	resp, body = h.submitJSON("", blurSubmission("broken_wrong_row.sched"))
	if s := decode[Summary](t, body); s.CachedFrom != d.ID || s.Status != store.Done {
		t.Errorf("identical submission: %d %s", resp.StatusCode, body)
	}
	if resp, _ := h.do("POST", d.URL+"/cancel", "", ""); resp.StatusCode != 409 {
		t.Errorf("cancelling a finished one: %d", resp.StatusCode)
	}
	if resp, _ := h.do("GET", "/v1/validations/01M81WA400HBRE2AYE63D26F8D", "", ""); resp.StatusCode != 404 {
		t.Errorf("unknown id: %d", resp.StatusCode)
	}
	if resp, _ := h.do("GET", "/readyz", "", ""); resp.StatusCode != 200 {
		t.Errorf("readyz: %d", resp.StatusCode)
	}
}

// A budget that runs out while Z3 works keeps the conditions decided
// before: the busy pair's counterexample is a factorisation, which Z3
// does not find within minutes, and its other conditions take well under
// a second.
func TestRunnerBudgetKeepsConditions(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("..", "validate", "testdata", "busy", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v := &store.Validation{SpecName: "factor.sare", Spec: read("factor.sare"), ProgramName: "factor.sched", Program: read("factor.sched")}
	res, err := Runner(RunnerOptions{Budget: 10 * time.Second})(context.Background(), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	const want = "the validation's time budget of 10s ran out during the solving"
	if res.Verdict != "unknown" || res.Reason != want || res.Cacheable {
		t.Fatalf("verdict %s (%s), cacheable %v; want unknown (%s), not cacheable", res.Verdict, res.Reason, res.Cacheable, want)
	}
	var rep validate.Report
	if err := json.Unmarshal(res.Report, &rep); err != nil {
		t.Fatal(err)
	}
	counts := rep.Counts()
	if len(rep.Conditions) != 7 || counts[validate.Proved] != 6 || counts[validate.Undecided] != 1 || !rep.TimeBound {
		t.Errorf("conditions %v of %d, time bound %v; want 6 proved and 1 undecided, time bound", counts, len(rep.Conditions), rep.TimeBound)
	}
}
