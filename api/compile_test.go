package api

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/augur-verify/augur/api/apitest"
	"github.com/augur-verify/augur/sare"
	"github.com/augur-verify/augur/sched"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/syntax"
)

func compileJSON(req CompileRequest) string {
	data, _ := json.Marshal(req)
	return string(data)
}

func TestCompile(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	matmul := example(t, "alg/matmul.alg")
	check := func(what string, body string) Compiled {
		t.Helper()
		c := decode[Compiled](t, body)
		if c.SpecName != "spec.sare" || c.ProgramName != "prog.sched" {
			t.Errorf("%s: names %q %q", what, c.SpecName, c.ProgramName)
		}
		spec, _, err := sare.Load(&syntax.Source{Name: c.SpecName, Text: c.Spec})
		if err != nil {
			t.Fatalf("%s: sare.Load: %v\n%s", what, err, c.Spec)
		}
		if _, _, err := sched.Load(&syntax.Source{Name: c.ProgramName, Text: c.Program}, spec); err != nil {
			t.Fatalf("%s: sched.Load: %v\n%s", what, err, c.Program)
		}
		if c.ID != "" || c.Status != "" {
			t.Errorf("%s: not validated, yet %+v", what, c)
		}
		return c
	}
	// JSON, text/plain and multipart give the same pair.
	resp, body := h.do("POST", "/v1/compile", "application/json", compileJSON(CompileRequest{Algorithm: matmul, Name: "matmul.alg"}))
	if resp.StatusCode != 200 {
		t.Fatalf("json: %d %s", resp.StatusCode, body)
	}
	c := check("json", body)
	if !strings.Contains(c.Program, "matmul") {
		t.Errorf("kernel not named after the algorithm:\n%s", c.Program)
	}
	resp, body = h.do("POST", "/v1/compile?name=matmul.alg", "text/plain", matmul)
	if resp.StatusCode != 200 {
		t.Fatalf("text: %d %s", resp.StatusCode, body)
	}
	if c2 := check("text", body); c2.Spec != c.Spec || c2.Program != c.Program {
		t.Error("text/plain compiles differently")
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("algorithm", "matmul.alg")
	fw.Write([]byte(matmul))
	mw.Close()
	resp, body = h.do("POST", "/v1/compile", mw.FormDataContentType(), buf.String())
	if resp.StatusCode != 200 {
		t.Fatalf("multipart: %d %s", resp.StatusCode, body)
	}
	if c2 := check("multipart", body); c2.Program != c.Program {
		t.Error("multipart compiles differently")
	}

	// Malformed: 422 with the position.
	bad := "param N\ninput A(i) : f32\nfunc F(x) : f32 = A(x) +\noutput F over x in 0 .. N\n"
	resp, body = h.do("POST", "/v1/compile", "application/json", compileJSON(CompileRequest{Algorithm: bad, Name: "bad.alg"}))
	p := decode[Problem](t, body)
	if resp.StatusCode != 422 || p.Type != probMalformed || len(p.Errors) == 0 || p.Errors[0].File != "bad.alg" ||
		p.Errors[0].Line == 0 || p.Errors[0].Col == 0 || p.Errors[0].Code != string(syntax.CodeSyntax) || !strings.Contains(p.Errors[0].Text, "^") {
		t.Errorf("malformed: %d %s", resp.StatusCode, body)
	}
	// A checker error, positioned too.
	bad = "param N\ninput A(i) : f32\nfunc F(x) : f32 = A(x * N)\noutput F over x in 0 .. N\n"
	resp, body = h.do("POST", "/v1/compile", "text/plain", bad)
	if p := decode[Problem](t, body); resp.StatusCode != 422 || len(p.Errors) == 0 || p.Errors[0].Line != 3 || p.Errors[0].Col == 0 ||
		p.Errors[0].Code != string(syntax.CodeNotAffine) {
		t.Errorf("not quasi-affine: %d %s", resp.StatusCode, body)
	}
	// An illegal schedule directive: 422, positioned at it, of code
	// schedule.
	sched := matmul + "schedule {\n  C.update(0).parallel(r.k)\n}\n"
	resp, body = h.do("POST", "/v1/compile", "text/plain", sched)
	p = decode[Problem](t, body)
	if resp.StatusCode != 422 || len(p.Errors) != 1 || p.Errors[0].Code != string(syntax.CodeSchedule) || p.Errors[0].Line != strings.Count(matmul, "\n")+2 {
		t.Errorf("directive: %d %s", resp.StatusCode, body)
	}
	// Usage errors.
	for _, tc := range []struct{ ctype, body, query string }{
		{"text/plain", "  \n", ""},
		{"application/json", `{"algorithm": "x", "spec": "y"}`, ""},
		{"application/json", compileJSON(CompileRequest{Algorithm: matmul}), "?validate=maybe"},
		{"application/json", compileJSON(CompileRequest{Algorithm: matmul}), "?wait=forever"},
	} {
		if resp, body := h.do("POST", "/v1/compile"+tc.query, tc.ctype, tc.body); resp.StatusCode != 400 {
			t.Errorf("%s %q: %d %s", tc.query, tc.body, resp.StatusCode, body)
		}
	}
	if resp, _ := h.do("POST", "/v1/compile", "image/png", "x"); resp.StatusCode != 415 {
		t.Errorf("png: %d", resp.StatusCode)
	}
}

func TestCompileValidate(t *testing.T) {
	h := newHarness(t, Config{Tokens: []string{"s3cret"}}, Runner(RunnerOptions{}))
	matmul := example(t, "alg/matmul.alg")
	req := CompileRequest{Algorithm: matmul, Name: "matmul.alg", Validate: true,
		Meta: store.Meta{Repository: "acme/kernels", Labels: map[string]string{"arch": "x86"}}}
	// No token: 401; an unknown one: 403.
	if resp, body := h.do("POST", "/v1/compile", "application/json", compileJSON(req)); resp.StatusCode != 401 {
		t.Errorf("no token: %d %s", resp.StatusCode, body)
	}
	if resp, body := h.do("POST", "/v1/compile", "application/json", compileJSON(req), "Authorization", "Bearer nope"); resp.StatusCode != 403 {
		t.Errorf("bad token: %d %s", resp.StatusCode, body)
	}
	resp, body := h.do("POST", "/v1/compile?wait=120s", "application/json", compileJSON(req), "Authorization", "Bearer s3cret")
	if resp.StatusCode != 200 {
		t.Fatalf("validate with wait: %d %s", resp.StatusCode, body)
	}
	c := decode[Compiled](t, body)
	if c.Verdict != "valid" || c.Status != store.Done || c.ID == "" || c.URL != validationURL(c.ID) || resp.Header.Get("Location") != c.URL || c.Spec == "" {
		t.Fatalf("validated: %+v", c)
	}
	// The validation is stored with the sources and the metadata.
	_, body = h.do("GET", c.URL+"?source=true", "", "")
	d := decode[Detail](t, body)
	if d.Verdict != "valid" || d.Program != c.Program || d.ProgramName != "prog.sched" || d.Meta.Repository != "acme/kernels" {
		t.Errorf("stored: %s", body)
	}
	// Without wait, through ?validate=true on a text body: 202, answered
	// from the stored verdict.
	resp, body = h.do("POST", "/v1/compile?validate=true&name=matmul.alg", "text/plain", matmul, "Authorization", "Bearer s3cret")
	if c2 := decode[Compiled](t, body); resp.StatusCode != 202 || c2.ID == "" || c2.CachedFrom != c.ID {
		t.Errorf("validate=true: %d %s", resp.StatusCode, body)
	}
	// A bad option: 400.
	req.Options.ValueModel = "fuzzy"
	if resp, body := h.do("POST", "/v1/compile", "application/json", compileJSON(req), "Authorization", "Bearer s3cret"); resp.StatusCode != 400 {
		t.Errorf("bad value model: %d %s", resp.StatusCode, body)
	}
}

// TestCompileScheduled: a schedule in the request, the autoscheduler and
// an injection through POST /v1/compile.
func TestCompileScheduled(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	alg := example(t, "alg/blur.alg")
	resp, body := h.do("POST", "/v1/compile", "application/json", compileJSON(CompileRequest{Algorithm: string(alg),
		Schedule: "BH.compute_at(Out, y).store_root().fold_storage(y, 4)\n"}))
	c := decode[Compiled](t, body)
	if resp.StatusCode != 200 || !strings.Contains(c.Program, "% 4") || !strings.Contains(c.Schedule, "fold_storage(y, 4)") {
		t.Errorf("schedule: %d %s", resp.StatusCode, body)
	}
	resp, body = h.do("POST", "/v1/compile?auto=true", "text/plain", string(alg))
	if c := decode[Compiled](t, body); resp.StatusCode != 200 || !strings.Contains(c.Schedule, "tile(") {
		t.Errorf("auto: %d %s", resp.StatusCode, body)
	}
	resp, body = h.do("POST", "/v1/compile", "application/json", compileJSON(CompileRequest{Algorithm: string(alg),
		Schedule: "BH.compute_at(Out, y).store_root().fold_storage(y, 4)\n", Inject: "fold-too-small"}))
	if c := decode[Compiled](t, body); resp.StatusCode != 200 || c.Injected != "fold-too-small" || !strings.Contains(c.Program, "% 2") {
		t.Errorf("inject: %d %s", resp.StatusCode, body)
	}
	resp, body = h.do("POST", "/v1/compile?inject=fold-too-small", "text/plain", string(alg))
	if p := decode[Problem](t, body); resp.StatusCode != 422 || len(p.Errors) == 0 || !strings.Contains(p.Errors[0].Message, "does not apply") {
		t.Errorf("inapplicable injection: %d %s", resp.StatusCode, body)
	}
	resp, body = h.do("POST", "/v1/compile", "application/json", compileJSON(CompileRequest{Algorithm: string(alg), Schedule: "Out.parallel(z)\n"}))
	if p := decode[Problem](t, body); resp.StatusCode != 422 || len(p.Errors) != 1 || p.Errors[0].Line != 1 || !strings.Contains(p.Errors[0].Message, "no loop z") {
		t.Errorf("illegal schedule: %d %s", resp.StatusCode, body)
	}
}

// Compilations are bounded: an algorithm beyond MaxAlgorithm is refused
// (413), and one that cannot start or end within CompileTimeout answers
// 503 with Retry-After instead of holding the handler.
func TestCompileBounded(t *testing.T) {
	s, handler := newServer(Config{Store: apitest.NewStore(), MaxCompiles: 1, CompileTimeout: 300 * time.Millisecond, MaxAlgorithm: 4096})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	post := func(body string) (*http.Response, string) {
		resp, err := http.Post(srv.URL+"/v1/compile?name=matmul.alg", "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	matmul := example(t, "alg/matmul.alg")
	if resp, body := post(matmul + strings.Repeat("# padding\n", 500)); resp.StatusCode != 413 || !strings.Contains(body, "at most 4096") {
		t.Errorf("too large: %d %s", resp.StatusCode, body)
	}
	// The only slot taken, and kept until the answer has come: the request
	// waits its deadline and answers 503 instead of waiting for the slot.
	s.compiles <- struct{}{}
	resp, body := post(matmul)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "did not end within") {
		t.Errorf("no slot: %d %s", resp.StatusCode, body)
	}
	<-s.compiles
	if resp, body := post(matmul); resp.StatusCode != 200 {
		t.Errorf("with a slot: %d %s", resp.StatusCode, body)
	}
}
