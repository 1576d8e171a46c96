package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/syntax"
)

func blurSubmission(prog string) Submission {
	return Submission{
		Spec: example(nil, "blur/blur.sare"), SpecName: "examples/blur/blur.sare",
		Program: example(nil, "blur/"+prog), ProgramName: "examples/blur/" + prog,
		Meta: store.Meta{Repository: "acme/kernels", Branch: "main", Commit: "abc123", Labels: map[string]string{"arch": "x86"}},
	}
}

func TestHealthReadyMetricsOpenAPI(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	if resp, body := h.do("GET", "/healthz", "", ""); resp.StatusCode != 200 || !strings.Contains(body, "ok") {
		t.Errorf("healthz: %d %s", resp.StatusCode, body)
	}
	if resp, _ := h.do("GET", "/readyz", "", ""); resp.StatusCode != 200 {
		t.Errorf("readyz: %d", resp.StatusCode)
	}
	h.st.PingErr = context.DeadlineExceeded
	if resp, body := h.do("GET", "/readyz", "", ""); resp.StatusCode != 503 || !strings.Contains(body, "store") {
		t.Errorf("readyz with a dead store: %d %s", resp.StatusCode, body)
	}
	h.st.PingErr = nil
	resp, body := h.do("GET", "/openapi.json", "", "")
	if resp.StatusCode != 200 || !json.Valid([]byte(body)) || !strings.Contains(body, "/v1/validations/{id}/events") {
		t.Errorf("openapi.json: %d", resp.StatusCode)
	}
	h.submitJSON("", blurSubmission("blur.sched"))
	_, body = h.do("GET", "/metrics", "", "")
	for _, want := range []string{`augur_http_requests_total{method="GET",route="/readyz",status="503"} 1`,
		`augur_submissions_total{outcome="queued"} 1`, `augur_validations_pending{status="queued"} 1`, "augur_http_request_duration_seconds_bucket"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestSubmitWaitGetList(t *testing.T) {
	// The real verifier runs behind the fake store.
	h := newHarness(t, Config{}, Runner(RunnerOptions{}))
	resp, body := h.submitJSON("?wait=60s", blurSubmission("blur.sched"))
	if resp.StatusCode != 200 {
		t.Fatalf("submit with wait: %d %s", resp.StatusCode, body)
	}
	d := decode[Detail](t, body)
	if d.Status != store.Done || d.Verdict != "valid" || len(d.Conditions) == 0 || len(d.Timings) == 0 || d.Meta.Repository != "acme/kernels" {
		t.Fatalf("detail: %+v", d)
	}
	if resp.Header.Get("Location") != d.URL {
		t.Errorf("Location %q, url %q", resp.Header.Get("Location"), d.URL)
	}
	smtURL := ""
	for _, c := range d.Conditions {
		if c.SMTURL != "" {
			smtURL = c.SMTURL
		}
		if c.SMT != "" {
			t.Errorf("C%d carries its SMT in the JSON", c.ID)
		}
	}
	if smtURL == "" {
		t.Fatal("no condition has an smt_url")
	}
	resp, body = h.do("GET", smtURL, "", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") ||
		!strings.Contains(body, "; Augur condition C") || !strings.Contains(body, "(check-sat)") {
		t.Errorf("smt2: %d %s", resp.StatusCode, body)
	}
	// An invalid kernel, without waiting: 202, then its verdict.
	resp, body = h.submitJSON("", blurSubmission("broken_wrong_row.sched"))
	if resp.StatusCode != 202 {
		t.Fatalf("submit: %d %s", resp.StatusCode, body)
	}
	s := decode[Summary](t, body)
	waitUntil(t, time.Minute, "the broken kernel's verdict", func() bool {
		_, body = h.do("GET", s.URL, "", "")
		d = decode[Detail](t, body)
		return d.Status == store.Done
	})
	if d.Verdict != "invalid" || d.Counterexample == nil || d.Counterexample.Line != 17 {
		t.Fatalf("broken kernel: %+v", d)
	}
	// curl gets the text report, as augur validate prints it.
	_, text := h.do("GET", s.URL, "", "", "User-Agent", "curl/8.5.0", "Accept", "*/*")
	if !strings.HasPrefix(text, "INVALID: annotation mismatch") || !strings.Contains(text, "examples/blur/broken_wrong_row.sched:17:9") {
		t.Errorf("curl text:\n%s", text)
	}
	_, text = h.do("GET", s.URL, "", "", "Accept", "text/plain")
	if !strings.HasPrefix(text, "INVALID") {
		t.Errorf("Accept text/plain:\n%s", text)
	}
	_, js := h.do("GET", s.URL, "", "", "User-Agent", "curl/8.5.0", "Accept", "application/json")
	if !json.Valid([]byte(js)) {
		t.Errorf("curl asking for JSON got %s", js)
	}
	// An identical submission is answered from the stored verdict.
	resp, body = h.submitJSON("", blurSubmission("broken_wrong_row.sched"))
	if c := decode[Summary](t, body); c.Status != store.Done || c.CachedFrom != s.ID || c.Verdict != "invalid" {
		t.Errorf("cached: %d %s", resp.StatusCode, body)
	}
	// Lists and filters.
	_, body = h.do("GET", "/v1/validations?verdict=invalid&repository=acme/kernels", "", "")
	if l := decode[List](t, body); len(l.Validations) != 2 {
		t.Errorf("invalid ones: %s", body)
	}
	_, body = h.do("GET", "/v1/validations?label=arch=x86&limit=2", "", "")
	l := decode[List](t, body)
	if len(l.Validations) != 2 || l.NextCursor == "" || !strings.Contains(l.Next, "cursor=") {
		t.Fatalf("page 1: %s", body)
	}
	_, body = h.do("GET", l.Next, "", "")
	if l2 := decode[List](t, body); len(l2.Validations) != 1 || l2.Validations[0].Verdict != "valid" || l2.NextCursor != "" {
		t.Errorf("page 2: %s", body)
	}
	for _, q := range []string{"status=weird", "verdict=maybe", "limit=0", "limit=x", "cursor=zz", "repo=acme", "verdit=valid"} {
		if resp, body := h.do("GET", "/v1/validations?"+q, "", ""); resp.StatusCode != 400 || !strings.Contains(body, "bad-request") {
			t.Errorf("%s: %d %s", q, resp.StatusCode, body)
		}
	}
	if _, body := h.do("GET", "/v1/validations?repo=acme", "", ""); !strings.Contains(body, `unknown parameter \"repo\"; the filters are repository, branch`) {
		t.Errorf("unknown filter: %s", body)
	}
	if _, body := h.do("GET", "/v1/validations?branch=dev", "", ""); decode[List](t, body).Validations == nil {
		t.Errorf("an empty list must be [] : %s", body)
	}
}

func TestMultipart(t *testing.T) {
	g := newGate()
	h := newHarness(t, Config{}, g.run)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("spec", "examples/blur/blur.sare")
	fw.Write([]byte(example(t, "blur/blur.sare")))
	fw, _ = mw.CreateFormFile("program", "examples/blur/blur.sched")
	fw.Write([]byte(example(t, "blur/blur.sched")))
	for k, v := range map[string]string{"value_model": "ieee", "timeout": "30s", "meta.repository": "acme/k", "meta.commit": "c0ffee", "label": "gpu=none"} {
		mw.WriteField(k, v)
	}
	mw.Close()
	resp, body := h.do("POST", "/v1/validations", mw.FormDataContentType(), buf.String())
	if resp.StatusCode != 202 {
		t.Fatalf("multipart: %d %s", resp.StatusCode, body)
	}
	s := decode[Summary](t, body)
	v, _ := h.st.Get(context.Background(), s.ID)
	if v.SpecName != "examples/blur/blur.sare" || v.Options.ValueModel != "ieee" || v.Options.TimeoutSeconds != 30 ||
		v.Meta.Commit != "c0ffee" || v.Meta.Labels["gpu"] != "none" || v.Key == "" {
		t.Errorf("stored: %+v", v)
	}
	<-g.started
	// While running: progress in the text and JSON.
	_, text := h.do("GET", s.URL, "", "", "Accept", "text/plain")
	if !strings.HasPrefix(text, "RUNNING: examples/blur/blur.sched") || !strings.Contains(text, "1 of 3") {
		t.Errorf("running text: %s", text)
	}
	// ?wait that runs out answers 202 with the current state.
	start := time.Now()
	sub := blurSubmission("blur.sched")
	sub.Options.ValueModel = "real"
	resp, body = h.submitJSON("?wait=300ms", sub)
	if resp.StatusCode != 202 || time.Since(start) < 300*time.Millisecond {
		t.Errorf("wait running out: %d after %s: %s", resp.StatusCode, time.Since(start), body)
	}
	close(g.release)
}

func TestMalformed(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	sub := blurSubmission("blur.sched")
	sub.Program = strings.Replace(sub.Program, ":=", "=:", 1)
	sub.Spec = strings.Replace(sub.Spec, "tensor BH(x, y) : f32", "tensor BH(x, y) : f99", 1)
	resp, body := h.submitJSON("", sub)
	if resp.StatusCode != 422 {
		t.Fatalf("malformed: %d %s", resp.StatusCode, body)
	}
	p := decode[Problem](t, body)
	if len(p.Errors) < 2 || p.Type != probMalformed || p.RequestID == "" {
		t.Fatalf("problem: %s", body)
	}
	// Both files are malformed: a type that does not exist in the
	// specification, an assignment written =: in the kernel.
	coded := map[string]bool{} // file and code
	for _, e := range p.Errors {
		if e.File == "" || e.Line == 0 || e.Col == 0 || !strings.Contains(e.Text, "^") {
			t.Errorf("error without a position: %+v", e)
		}
		coded[e.File+" "+e.Code] = true
	}
	if !coded["examples/blur/blur.sare "+string(syntax.CodeSyntax)] || !coded["examples/blur/blur.sched "+string(syntax.CodeSyntax)] {
		t.Errorf("errors %+v, want a syntax error in each file", p.Errors)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json") {
		t.Errorf("content type %s", resp.Header.Get("Content-Type"))
	}
	for name, tc := range map[string]struct{ ctype, body string }{
		"not JSON":      {"application/json", "{spec:"},
		"unknown field": {"application/json", `{"spec":"x","program":"y","colour":1}`},
		"no program":    {"application/json", `{"spec":"param N"}`},
		"bad model":     {"application/json", `{"spec":"a","program":"b","options":{"value_model":"fuzzy"}}`},
	} {
		if resp, body := h.do("POST", "/v1/validations", tc.ctype, tc.body); resp.StatusCode != 400 {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
	if resp, _ := h.do("POST", "/v1/validations", "text/csv", "a,b"); resp.StatusCode != 415 {
		t.Errorf("csv: %d", resp.StatusCode)
	}
	if resp, _ := h.submitJSON("?wait=soon", blurSubmission("blur.sched")); resp.StatusCode != 400 {
		t.Errorf("bad wait: %d", resp.StatusCode)
	}
}

func TestOversize(t *testing.T) {
	h := newHarness(t, Config{MaxBody: 1 << 10}, nil)
	big := strings.Repeat("# padding\n", 200)
	sub := blurSubmission("blur.sched")
	sub.Spec += big
	if resp, body := h.submitJSON("", sub); resp.StatusCode != 413 || !strings.Contains(body, "1024 bytes") {
		t.Errorf("declared oversize: %d %s", resp.StatusCode, body)
	}
	// A body without a declared length is cut while reading.
	req, _ := http.NewRequest("POST", h.srv.URL+"/v1/presburger", bufio.NewReader(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("chunked oversize: %d", resp.StatusCode)
	}
}

func TestTokens(t *testing.T) {
	h := newHarness(t, Config{Tokens: []string{"s3cret"}}, nil)
	sub := blurSubmission("blur.sched")
	resp, _ := h.submitJSON("", sub)
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d", resp.StatusCode)
	}
	if resp, _ := h.submitJSON("", sub, "Authorization", "Bearer wrong"); resp.StatusCode != 403 {
		t.Errorf("wrong token: %d", resp.StatusCode)
	}
	resp, body := h.submitJSON("", sub, "Authorization", "Bearer s3cret")
	if resp.StatusCode != 202 {
		t.Fatalf("good token: %d %s", resp.StatusCode, body)
	}
	id := decode[Summary](t, body).ID
	if resp, _ := h.do("POST", "/v1/validations/"+id+"/cancel", "", ""); resp.StatusCode != 401 {
		t.Errorf("cancel without token: %d", resp.StatusCode)
	}
	if resp, _ := h.do("GET", "/v1/validations/"+id, "", ""); resp.StatusCode != 200 {
		t.Errorf("open read: %d", resp.StatusCode)
	}
	h2 := newHarness(t, Config{Tokens: []string{"s3cret"}, ReadToken: true}, nil)
	if resp, _ := h2.do("GET", "/v1/validations", "", ""); resp.StatusCode != 401 {
		t.Errorf("read without token: %d", resp.StatusCode)
	}
	if resp, _ := h2.do("GET", "/v1/validations", "", "", "Authorization", "Bearer s3cret"); resp.StatusCode != 200 {
		t.Errorf("read with token: %d", resp.StatusCode)
	}
	if resp, _ := h2.do("GET", "/healthz", "", ""); resp.StatusCode != 200 {
		t.Errorf("healthz must stay open: %d", resp.StatusCode)
	}
}

func TestUnknownIDs(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	for _, r := range [][2]string{{"GET", "/v1/validations/nope"}, {"GET", "/v1/validations/nope/events"},
		{"GET", "/v1/validations/nope/conditions/1.smt2"}, {"POST", "/v1/validations/nope/cancel"}, {"DELETE", "/v1/validations/nope"}, {"GET", "/v1/nothing"}} {
		resp, body := h.do(r[0], r[1], "", "")
		if resp.StatusCode != 404 || decode[Problem](t, body).Type != probNotFound {
			t.Errorf("%s %s: %d %s", r[0], r[1], resp.StatusCode, body)
		}
	}
}

func TestCancelAndEvents(t *testing.T) {
	g := newGate()
	h := newHarness(t, Config{}, g.run)
	_, body := h.submitJSON("", blurSubmission("blur.sched"))
	running := decode[Summary](t, body)
	<-g.started
	// Queue a second one behind a full worker? Two slots: fill the second.
	_, body = h.submitJSON("", blurSubmission("broken_wrong_row.sched"))
	second := decode[Summary](t, body)
	<-g.started

	// The event stream shows progress, then done after the cancellation.
	req, _ := http.NewRequest("GET", h.srv.URL+running.URL+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events content type %q", resp.Header.Get("Content-Type"))
	}
	sc := bufio.NewScanner(resp.Body)
	readEvent := func() (string, Event) {
		var name string
		var e Event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e); err != nil {
					t.Fatalf("event data %q: %v", line, err)
				}
			case line == "" && name != "":
				return name, e
			}
		}
		return "", e
	}
	name, e := readEvent()
	if name != "progress" || e.Status != store.Running || e.Phase != "solve" || e.Total != 3 {
		t.Errorf("first event %s %+v", name, e)
	}
	resp2, body := h.do("POST", running.URL+"/cancel", "", "")
	if resp2.StatusCode != 200 || decode[Summary](t, body).Status != store.Cancelled {
		t.Errorf("cancel: %d %s", resp2.StatusCode, body)
	}
	name, e = readEvent()
	if name != "done" || e.Status != store.Cancelled {
		t.Errorf("last event %s %+v", name, e)
	}
	if sc.Scan() {
		t.Errorf("the stream goes on after done: %q", sc.Text())
	}
	if resp, _ := h.do("DELETE", running.URL, "", ""); resp.StatusCode != 409 {
		t.Errorf("cancelling a cancelled one: %d", resp.StatusCode)
	}
	_, text := h.do("GET", running.URL, "", "", "Accept", "text/plain")
	if !strings.HasPrefix(text, "CANCELLED") {
		t.Errorf("cancelled text: %s", text)
	}
	if resp, _ := h.do("GET", running.URL+"/conditions/1.smt2", "", ""); resp.StatusCode != 404 {
		t.Errorf("smt2 of a cancelled one: %d", resp.StatusCode)
	}
	// The other finishes; its events end with done and the verdict.
	close(g.release)
	_, body = h.do("GET", "/v1/validations/"+second.ID+"/events", "", "")
	if !strings.Contains(body, "event: done") || !strings.Contains(body, `"verdict":"invalid"`) ||
		!strings.Contains(body, `"done":2,"total":2`) {
		t.Errorf("events of a finished one (the done event counts every condition, settled):\n%s", body)
	}
	if resp, _ := h.do("GET", "/v1/validations/"+second.ID+"/conditions/2.smt2", "", ""); resp.StatusCode != 404 {
		t.Errorf("a condition without SMT: %d", resp.StatusCode)
	}
	if resp, _ := h.do("GET", "/v1/validations/"+second.ID+"/conditions/9.smt2", "", ""); resp.StatusCode != 404 {
		t.Errorf("a missing condition: %d", resp.StatusCode)
	}
	if resp, body := h.do("GET", "/v1/validations/"+second.ID+"/conditions/1.smt2", "", ""); resp.StatusCode != 200 || !strings.Contains(body, "status: failed") {
		t.Errorf("smt2: %d %s", resp.StatusCode, body)
	}
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t, Config{RatePerMinute: 3}, nil)
	for i := 0; i < 3; i++ {
		if resp, body := h.do("POST", "/v1/compile", "", "", "Authorization", "Bearer a"); resp.StatusCode != 400 {
			t.Fatalf("request %d: %d %s", i, resp.StatusCode, body)
		}
	}
	resp, body := h.do("POST", "/v1/compile", "", "", "Authorization", "Bearer a")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("4th request: %d %s", resp.StatusCode, body)
	}
	// Another token has its own bucket; reads are not limited.
	if resp, _ := h.do("POST", "/v1/compile", "", "", "Authorization", "Bearer b"); resp.StatusCode != 400 {
		t.Errorf("other token: %d", resp.StatusCode)
	}
	if resp, _ := h.do("GET", "/v1/validations", "", "", "Authorization", "Bearer a"); resp.StatusCode != 200 {
		t.Errorf("read: %d", resp.StatusCode)
	}
	l := newLimiter(60)
	now := time.Now()
	for i := 0; i < 60; i++ {
		l.allow("k", now)
	}
	if _, ok := l.allow("k", now); ok {
		t.Error("bucket not empty")
	}
	if _, ok := l.allow("k", now.Add(1100*time.Millisecond)); !ok {
		t.Error("bucket not refilled")
	}
}

