package api

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/augur-verify/augur/validate"
)

// Problem is an RFC 7807 problem details object.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail,omitempty"`
	Instance string `json:"instance,omitempty"`
	// RequestID identifies the request in the server's logs.
	RequestID string `json:"request_id,omitempty"`
	// Errors lists the positioned errors of malformed input.
	Errors []validate.ErrorDetail `json:"errors,omitempty"`
	// Output is what a calculator script printed before and between its
	// failed statements (POST /v1/presburger).
	Output *string `json:"output,omitempty"`
}

// Problem types: each names one kind of failure.
const (
	probMalformed    = "urn:augur:problem:malformed-input"
	probBadRequest   = "urn:augur:problem:bad-request"
	probUnauthorized = "urn:augur:problem:unauthorized"
	probForbidden    = "urn:augur:problem:forbidden"
	probNotFound     = "urn:augur:problem:not-found"
	probConflict     = "urn:augur:problem:conflict"
	probTooLarge     = "urn:augur:problem:body-too-large"
	probRateLimited  = "urn:augur:problem:rate-limited"
	probInternal     = "urn:augur:problem:internal"
	probUnavailable  = "urn:augur:problem:unavailable"
	probUnsupported  = "urn:augur:problem:unsupported-media-type"
)

// writeProblem answers with p, filling its status title, instance and
// request id.
func writeProblem(w http.ResponseWriter, r *http.Request, p Problem) {
	if p.Title == "" {
		p.Title = http.StatusText(p.Status)
	}
	if p.Instance == "" {
		p.Instance = r.URL.Path
	}
	p.RequestID = middleware.GetReqID(r.Context())
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(p.Status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}

func problem(w http.ResponseWriter, r *http.Request, status int, typ, detail string) {
	writeProblem(w, r, Problem{Type: typ, Status: status, Detail: detail})
}

// writeJSON answers with v as indented JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
