package api

import (
	"regexp"
	"strings"
	"testing"
)

// goTerms matches what encoding/json's errors say of Go.
var goTerms = regexp.MustCompile(`\bGo\b|\bstruct\b|Submission|CompileRequest|\b(int|int64|float64|bool|map|\[\]string)\b|json:`)

// The JSON bodies of the API are refused in its own terms: the field by
// its JSON name, what it expects and what it got, never a Go type.
func TestJSONErrorsInTheAPIsTerms(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	for _, c := range []struct {
		path, body, want string
	}{
		{"/v1/validations", `{"spec": 1, "program": "p"}`, `field "spec": expected a string, got a number`},
		{"/v1/validations", `{"spec": "s", "program": ["p"]}`, `field "program": expected a string, got an array`},
		{"/v1/validations", `{"spec": "s", "program": "p", "options": {"timeout_seconds": "30"}}`, `field "options.timeout_seconds": expected an integer, got a string`},
		{"/v1/validations", `{"spec": "s", "program": "p", "options": {"timeout_seconds": 1.5}}`, `field "options.timeout_seconds": expected an integer, got the number 1.5`},
		{"/v1/validations", `{"spec": "s", "program": "p", "options": {"all_conditions": "yes"}}`, `field "options.all_conditions": expected a boolean (true or false), got a string`},
		{"/v1/validations", `{"spec": "s", "program": "p", "meta": {"labels": {"arch": 64}}}`, `field "meta.labels": expected a string, got a number`},
		{"/v1/validations", `{"spec": "s", "program": "p", "meta": "main"}`, `field "meta": expected an object, got a string`},
		{"/v1/validations", `["s", "p"]`, `expected a JSON object, got an array`},
		{"/v1/validations", `{"spec": "s", "program": "p", "colour": 1}`, `unknown field "colour"`},
		{"/v1/validations", `{"spec": "s"`, `the JSON ends before the object does`},
		{"/v1/validations", ``, `the body is empty: expected a JSON object`},
		{"/v1/validations", `{"spec": "s", "program": "p"} {}`, `trailing data after the JSON object`},
		{"/v1/compile", `{"algorithm": 3}`, `field "algorithm": expected a string, got a number`},
		{"/v1/presburger", `{"script": true}`, `field "script": expected a string, got a boolean`},
	} {
		resp, body := h.do("POST", c.path, "application/json", c.body)
		p := decode[Problem](t, body)
		if resp.StatusCode != 400 || !strings.HasSuffix(p.Detail, c.want) {
			t.Errorf("%s %s: %d %q, want a detail ending in %q", c.path, c.body, resp.StatusCode, p.Detail, c.want)
		}
		if goism := goTerms.FindString(p.Detail); goism != "" {
			t.Errorf("%s %s: the detail %q names Go (%q)", c.path, c.body, p.Detail, goism)
		}
	}
}

// A specification or kernel that is not text is malformed input (422),
// one error per file naming the first offending byte.
func TestBinarySubmission(t *testing.T) {
	h := newHarness(t, Config{}, nil)
	sub := blurSubmission("blur.sched")
	sub.Program = "kernel k(N) {\x00\x1b[2J"
	resp, body := h.submitJSON("", sub)
	p := decode[Problem](t, body)
	if resp.StatusCode != 422 || p.Type != probMalformed || len(p.Errors) != 1 ||
		p.Errors[0].Code != "not-text" || p.Errors[0].Message != "not a text file (NUL byte at offset 13)" || strings.ContainsRune(body, 0x1b) {
		t.Errorf("binary kernel: %d %s", resp.StatusCode, body)
	}
}
