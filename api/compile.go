package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/augur-verify/augur/frontend"
	"github.com/augur-verify/augur/frontend/compiler"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// CompileRequest is the JSON body of POST /v1/compile.
type CompileRequest struct {
	// Algorithm is the algorithm's (.alg) text.
	Algorithm string `json:"algorithm"`
	// Name names the algorithm in error positions and the kernel
	// (default algorithm.alg).
	Name string `json:"name,omitempty"`
	// Schedule, when set, is a schedule (a schedule block or its
	// directive lines) replacing the algorithm's own.
	Schedule string `json:"schedule,omitempty"`
	// Auto compiles with the autoscheduler's schedule.
	Auto bool `json:"auto,omitempty"`
	// Inject names a miscompilation to inject on purpose.
	Inject string `json:"inject,omitempty"`
	// Validate submits the compiled pair as POST /v1/validations does.
	Validate bool `json:"validate,omitempty"`
	// Options and Meta are the validation's, as in a Submission.
	Options store.Options `json:"options"`
	Meta    store.Meta    `json:"meta"`
}

// Compiled is the answer of POST /v1/compile: the compiled sources and,
// when the pair was validated, the validation's state.
type Compiled struct {
	Spec        string       `json:"spec"`
	Program     string       `json:"program"`
	SpecName    string       `json:"spec_name"`
	ProgramName string       `json:"program_name"`
	Schedule    string       `json:"schedule,omitempty"`
	Injected    string       `json:"injected,omitempty"`
	ID          string       `json:"id,omitempty"`
	URL         string       `json:"url,omitempty"`
	Status      store.Status `json:"status,omitempty"`
	Verdict     string       `json:"verdict,omitempty"`
	Reason      string       `json:"reason,omitempty"`
	CachedFrom  string       `json:"cached_from,omitempty"`
}

// defaultAlgName names an algorithm whose request names none.
const defaultAlgName = "algorithm.alg"

// compile is POST /v1/compile: it compiles an algorithm with the bundled
// compiler (its own schedule, the request's, or the autoscheduler's; with
// an injected miscompilation on request) and answers the specification
// and the kernel; 422 with positioned errors when the algorithm or the
// schedule is malformed or illegal, or the injection does not apply. With validate it also submits the
// pair as POST /v1/validations does (202, or 200 when ?wait got the
// verdict).
func (s *server) compile(w http.ResponseWriter, r *http.Request) {
	wait, ok := s.waitParam(w, r)
	if !ok {
		return
	}
	req, err := decodeCompile(r)
	if s.decodeFailed(w, r, err, "the request",
		"send the algorithm as text/plain, multipart/form-data (field algorithm) or JSON {\"algorithm\": ...}") {
		return
	}
	if !orQueryBool(w, r, "validate", &req.Validate) || !orQueryBool(w, r, "auto", &req.Auto) {
		return
	}
	if q := r.URL.Query().Get("inject"); q != "" {
		req.Inject = q
	}
	if req.Auto && strings.TrimSpace(req.Schedule) != "" {
		problem(w, r, http.StatusBadRequest, probBadRequest, "schedule and auto are exclusive")
		return
	}
	if strings.TrimSpace(req.Algorithm) == "" {
		problem(w, r, http.StatusBadRequest, probBadRequest, "the algorithm is missing or empty")
		return
	}
	if req.Name == "" {
		req.Name = defaultAlgName
	}
	if n := max(len(req.Algorithm), len(req.Schedule)); n > s.cfg.MaxAlgorithm {
		problem(w, r, http.StatusRequestEntityTooLarge, probTooLarge,
			fmt.Sprintf("the algorithm or the schedule has %d bytes; at most %d are compiled", n, s.cfg.MaxAlgorithm))
		return
	}
	// Bounded: at most MaxCompiles at once, each answered within
	// CompileTimeout, its wait for a turn included. The compiler looks at
	// its context between steps only: a compilation past the deadline
	// keeps its turn until it stops, but the handler answers at once.
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CompileTimeout)
	defer cancel()
	select {
	case s.compiles <- struct{}{}:
	case <-ctx.Done():
		s.compileTimedOut(w, r)
		return
	}
	type outcome struct {
		res *compiler.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() { <-s.compiles }()
		res, err := s.compileAlg(ctx, req)
		done <- outcome{res, err}
	}()
	var res *compiler.Result
	select {
	case o := <-done:
		res, err = o.res, o.err
	case <-ctx.Done():
		if r.Context().Err() == nil {
			s.compileTimedOut(w, r)
		}
		return
	}
	if err != nil {
		var el syntax.ErrorList
		if !errors.As(err, &el) {
			if r.Context().Err() != nil {
				internalError(w, r, err)
				return
			}
			if ctx.Err() != nil {
				s.compileTimedOut(w, r)
				return
			}
			el = syntax.ErrorList{&syntax.Error{File: req.Name, Msg: err.Error()}}
		}
		errs := validate.ErrorDetails(el)
		writeProblem(w, r, Problem{Type: probMalformed, Status: http.StatusUnprocessableEntity, Title: "Malformed input",
			Detail: fmt.Sprintf("%d error%s in the algorithm", len(errs), plural(len(errs))), Errors: errs})
		return
	}
	s.compiled(w, r, req, res, wait)
}

