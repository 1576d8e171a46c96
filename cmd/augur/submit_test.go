package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/api/apitest"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

// testServer runs the API over an in-memory store with workers running
// the real verifier (or none).
func testServer(t *testing.T, cfg api.Config, workers bool) (*httptest.Server, *apitest.Store) {
	t.Helper()
	st := apitest.NewStore()
	cfg.Store = st
	cfg.Poll = 20 * time.Millisecond
	srv := httptest.NewServer(api.New(cfg))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if workers {
		wg.Add(1)
		go func() { defer wg.Done(); _ = st.Work(ctx, 2, time.Second, api.Runner(api.RunnerOptions{})) }()
	}
	t.Cleanup(func() { srv.Close(); cancel(); wg.Wait() })
	return srv, st
}

func TestSubmitVerdicts(t *testing.T) {
	srv, st := testServer(t, api.Config{Tokens: []string{"tok"}}, true)
	dir := t.TempDir()
	junit, sarif := filepath.Join(dir, "report.xml"), filepath.Join(dir, "report.sarif")
	t.Setenv("GITHUB_SHA", "0123abc")

	code, out, errOut := augur("submit", "--server", srv.URL, "--token", "tok", "--meta", "repository=acme/k", "--label", "arch=x86",
		"--junit", junit, "--sarif", sarif, "../../examples/blur/blur.sare", "../../examples/blur/blur.sched")
	if code != 0 || !strings.HasPrefix(out, "VALID: ../../examples/blur/blur.sched") || !strings.Contains(out, "details: "+srv.URL+"/v1/validations/") {
		t.Fatalf("valid: exit %d\n%s%s", code, out, errOut)
	}
	vs, _, _ := st.List(context.Background(), store.Filter{Repository: "acme/k", Label: "arch=x86", Commit: "0123abc"})
	if len(vs) != 1 {
		t.Errorf("metadata not stored: %d found", len(vs))
	}
	js := checkJUnit(t, junit)
	if js.Failures != 0 || js.Tests == 0 {
		t.Errorf("junit of a valid kernel: %+v", js)
	}

	code, out, errOut = augur("submit", "--server", srv.URL, "--token", "tok", "--junit", junit, "--sarif", sarif,
		"../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched")
	if code != 1 || !strings.HasPrefix(out, "INVALID: annotation mismatch") || !strings.Contains(out, "broken_wrong_row.sched:17:9") {
		t.Fatalf("invalid: exit %d\n%s%s", code, out, errOut)
	}
	if js := checkJUnit(t, junit); js.Failures == 0 {
		t.Errorf("junit of an invalid kernel has no failure: %+v", js)
	}
	res := checkSARIF(t, sarif)
	found := false
	for _, r := range res {
		if r.Level == "error" && len(r.Locations) == 1 {
			l := r.Locations[0].PhysicalLocation
			if l.ArtifactLocation.URI == "../../examples/blur/broken_wrong_row.sched" && l.Region.StartLine == 17 && l.Region.StartColumn == 9 {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no SARIF result at broken_wrong_row.sched:17:9: %+v", res)
	}

	// Malformed input: 3, with positions, in SARIF too.
	bad := filepath.Join(dir, "bad.sched")
	os.WriteFile(bad, []byte("kernel k(N) {\n  for i < N {\n    a[i] := \n  }\n}\n"), 0o644)
	code, out, _ = augur("submit", "--server", srv.URL, "--token", "tok", "--sarif", sarif, "--junit", junit, "../../examples/blur/blur.sare", bad)
	if code != 3 || !strings.HasPrefix(out, "ERROR:") || !strings.Contains(out, "bad.sched:") {
		t.Errorf("malformed: exit %d\n%s", code, out)
	}
	if res := checkSARIF(t, sarif); len(res) == 0 || res[0].RuleID != "malformed-input" || res[0].Locations[0].PhysicalLocation.Region.StartLine == 0 {
		t.Errorf("malformed SARIF: %+v", res)
	}
	checkJUnit(t, junit)

	// Refusals and usage: 3.
	for name, args := range map[string][]string{
		"wrong token": {"--token", "nope"},
		"no token":    {"--token", ""},
		"bad meta":    {"--token", "tok", "--meta", "colour=red"},
		"bad server":  {"--token", "tok", "--server", "ftp://x"},
		"bad flag":    {"--token", "tok", "--frobnicate"},
	} {
		args = append([]string{"submit", "--server", srv.URL}, args...)
		args = append(args, "../../examples/blur/blur.sare", "../../examples/blur/blur.sched")
		if code, out, errOut := augur(args...); code != 3 {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	if code, _, _ := augur("submit", "--server", srv.URL, "../../examples/blur/blur.sare"); code != 3 {
		t.Errorf("one argument: exit %d", code)
	}
}

func TestSubmitUnreachableAndTimeout(t *testing.T) {
	ln := httptest.NewServer(http.NotFoundHandler())
	url := ln.URL
	ln.Close()
	if code, _, errOut := augur("submit", "--server", url, "../../examples/blur/blur.sare", "../../examples/blur/blur.sched"); code != 3 || !strings.Contains(errOut, "cannot reach") {
		t.Errorf("unreachable: exit %d %s", code, errOut)
	}
	// No workers: no verdict within --wait is exit 2.
	srv, _ := testServer(t, api.Config{}, false)
	code, out, _ := augur("submit", "--server", srv.URL, "--wait", "300ms", "../../examples/blur/blur.sare", "../../examples/blur/blur.sched")
	if code != 2 || !strings.Contains(out, "no verdict within 300ms") {
		t.Errorf("timeout: exit %d\n%s", code, out)
	}
	// --wait 0 only submits.
	code, out, _ = augur("submit", "--server", srv.URL, "--wait", "0", "../../examples/blur/blur.sare", "../../examples/blur/blur.sched")
	if code != 0 || !strings.HasPrefix(out, "submitted: ") {
		t.Errorf("no wait: exit %d\n%s", code, out)
	}
	// A cancelled validation is exit 3: the store cancels it as soon as it
	// is submitted.
	cancelling := &cancellingStore{Store: apitest.NewStore()}
	srv2 := httptest.NewServer(api.New(api.Config{Store: cancelling, Poll: 20 * time.Millisecond}))
	defer srv2.Close()
	code, out, _ = augur("submit", "--server", srv2.URL, "--wait", "1m", "--value-model", "ieee", "../../examples/blur/blur.sare", "../../examples/blur/blur.sched")
	if code != 3 || !strings.HasPrefix(out, "CANCELLED") {
		t.Errorf("cancelled: exit %d\n%s", code, out)
	}
	if cancelling.n.Load() != 1 {
		t.Errorf("%d validations cancelled, want 1", cancelling.n.Load())
	}
}

// cancellingStore cancels every validation it queues, right after
// answering its submission.
type cancellingStore struct {
	*apitest.Store
	n atomic.Int32
}

func (s *cancellingStore) Submit(ctx context.Context, v *store.Validation) (*store.Validation, error) {
	nv, err := s.Store.Submit(ctx, v)
	if err != nil || nv.Status != store.Queued {
		return nv, err
	}
	s.n.Add(1)
	if err := s.Store.Cancel(ctx, nv.ID); err != nil {
		return nil, err
	}
	return nv, nil // a copy: queued, as it was submitted
}

type junitCheck struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func checkJUnit(t *testing.T, path string) junitCheck {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j junitCheck
	if err := xml.Unmarshal(data, &j); err != nil {
		t.Fatalf("junit: %v\n%s", err, data)
	}
	n, f := 0, 0
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			n++
			if c.Failure != nil {
				f++
			}
		}
	}
	if n != j.Tests || f != j.Failures || !bytes.HasPrefix(data, []byte("<?xml")) {
		t.Errorf("junit counts: %d cases, %d failures, header says %d, %d", n, f, j.Tests, j.Failures)
	}
	return j
}

type sarifCheckResult struct {
	RuleID    string `json:"ruleId"`
	Level     string `json:"level"`
	Message   struct{ Text string }
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }
			Region           struct{ StartLine, StartColumn int }
		}
	}
}