func TestPanicIsProblem(t *testing.T) {
	var logs bytes.Buffer
	lg := newTestLogger(&logs)
	h := newHarness(t, Config{Logger: &lg}, nil)
	h.st.OnGet = func(id string) {
		if id == "boom" {
			panic("kaboom")
		}
	}
	resp, body := h.do("GET", "/v1/validations/boom", "", "")
	p := decode[Problem](t, body)
	if resp.StatusCode != 500 || p.RequestID == "" || !strings.Contains(p.Detail, p.RequestID) || resp.Header.Get("X-Request-Id") != p.RequestID {
		t.Fatalf("panic: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), `"panic":"kaboom"`) || !strings.Contains(logs.String(), `"request_id":"`+p.RequestID+`"`) {
		t.Errorf("logs:\n%s", logs.String())
	}
	// The server goes on.
	if resp, _ := h.do("GET", "/healthz", "", ""); resp.StatusCode != 200 {
		t.Errorf("after the panic: %d", resp.StatusCode)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if !strings.Contains(line, `"request_id":"`) {
			t.Errorf("log line without request id: %s", line)
		}
	}
}

func TestPresburger(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	resp, body := h.do("POST", "/v1/presburger", "text/plain", "S := { A[i] : 0 <= i < 4 };\nS;\nS <= S;\n")
	if resp.StatusCode != 200 || !strings.Contains(decode[CalculatorResult](t, body).Output, "True") {
		t.Errorf("presburger: %d %s", resp.StatusCode, body)
	}
	resp, body = h.do("POST", "/v1/presburger", "application/json", `{"script": "S := { A[i] : 0 <= i < 4 };\nS;\nT + ;\nS;\n"}`)
	p := decode[Problem](t, body)
	if resp.StatusCode != 422 || len(p.Errors) != 1 || p.Errors[0].Line != 3 || p.Errors[0].Col == 0 || p.Errors[0].File != "script" ||
		p.Output == nil || strings.Count(*p.Output, "A[i]") != 2 {
		t.Errorf("failing script: %d %s", resp.StatusCode, body)
	}
	_, text := h.do("POST", "/v1/presburger", "text/plain", "{ A[i] : 0 <= i < 4 } = { A[i] : 0 <= i <= 3 };", "Accept", "text/plain")
	if strings.TrimSpace(text) != "True" {
		t.Errorf("text: %q", text)
	}
	if resp, _ := h.do("POST", "/v1/presburger", "image/png", "x"); resp.StatusCode != 415 {
		t.Errorf("png: %d", resp.StatusCode)
	}
}

// A method a path does not serve answers 405 with Allow.
func TestMethodNotAllowedAllow(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	for _, c := range []struct{ method, path, allow string }{
		{"PUT", "/v1/validations", "GET, POST"},
		{"PATCH", "/v1/validations/01M81WA400HBRE2AYE63D26F8D", "GET, DELETE"},
		{"GET", "/v1/compile", "POST"},
	} {
		resp, body := h.do(c.method, c.path, "", "")
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != c.allow || !strings.Contains(body, "allowed: "+c.allow) {
			t.Errorf("%s %s: %d Allow %q %s", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), body)
		}
	}
}

// The list searches file names and bounds submission times.
func TestListNameAndDates(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	h.submitJSON("", blurSubmission("blur.sched"))
	h.submitJSON("", blurSubmission("broken_wrong_row.sched"))
	for q, want := range map[string]int{
		"name=WRONG_ROW": 1, "name=blur": 2, "name=matmul": 0,
		"since=2000-01-01": 2, "until=2000-01-01": 0, "since=2999-01-01T00:00:00Z": 0,
	} {
		_, body := h.do("GET", "/v1/validations?"+q, "", "")
		if got := len(decode[List](t, body).Validations); got != want {
			t.Errorf("%s: %d validations, want %d", q, got, want)
		}
	}
	if resp, body := h.do("GET", "/v1/validations?since=yesterday", "", ""); resp.StatusCode != 400 || !strings.Contains(body, "since:") {
		t.Errorf("a bad date: %d %s", resp.StatusCode, body)
	}
}

// waitUntil polls cond (every 20 ms) until it holds, and fails the test
// if it does not hold within the given time.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s in vain for %s", within, what)
		}
	}
}
