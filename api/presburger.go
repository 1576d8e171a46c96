package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/presburger"
	"github.com/augur-verify/augur/presburger/iscc"
	"github.com/augur-verify/augur/validate"
)

// CalculatorResult is the answer of POST /v1/presburger when every
// statement succeeded.
type CalculatorResult struct {
	Output string `json:"output"`
}

// presburgerScript is the JSON body of POST /v1/presburger.
type presburgerScript struct {
	Script string `json:"script"`
}

// scriptName names the script in the calculator's error positions.
const scriptName = "script"

// presburger is POST /v1/presburger: it runs a calculator script (text/plain,
// or JSON {"script": ...}) within the time budget and answers its output,
// or 422 with every failed statement's positioned error.
func (s *server) presburger(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.readFailed(w, r, err)
		return
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var script string
	switch ct {
	case "application/json":
		var in presburgerScript
		if err := decodeJSON(bytes.NewReader(body), &in); err != nil {
			problem(w, r, http.StatusBadRequest, probBadRequest, "the body is not {\"script\": \"...\"}: "+err.Error())
			return
		}
		script = in.Script
	case "text/plain", "", "application/octet-stream":
		script = string(body)
	default:
		problem(w, r, http.StatusUnsupportedMediaType, probUnsupported, "send the script as text/plain or as JSON {\"script\": ...}")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.PresburgerTimeout)
	defer cancel()
	if s.cfg.PresburgerBudget != (presburger.Budget{}) {
		ctx = presburger.WithBudget(ctx, s.cfg.PresburgerBudget)
	}
	var out bytes.Buffer
	var errs errorCollector
	err = iscc.Run(ctx, scriptName, strings.NewReader(script), &out, &errs)
	switch {
	case err == nil:
		if wantsText(r, false) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write(out.Bytes())
			return
		}
		writeJSON(w, http.StatusOK, CalculatorResult{Output: out.String()})
	case errors.Is(err, iscc.ErrFailed):
		output := out.String()
		detail := err.Error()
		if ctx.Err() == context.DeadlineExceeded {
			detail += fmt.Sprintf(" (the time budget of %s ran out)", s.cfg.PresburgerTimeout)
		}
		writeProblem(w, r, Problem{Type: probMalformed, Status: http.StatusUnprocessableEntity, Title: "Failed statements",
			Detail: detail, Errors: errs.errs, Output: &output})
	default:
		internalError(w, r, err)
	}
}

// errorCollector receives the calculator's diagnostics, one per write
// ("script:line:col: message", then the source line and a caret).
type errorCollector struct{ errs []validate.ErrorDetail }

var diagHead = regexp.MustCompile(`^(.*?):(\d+):(\d+): (.*)$`)

func (c *errorCollector) Write(p []byte) (int, error) {
	text := strings.TrimRight(string(p), "\n")
	head, _, _ := strings.Cut(text, "\n")
	e := validate.ErrorDetail{Message: head, Text: text}
	if m := diagHead.FindStringSubmatch(head); m != nil {
		e.File, e.Message = m[1], m[4]
		e.Line, _ = strconv.Atoi(m[2])
		e.Col, _ = strconv.Atoi(m[3])
	} else if f, msg, ok := strings.Cut(head, ": "); ok && f == scriptName {
		e.File, e.Message = f, msg
	}
	c.errs = append(c.errs, e)
	return len(p), nil
}