func checkSARIF(t *testing.T, path string) []sarifCheckResult {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []sarifCheckResult
		}
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("sarif: %v", err)
	}
	if s.Version != "2.1.0" || len(s.Runs) != 1 || s.Runs[0].Tool.Driver.Name != "augur" {
		t.Fatalf("sarif: %s", data)
	}
	rules := map[string]bool{}
	for _, r := range s.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	for _, r := range s.Runs[0].Results {
		if !rules[r.RuleID] || r.Message.Text == "" || (r.Level != "error" && r.Level != "warning") {
			t.Errorf("sarif result %+v (rules %v)", r, rules)
		}
	}
	return s.Runs[0].Results
}

// A cached verdict is reported under the new submission's file names,
// marked cached, in the text, the JSON, JUnit and SARIF; the reproduce
// line names the new files.
func TestSubmitCachedUnderOwnNames(t *testing.T) {
	srv, _ := testServer(t, api.Config{}, true)
	dir := t.TempDir()
	copyPair := func(repo string) (spec, prog string) {
		spec, prog = filepath.Join(dir, repo, "blur.sare"), filepath.Join(dir, repo, "kernels", "wrong_row.sched")
		for src, dst := range map[string]string{"../../examples/blur/blur.sare": spec, "../../examples/blur/broken_wrong_row.sched": prog} {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return spec, prog
	}
	spec1, prog1 := copyPair("first")
	spec2, prog2 := copyPair("second")
	if code, out, errOut := augur("submit", "--server", srv.URL, spec1, prog1); code != 1 || strings.Contains(out, "cached") {
		t.Fatalf("first: exit %d\n%s%s", code, out, errOut)
	}
	junit, sarif := filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.sarif")
	code, out, errOut := augur("submit", "--server", srv.URL, "--junit", junit, "--sarif", sarif, spec2, prog2)
	if code != 1 || !strings.Contains(out, "cached: the verdict of validation") || !strings.Contains(out, prog2+":17:9") ||
		!strings.Contains(out, "reproduce:   augur run "+spec2+" "+prog2+" ") || strings.Contains(out, filepath.Join(dir, "first")) ||
		!strings.Contains(out, "dashboard: "+srv.URL+"/validations/") {
		t.Fatalf("second: exit %d\n%s%s", code, out, errOut)
	}
	for _, path := range []string{junit, sarif} {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), filepath.Join(dir, "first")) || !strings.Contains(string(data), prog2) ||
			!strings.Contains(string(data), "cached") {
			t.Errorf("%s names the first submission's files or is not marked cached:\n%s", path, data)
		}
	}

	// The JSON of the cached validation.
	var list api.List
	getJSONT(t, srv.URL+"/v1/validations?limit=1", &list)
	var d api.Detail
	getJSONT(t, srv.URL+list.Validations[0].URL, &d)
	if !d.Cached || d.CachedFrom == "" || d.ProgramName != filepath.ToSlash(prog2) || d.Counterexample == nil ||
		d.Counterexample.File != filepath.ToSlash(prog2) || !strings.HasPrefix(d.Counterexample.Command, "augur run "+spec2+" "+prog2) {
		t.Errorf("cached JSON: %+v %+v", d.Summary, d.Counterexample)
	}
	for _, c := range d.Conditions {
		if c.File != filepath.ToSlash(prog2) && c.File != filepath.ToSlash(spec2) {
			t.Errorf("condition C%d at %s", c.ID, c.File)
		}
	}
}