// compileTimedOut answers a compilation that did not end within
// CompileTimeout.
func (s *server) compileTimedOut(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", strconv.Itoa(int(s.cfg.CompileTimeout/time.Second)))
	problem(w, r, http.StatusServiceUnavailable, probUnavailable,
		fmt.Sprintf("the compilation did not end within %s (other compilations may be running); try again later or compile with augur compile", s.cfg.CompileTimeout))
}

// compileAlg loads and compiles the request's algorithm within ctx.
func (s *server) compileAlg(ctx context.Context, req *CompileRequest) (*compiler.Result, error) {
	var schedule *syntax.Source
	if strings.TrimSpace(req.Schedule) != "" {
		schedule = &syntax.Source{Name: "schedule", Text: req.Schedule}
	}
	return compiler.CompileSource(ctx, &syntax.Source{Name: req.Name, Text: req.Algorithm}, schedule, compiler.Options{Auto: req.Auto, Inject: req.Inject})
}

// compiled answers a compilation: the pair, and with Validate its
// validation as POST /v1/validations would.
func (s *server) compiled(w http.ResponseWriter, r *http.Request, req *CompileRequest, res *compiler.Result, wait time.Duration) {
	prog := res.Kernel(frontend.Prog)
	out := Compiled{Spec: res.Spec, Program: prog.Text, SpecName: frontend.SpecFile, ProgramName: prog.File(),
		Schedule: res.Schedule, Injected: res.Injected}
	if !req.Validate {
		writeJSON(w, http.StatusOK, out)
		return
	}
	sub := &Submission{Spec: out.Spec, Program: out.Program, SpecName: out.SpecName, ProgramName: out.ProgramName,
		Options: req.Options, Meta: req.Meta}
	v, ok := s.enqueue(w, r, sub, wait)
	if !ok {
		return
	}
	out.ID, out.URL, out.Status, out.Verdict, out.Reason, out.CachedFrom = v.ID, validationURL(v.ID), v.Status, v.Verdict, v.Reason, v.CachedFrom
	w.Header().Set("Location", out.URL)
	if wait > 0 && finished(v.Status) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	writeJSON(w, http.StatusAccepted, out)
}

// decodeCompile reads the request of POST /v1/compile: the algorithm as
// the body (text/plain; ?name= names it), a multipart form (field
// algorithm, a file or a value, with name, validate and the fields of a
// submission's options and metadata), or JSON.
func decodeCompile(r *http.Request) (*CompileRequest, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "text/plain", "", "application/octet-stream":
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		return &CompileRequest{Algorithm: string(body), Name: r.URL.Query().Get("name")}, nil
	case "application/json":
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		var req CompileRequest
		if err := decodeJSON(bytes.NewReader(body), &req); err != nil {
			return nil, err
		}
		return &req, nil
	case "multipart/form-data":
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, err
		}
		var req CompileRequest
		var sub Submission
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(p)
			if err != nil {
				return nil, err
			}
			file := ""
			if _, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition")); err == nil {
				file = params["filename"]
			}
			switch name, val := p.FormName(), string(data); name {
			case "algorithm":
				req.Algorithm = val
				if file != "" && req.Name == "" {
					req.Name = file
				}
			case "name":
				req.Name = val
			case "schedule":
				req.Schedule = val
			case "inject":
				req.Inject = strings.TrimSpace(val)
			case "auto":
				b, err := strconv.ParseBool(strings.TrimSpace(val))
				if err != nil {
					return nil, fmt.Errorf("auto %q is not a boolean", val)
				}
				req.Auto = b
			case "validate":
				b, err := strconv.ParseBool(strings.TrimSpace(val))
				if err != nil {
					return nil, fmt.Errorf("validate %q is not a boolean", val)
				}
				req.Validate = b
			case "spec", "program", "spec_name", "program_name":
				return nil, fmt.Errorf("unknown field %q (the compiler names its outputs)", name)
			default:
				if err := sub.setField(name, file, val); err != nil {
					return nil, err
				}
			}
		}
		req.Options, req.Meta = sub.Options, sub.Meta
		return &req, nil
	}
	return nil, errUnsupported
}

// orQueryBool sets *b when the query parameter name is true. It answers
// 400 and returns false when the parameter is not a boolean.
func orQueryBool(w http.ResponseWriter, r *http.Request, name string, b *bool) bool {
	q := r.URL.Query().Get(name)
	if q == "" {
		return true
	}
	v, err := strconv.ParseBool(q)
	if err != nil {
		problem(w, r, http.StatusBadRequest, probBadRequest, fmt.Sprintf("%s %q is not a boolean", name, q))
		return false
	}
	*b = *b || v
	return true
}
