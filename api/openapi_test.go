package api

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/augur-verify/augur/sched"
)

// The conformance checker: every response the tests receive is checked
// against the embedded OpenAPI document: its path, method and status must
// be documented, with its content type, and a JSON body must satisfy the
// schema (types, required properties, enums, items, $ref, nullable,
// additionalProperties).

var (
	docOnce sync.Once
	doc     map[string]any
	docErr  error
)

func openAPIDoc(t *testing.T) map[string]any {
	t.Helper()
	docOnce.Do(func() { docErr = json.Unmarshal(openAPI, &doc) })
	if docErr != nil {
		t.Fatalf("openapi.json: %v", docErr)
	}
	return doc
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// operation finds the documented operation of method on path.
func operation(t *testing.T, method, path string) (map[string]any, string) {
	d := openAPIDoc(t)
	path, _, _ = strings.Cut(path, "?")
	var names []string
	for tmpl := range obj(d["paths"]) {
		names = append(names, tmpl)
	}
	sort.Strings(names)
	for _, tmpl := range names {
		re := "^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		if regexp.MustCompile(re).MatchString(path) {
			if op := obj(obj(d["paths"])[tmpl])[strings.ToLower(method)]; op != nil {
				return obj(op), tmpl
			}
		}
	}
	return nil, ""
}

func checkConformance(t *testing.T, method, path string, resp *http.Response, body string) {
	t.Helper()
	op, tmpl := operation(t, method, path)
	if op == nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			return // an undocumented path is answered 404
		}
		t.Errorf("%s %s: not in openapi.json", method, path)
		return
	}
	r := obj(obj(op["responses"])[strconv.Itoa(resp.StatusCode)])
	if r == nil {
		t.Errorf("%s %s: status %d not documented", method, tmpl, resp.StatusCode)
		return
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	content := obj(r["content"])
	if content == nil {
		return
	}
	media := obj(content[ct])
	if media == nil {
		t.Errorf("%s %s %d: content type %q not documented", method, tmpl, resp.StatusCode, ct)
		return
	}
	if ct != "application/json" && ct != "application/problem+json" {
		return
	}
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Errorf("%s %s %d: not JSON: %v", method, tmpl, resp.StatusCode, err)
		return
	}
	for _, e := range checkSchema(t, obj(media["schema"]), v, "$") {
		t.Errorf("%s %s %d: %s", method, tmpl, resp.StatusCode, e)
	}
}

// checkSchema returns the ways v fails the schema s.
func checkSchema(t *testing.T, s map[string]any, v any, at string) []string {
	if s == nil {
		return nil
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		target := obj(obj(obj(openAPIDoc(t)["components"])["schemas"])[name])
		if target == nil {
			return []string{fmt.Sprintf("%s: unresolved %s", at, ref)}
		}
		return checkSchema(t, target, v, at)
	}
	if v == nil {
		if s["nullable"] == true {
			return nil
		}
		return []string{at + ": null"}
	}
	var errs []string
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if e == v {
				found = true
			}
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v not in %v", at, v, enum))
		}
	}
	switch s["type"] {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return append(errs, fmt.Sprintf("%s: %T, want an object", at, v))
		}
		props := obj(s["properties"])
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := m[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: required %q missing", at, r))
			}
		}
		for k, x := range m {
			if ps := obj(props[k]); ps != nil {
				errs = append(errs, checkSchema(t, ps, x, at+"."+k)...)
			} else if ap := obj(s["additionalProperties"]); ap != nil {
				errs = append(errs, checkSchema(t, ap, x, at+"."+k)...)
			} else if props != nil {
				errs = append(errs, fmt.Sprintf("%s: undocumented property %q", at, k))
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return append(errs, fmt.Sprintf("%s: %T, want an array", at, v))
		}
		for i, x := range a {
			errs = append(errs, checkSchema(t, obj(s["items"]), x, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case "string":
		if _, ok := v.(string); !ok {
			errs = append(errs, fmt.Sprintf("%s: %T, want a string", at, v))
		}
	case "integer":
		if f, ok := v.(float64); !ok || f != float64(int64(f)) {
			errs = append(errs, fmt.Sprintf("%s: %v, want an integer", at, v))
		}
	case "number":
		if _, ok := v.(float64); !ok {
			errs = append(errs, fmt.Sprintf("%s: %T, want a number", at, v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			errs = append(errs, fmt.Sprintf("%s: %T, want a boolean", at, v))
		}
	}
	return errs
}

// The document itself: every $ref resolves, every operation has
// responses, and the checker rejects what it should.
func TestOpenAPIDocument(t *testing.T) {
	d := openAPIDoc(t)
	if d["openapi"] != "3.0.3" {
		t.Errorf("openapi = %v", d["openapi"])
	}
	refs := regexp.MustCompile(`"\$ref": "#/components/schemas/([A-Za-z]+)"`).FindAllStringSubmatch(string(openAPI), -1)
	schemas := obj(obj(d["components"])["schemas"])
	for _, m := range refs {
		if schemas[m[1]] == nil {
			t.Errorf("unresolved schema %s", m[1])
		}
	}
	for _, want := range []string{"/v1/validations", "/v1/validations/{id}", "/v1/validations/{id}/cancel", "/v1/validations/{id}/events",
		"/v1/validations/{id}/conditions/{n}.smt2", "/v1/compile", "/v1/presburger", "/healthz", "/readyz", "/metrics", "/openapi.json"} {
		if obj(d["paths"])[want] == nil {
			t.Errorf("path %s undocumented", want)
		}
	}
	// The checker must be able to fail.
	bad := map[string]any{"id": "x", "url": 3, "status": "weird"}
	if errs := checkSchema(t, map[string]any{"$ref": "#/components/schemas/Summary"}, bad, "$"); len(errs) < 4 {
		t.Errorf("checker found only %v", errs)
	}
}

// The document's kinds are the table of kinds (sched.Kinds), in its order.
func TestOpenAPIKinds(t *testing.T) {
	enum, _ := obj(obj(obj(openAPIDoc(t)["components"])["schemas"])["Kind"])["enum"].([]any)
	var want []any
	for _, k := range sched.Kinds() {
		want = append(want, k.String())
	}
	if fmt.Sprint(enum) != fmt.Sprint(want) {
		t.Errorf("Kind enum %v, want %v", enum, want)
	}
}
