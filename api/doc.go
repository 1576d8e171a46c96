// Package api is Augur's validation service over HTTP: CI pipelines post a
// specification and a kernel, engineers read verdicts and counterexamples,
// and the same reports augur validate prints come back as JSON or text.
//
// New builds the handler from a Config: the routes (validations.go for
// submissions, reads, lists, cancellation, server-sent events and SMT-LIB2
// scripts; compile.go for the bundled compiler, POST /v1/compile;
// presburger.go for the calculator; health in server.go, Prometheus
// metrics in metrics.go), the dashboard (package web) at "/", behind the
// login form of login.go when reading needs a token, the middleware (request ids and logs, metrics, panics turned
// into problem details, bearer tokens, body limits and rate limits, in
// middleware.go) and the OpenAPI document (openapi.json, embedded). Errors
// are RFC 7807 problem details (problem.go), with positions for malformed
// input, which is rejected at submission (submission.go) so that the queue
// only holds well-formed pairs. Runner (runner.go) is the store.Runner the
// workers call: the real verifier, validate.Validate.
//
// Start reading at New in server.go.
//
// Files, in reading order: server.go, middleware.go, login.go, problem.go,
// jsonbody.go, submission.go, validations.go, compile.go, presburger.go,
// metrics.go, openapi.go, runner.go.
package api