func getJSONT(t *testing.T, url string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// Every failed condition carries its own counterexample and formula in
// SARIF and JUnit, and the SARIF rules have help text.
func TestSubmitEveryFailureItsCounterexample(t *testing.T) {
	srv, _ := testServer(t, api.Config{}, true)
	dir := t.TempDir()
	junit, sarif := filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.sarif")
	code, out, errOut := augur("submit", "--server", srv.URL, "--junit", junit, "--sarif", sarif,
		"--all-conditions", "../../examples/matmul/matmul.sare", "../../examples/matmul/broken_par_reduction.sched")
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	data, _ := os.ReadFile(sarif)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID   string
						Help struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID  string
				Level   string
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	errors := 0
	for _, r := range run.Results {
		if r.Level != "error" {
			continue
		}
		errors++
		if strings.Count(r.Message.Text, "counterexample:") != 1 || !strings.Contains(r.Message.Text, "formula: ") ||
			!strings.Contains(r.Message.Text, "parameters:") {
			t.Errorf("%s: the result lacks its own counterexample or formula:\n%s", r.RuleID, r.Message.Text)
		}
	}
	if errors < 2 {
		t.Errorf("%d failed conditions in SARIF, want several", errors)
	}
	for _, r := range run.Tool.Driver.Rules {
		if len(r.Help.Text) < 40 {
			t.Errorf("rule %s: help %q", r.ID, r.Help.Text)
		}
	}
	jdata, _ := os.ReadFile(junit)
	if n := strings.Count(string(jdata), "counterexample:"); n != errors {
		t.Errorf("%d counterexamples in JUnit, want %d:\n%s", n, errors, jdata)
	}
}

// A server that asks to retry later (429 with Retry-After) gets the
// submission again once that time has passed, within --wait; one that
// asks for longer than --wait is a refusal, exit 3, at once.
func TestSubmitRetriesAfterRateLimit(t *testing.T) {
	backend, _ := testServer(t, api.Config{}, true)
	var posts, refusals atomic.Int32
	var retryIn atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) <= refusals.Load() {
			w.Header().Set("Retry-After", retryIn.Load().(string))
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"type":"urn:augur:problem:rate-limited","title":"Too many requests","status":429,"detail":"slow down"}`)
			return
		}
		proxy := httputil.NewSingleHostReverseProxy(mustParseURL(t, backend.URL))
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	spec, prog := "../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched"

	refusals.Store(2)
	retryIn.Store("0")
	code, out, errOut := augur("submit", "--server", srv.URL, "--wait", "1m", spec, prog)
	if code != 1 || !strings.HasPrefix(out, "INVALID: annotation mismatch") || posts.Load() != 3 ||
		strings.Count(errOut, "the server answered 429 Too Many Requests; submitting again in 0s") != 2 {
		t.Errorf("rate-limited twice: exit %d after %d submissions\n%s%s", code, posts.Load(), out, errOut)
	}

	posts.Store(0)
	refusals.Store(1)
	retryIn.Store("3600")
	code, out, errOut = augur("submit", "--server", srv.URL, "--wait", "1m", spec, prog)
	if code != 3 || posts.Load() != 1 || !strings.Contains(errOut, "429 Too many requests: slow down (it asks to retry in 1h0m0s, beyond --wait 1m0s)") {
		t.Errorf("rate-limited beyond --wait: exit %d after %d submissions\n%s%s", code, posts.Load(), out, errOut)
	}
}

func mustParseURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		value string
		want  time.Duration
	}{
		{"", time.Second}, {"0", 0}, {"7", 7 * time.Second}, {"-3", time.Second}, {"soon", time.Second},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), time.Second},
	} {
		if got := retryAfter(c.value, now, time.Second); got != c.want {
			t.Errorf("Retry-After %q: %s, want %s", c.value, got, c.want)
		}
	}
}

// --wait 0 reports a verdict known at submission (answered from the
// cache) with its exit code; it exits 0 only when the validation is still
// to come.
func TestSubmitNoWaitCachedVerdict(t *testing.T) {
	srv, _ := testServer(t, api.Config{}, true)
	spec, prog := "../../examples/blur/blur.sare", "../../examples/blur/broken_wrong_row.sched"
	if code, out, errOut := augur("submit", "--server", srv.URL, "--wait", "1m", spec, prog); code != 1 {
		t.Fatalf("first submission: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := augur("submit", "--server", srv.URL, "--wait", "0", spec, prog)
	if code != 1 || !strings.HasPrefix(out, "INVALID: annotation mismatch") || !strings.Contains(out, "cached: ") {
		t.Errorf("--wait 0 on a cached INVALID: exit %d\n%s%s", code, out, errOut)
	}
}

// A SARIF rule's help is its kind's (sched.Kind.Help), reductions' kinds
// included; malformed input and a verdict without results have their own.
func TestSARIFRuleHelp(t *testing.T) {
	rep := &validate.Report{Verdict: validate.Invalid, Program: "k.sched", Conditions: []validate.ConditionResult{
		{ID: 1, Kind: sched.DoubleCount, File: "k.sched", Line: 3, Col: 5, Status: validate.Failed},
		{ID: 2, Kind: sched.ReadWriteRace, File: "k.sched", Line: 4, Col: 5, Status: validate.Undecided, Reason: "timeout"},
		{ID: 3, Kind: sched.OutOfBoundsRead, File: "k.sched", Line: 4, Col: 5, Status: validate.Proved},
	}, Errors: []validate.ErrorDetail{{File: "k.sched", Line: 1, Col: 1, Message: "bad", Text: "k.sched:1:1: bad"}}}
	var b strings.Builder
	if err := writeSARIF(&b, answer{rep: rep}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(b.String()), &log); err != nil {
		t.Fatal(err)
	}
	help := map[string]string{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		help[r.ID] = r.Help.Text
	}
	const more = " See docs/validate.md for verdicts and counterexamples."
	want := map[string]string{
		"position-accumulated-twice": sched.DoubleCount.Help() + more,
		"read-write-race":            sched.ReadWriteRace.Help() + more,
		"malformed-input":            malformedHelp + more,
	}
	if len(help) != len(want) {
		t.Errorf("rules %v, want %v", help, want)
	}
	for id, h := range want {
		if help[id] != h {
			t.Errorf("rule %s: help %q, want %q", id, help[id], h)
		}
	}
	b.Reset()
	if err := writeSARIF(&b, answer{rep: &validate.Report{Verdict: validate.Unknown, Reason: "budget", Program: "k.sched"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "A verification condition of kind verdict unknown failed or could not be decided") {
		t.Errorf("a verdict without results: %s", b.String())
	}
}
