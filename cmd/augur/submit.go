package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/augur-verify/augur/api"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/validate"
)

type submitFlags struct {
	server     string
	token      string
	meta       []string
	labels     []string
	wait       time.Duration
	junit      string
	sarif      string
	valueModel string
	timeout    time.Duration
	all        bool // decide every condition (--all-conditions)
	// poll is the polling interval when the event stream fails (tests).
	poll time.Duration
}

func newSubmitCmd() *cobra.Command {
	f := submitFlags{poll: time.Second}
	cmd := &cobra.Command{
		Use:   "submit --server URL SPEC PROG [--meta k=v]... [--label k=v]... [--token T] [--wait 5m] [--junit FILE] [--sarif FILE]",
		Short: "Validate a kernel on an Augur server, for CI: the report, JUnit and SARIF, and augur validate's exit codes",
		Long: `Submit posts a specification and a kernel to an Augur server (augur serve),
waits for the verdict (--wait, following the server's event stream), prints
the report augur validate would print, and exits with augur validate's
codes: 0 valid, 1 invalid, 2 unknown (or no verdict within --wait), 3 error
(malformed input, usage, a server that cannot be reached or refuses).

--meta sets the submission's repository, branch, commit, pipeline or job;
without it they are taken from GitHub Actions' or GitLab CI's environment.
--junit writes JUnit XML (one test case per condition, failures for failed
ones); --sarif writes SARIF 2.1.0 with results at the failing statements.
The server and token default to $AUGUR_SERVER and $AUGUR_TOKEN.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return fmt.Errorf("submit takes a specification and a kernel, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSubmit(cmdContext(cmd), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], args[1], f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.server, "server", envOr("AUGUR_SERVER", "http://localhost:8080"), "the server's URL")
	fl.StringVar(&f.token, "token", os.Getenv("AUGUR_TOKEN"), "bearer token")
	fl.StringArrayVar(&f.meta, "meta", nil, "metadata key=value: repository, branch, commit, pipeline, job (repeatable)")
	fl.StringArrayVar(&f.labels, "label", nil, "free label key=value (repeatable)")
	fl.DurationVar(&f.wait, "wait", 5*time.Minute, "how long to wait for the verdict (0: submit and exit)")
	fl.StringVar(&f.junit, "junit", "", "write a JUnit XML report to this file")
	fl.StringVar(&f.sarif, "sarif", "", "write a SARIF 2.1.0 report to this file")
	fl.StringVar(&f.valueModel, "value-model", "", "value model for floats: real or ieee (default: the server's, real)")
	fl.DurationVar(&f.timeout, "timeout", 0, "time limit of each solver query (0: the server's default)")
	fl.BoolVar(&f.all, "all-conditions", false, "decide every value condition even when a failure found over Presburger sets already refutes the kernel (every failure in the SARIF and JUnit reports)")
	return cmd
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// ciMeta fills the metadata CI's environment gives.
func ciMeta(m *store.Meta) {
	first := func(names ...string) string {
		for _, n := range names {
			if v := os.Getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	if m.Repository == "" {
		m.Repository = first("GITHUB_REPOSITORY", "CI_PROJECT_PATH")
	}
	if m.Branch == "" {
		m.Branch = first("GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME")
	}
	if m.Commit == "" {
		m.Commit = first("GITHUB_SHA", "CI_COMMIT_SHA")
	}
	if m.Pipeline == "" {
		m.Pipeline = first("GITHUB_RUN_ID", "CI_PIPELINE_ID")
	}
	if m.Job == "" {
		m.Job = first("GITHUB_JOB", "CI_JOB_NAME")
	}
	// Links back to the CI run and the commit, for the dashboard.
	link := func(label, url string) {
		if url == "" {
			return
		}
		if m.Labels == nil {
			m.Labels = map[string]string{}
		}
		if _, set := m.Labels[label]; !set {
			m.Labels[label] = url
		}
	}
	if gh, repo := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"); gh != "" && repo != "" {
		if run := os.Getenv("GITHUB_RUN_ID"); run != "" {
			link("ci_url", gh+"/"+repo+"/actions/runs/"+run)
		}
		if sha := os.Getenv("GITHUB_SHA"); sha != "" {
			link("commit_url", gh+"/"+repo+"/commit/"+sha)
		}
	}
	link("ci_url", first("CI_JOB_URL", "CI_PIPELINE_URL"))
	if project, sha := os.Getenv("CI_PROJECT_URL"), os.Getenv("CI_COMMIT_SHA"); project != "" && sha != "" {
		link("commit_url", project+"/-/commit/"+sha)
	}
}

// client talks to an Augur server.
type client struct {
	base  *url.URL
	token string
	http  *http.Client
}

func (c *client) request(ctx context.Context, method, path string, body io.Reader, ctype string) (*http.Response, error) {
	u, err := c.base.Parse(path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "augur-submit/"+version)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.http.Do(req)
}

// decodeAnswer decodes a 2xx answer into v, or returns the problem.
func decodeAnswer(resp *http.Response, v any) (*api.Problem, error) {
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		var p api.Problem
		if json.Unmarshal(data, &p) != nil || p.Status == 0 {
			p = api.Problem{Status: resp.StatusCode, Title: resp.Status, Detail: strings.TrimSpace(string(data))}
		}
		return &p, nil
	}
	return nil, json.Unmarshal(data, v)
}

// post submits body to path, and submits it again after an answer that
// asks to retry later (429 Too Many Requests or 503 Service Unavailable)
// once the time its Retry-After says has passed (retry when it says
// nothing), as long as that is before the deadline. It returns the first
// other answer, or the last one asking to retry when the deadline comes
// first. Every retry is announced on errw.
func (c *client) post(ctx context.Context, errw io.Writer, path string, body []byte, deadline time.Time, retry time.Duration) (*http.Response, error) {
	for {
		resp, err := c.request(ctx, "POST", path, bytes.NewReader(body), "application/json")
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		now := time.Now()
		wait := retryAfter(resp.Header.Get("Retry-After"), now, retry)
		if now.Add(wait).After(deadline) {
			return resp, nil
		}
		resp.Body.Close()
		fmt.Fprintf(errw, "augur submit: the server answered %s; submitting again in %s\n", resp.Status, wait.Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// retryAfter reads a Retry-After header's value at time now: a number of
// seconds or an HTTP date. An empty or unreadable value, or a date in the
// past, gives def.
func retryAfter(value string, now time.Time, def time.Duration) time.Duration {
	if value == "" {
		return def
	}
	if n, err := strconv.Atoi(value); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(value); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return def
}

func fail(err error) error { return &exitError{code: exitMalformed, err: err} }

// runSubmit submits the pair to the server of f, waits for the verdict as
// long as f allows, and reports it as augur validate would.
func runSubmit(ctx context.Context, out, errw io.Writer, specPath, progPath string, f submitFlags) error {
	base, err := url.Parse(f.server)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return usageError(fmt.Errorf("--server %q is not an http(s) URL", f.server))
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	sub, err := submission(specPath, progPath, f)
	if err != nil {
		return err
	}
	c := &client{base: base, token: f.token, http: &http.Client{}}
	deadline := time.Now().Add(f.wait)

	body, _ := json.Marshal(sub)
	path := "v1/validations"
	if f.wait > 0 {
		path += "?wait=" + min(f.wait, 60*time.Second).String()
	}
	resp, err := c.post(ctx, errw, path, body, deadline, f.poll)
	if err != nil {
		return fail(fmt.Errorf("cannot reach the server: %w", err))
	}
	var d api.Detail
	p, err := decodeAnswer(resp, &d)
	switch {
	case err != nil:
		return fail(fmt.Errorf("reading the server's answer: %w", err))
	case p != nil && p.Status == http.StatusUnprocessableEntity:
		// Malformed input: reported like augur validate's ERROR.
		rep := &validate.Report{Verdict: validate.Error, Reason: p.Detail, Spec: sub.SpecName, Program: sub.ProgramName, Errors: p.Errors}
		return finish(out, answer{rep: rep}, f)
	case p != nil && resp.Header.Get("Retry-After") != "":
		return fail(fmt.Errorf("the server refused the submission: %d %s: %s (it asks to retry in %s, beyond --wait %s)",
			p.Status, p.Title, p.Detail, retryAfter(resp.Header.Get("Retry-After"), time.Now(), f.poll).Round(time.Second), f.wait))
	case p != nil:
		return fail(fmt.Errorf("the server refused the submission: %d %s: %s", p.Status, p.Title, p.Detail))
	}
	link := c.base.ResolveReference(&url.URL{Path: strings.TrimPrefix(d.URL, "/")}).String()
	if f.wait <= 0 && (d.Status == store.Queued || d.Status == store.Running) {
		// Without waiting: the URL, unless the verdict is known already
		// (answered from the cache), which is reported as any verdict.
		fmt.Fprintf(out, "submitted: %s (%s)\n", link, d.Status)
		return nil
	}
	if err := c.await(ctx, &d, deadline, f.poll); err != nil {
		return err
	}
	switch d.Status {
	case store.Queued, store.Running:
		fmt.Fprintf(out, "UNKNOWN: no verdict within %s: the validation is %s\n\nfollow it at %s\n", f.wait, d.Status, link)
		return silentExit(exitUnknown)
	case store.Cancelled:
		fmt.Fprintf(out, "CANCELLED: the validation was cancelled before its verdict\n\n%s\n", link)
		return silentExit(exitMalformed)
	case store.Failed:
		fmt.Fprintf(out, "FAILED: the server could not validate: %s\n\n%s\n", d.Error, link)
		return silentExit(exitMalformed)
	}
	a := answer{rep: reportOf(&d), link: link, cachedFrom: d.CachedFrom,
		dashboard: c.base.ResolveReference(&url.URL{Path: "validations/" + url.PathEscape(d.ID)}).String()}
	return finish(out, a, f)
}

// submission reads the two files into a submission with the options,
// metadata and labels of f, and those of the CI job it runs in.
func submission(specPath, progPath string, f submitFlags) (api.Submission, error) {
	sub := api.Submission{SpecName: filepath.ToSlash(specPath), ProgramName: filepath.ToSlash(progPath)}
	for _, p := range []struct {
		path string
		dst  *string
	}{{specPath, &sub.Spec}, {progPath, &sub.Program}} {
		data, err := os.ReadFile(p.path)
		if err != nil {
			return sub, fail(err)
		}
		*p.dst = string(data)
	}
	sub.Options = store.Options{ValueModel: f.valueModel, TimeoutSeconds: int(f.timeout / time.Second), AllConditions: f.all}
	for _, kv := range f.meta {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return sub, usageError(fmt.Errorf("--meta %q: want key=value", kv))
		}
		switch k {
		case "repository":
			sub.Meta.Repository = v
		case "branch":
			sub.Meta.Branch = v
		case "commit":
			sub.Meta.Commit = v
		case "pipeline":
			sub.Meta.Pipeline = v
		case "job":
			sub.Meta.Job = v
		default:
			return sub, usageError(fmt.Errorf("--meta %q: the keys are repository, branch, commit, pipeline and job; use --label for others", kv))
		}
	}
	ciMeta(&sub.Meta)
	for _, kv := range f.labels {
		k, v, _ := strings.Cut(kv, "=")
		if k == "" {
			return sub, usageError(fmt.Errorf("--label %q: want key=value", kv))
		}
		if sub.Meta.Labels == nil {
			sub.Meta.Labels = map[string]string{}
		}
		sub.Meta.Labels[k] = v
	}
	return sub, nil
}

// await brings d up to date until the validation is neither queued nor
// running, or until the deadline: it follows the validation's event
// stream, and polls every poll when the stream fails.
func (c *client) await(ctx context.Context, d *api.Detail, deadline time.Time, poll time.Duration) error {
	for d.Status == store.Queued || d.Status == store.Running {
		if !time.Now().Before(deadline) {
			return nil
		}
		// Follow the event stream to the end; poll when it fails.
		if err := c.follow(ctx, d.URL+"/events", deadline); err != nil {
			select {
			case <-ctx.Done():
				return fail(ctx.Err())
			case <-time.After(min(poll, time.Until(deadline))):
			}
		}
		resp, err := c.request(ctx, "GET", strings.TrimPrefix(d.URL, "/"), nil, "")
		if err != nil {
			return fail(fmt.Errorf("cannot reach the server: %w", err))
		}
		var nd api.Detail
		p, err := decodeAnswer(resp, &nd)
		if err != nil || p != nil {
			if err == nil {
				err = fmt.Errorf("%d %s: %s", p.Status, p.Title, p.Detail)
			}
			return fail(fmt.Errorf("reading validation %s: %w", d.ID, err))
		}
		*d = nd
	}
	return nil
}

// answer is a verdict as augur submit reports it.
type answer struct {
	rep *validate.Report
	// link is the validation's API URL, dashboard its page ("" for
	// malformed input, refused before any validation).
	link, dashboard string
	// cachedFrom is the validation whose verdict the server reused.
	cachedFrom string
}

// follow reads the event stream at path until its "done" event or the
// deadline; an error means the stream failed before either.
func (c *client) follow(ctx context.Context, path string, deadline time.Time) error {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	resp, err := c.request(ctx, "GET", strings.TrimPrefix(path, "/"), nil, "")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("events: %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if sc.Text() == "event: done" {
			return nil
		}
	}
	if ctx.Err() == context.DeadlineExceeded {
		return nil
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("events: the stream ended without done")
}

// reportOf rebuilds the report augur validate prints from a validation's
// detail.
func reportOf(d *api.Detail) *validate.Report {
	rep := &validate.Report{
		Verdict: validate.Verdict(d.Verdict), Reason: d.Reason, Spec: d.SpecName, Program: d.ProgramName,
		Kernel: d.Kernel, ValueModel: d.ValueModel, Assumptions: d.Assumptions,
		Counterexample: d.Counterexample, Errors: d.Errors, Timings: d.Timings,
	}
	for _, c := range d.Conditions {
		rep.Conditions = append(rep.Conditions, c.ConditionResult)
	}
	return rep
}

// finish prints the report, writes the JUnit and SARIF files and exits
// with the verdict's code.
func finish(out io.Writer, a answer, f submitFlags) error {
	if err := a.rep.WriteText(out, false); err != nil {
		return err
	}
	if a.cachedFrom != "" {
		fmt.Fprintln(out, api.CachedNote(a.cachedFrom))
	}
	if a.dashboard != "" {
		fmt.Fprintf(out, "\ndashboard: %s\n", a.dashboard)
	}
	if a.link != "" {
		fmt.Fprintf(out, "details: %s\n", a.link)
	}
	if f.junit != "" {
		if err := writeFileWith(f.junit, func(w io.Writer) error { return writeJUnit(w, a) }); err != nil {
			return fail(err)
		}
	}
	if f.sarif != "" {
		if err := writeFileWith(f.sarif, func(w io.Writer) error { return writeSARIF(w, a) }); err != nil {
			return fail(err)
		}
	}
	if code := a.rep.ExitCode(); code != 0 {
		return silentExit(code)
	}
	return nil
}

func writeFileWith(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// JUnit XML.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     float64      `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       float64         `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      float64       `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Skipped   *junitMessage `xml:"skipped"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

func writeJUnit(w io.Writer, a answer) error {
	rep := a.rep
	suite := junitSuite{Name: rep.Program + " against " + rep.Spec,
		Properties: []junitProperty{{"verdict", string(rep.Verdict)}, {"reason", rep.Reason}, {"value_model", rep.ValueModel}}}
	if a.link != "" {
		suite.Properties = append(suite.Properties, junitProperty{"url", a.link})
	}
	if a.dashboard != "" {
		suite.Properties = append(suite.Properties, junitProperty{"dashboard", a.dashboard})
	}
	if a.cachedFrom != "" {
		suite.Properties = append(suite.Properties, junitProperty{"cached_from", a.cachedFrom})
	}
	class := "augur." + strings.TrimSuffix(filepath.Base(rep.Program), filepath.Ext(rep.Program))
	for _, c := range rep.Conditions {
		tc := junitCase{Name: fmt.Sprintf("C%d %s at %s:%d:%d", c.ID, c.Kind, c.File, c.Line, c.Col), Classname: class,
			File: c.File, Line: c.Line, Time: c.Seconds}
		switch c.Status {
		case validate.Failed:
			tc.Failure = &junitMessage{Message: orText(c.Reason, c.Kind.String()), Type: c.Kind.String(), Text: conditionText(rep, c)}
			suite.Failures++
		case validate.Undecided:
			tc.Skipped = &junitMessage{Message: "undecided: " + c.Reason}
			suite.Skipped++
		}
		suite.Time += c.Seconds
		suite.Cases = append(suite.Cases, tc)
	}
	for _, e := range rep.Errors {
		suite.Cases = append(suite.Cases, junitCase{Name: fmt.Sprintf("malformed input at %s:%d:%d", e.File, e.Line, e.Col), Classname: class,
			File: e.File, Line: e.Line, Failure: &junitMessage{Message: e.Message, Type: malformedInput, Text: e.Text}})
		suite.Failures++
	}
	if len(suite.Cases) == 0 || (rep.Verdict != validate.Valid && suite.Failures == 0 && suite.Skipped == 0) {
		tc := junitCase{Name: "verdict", Classname: class}
		if rep.Verdict != validate.Valid {
			var b strings.Builder
			rep.WriteText(&b, false)
			tc.Failure = &junitMessage{Message: strings.ToUpper(string(rep.Verdict)) + ": " + rep.Reason, Type: string(rep.Verdict), Text: b.String()}
			suite.Failures++
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests = len(suite.Cases)
	all := junitSuites{Name: "augur", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Time: suite.Time, Suites: []junitSuite{suite}}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// conditionText describes a failed condition with its formula and its
// own counterexample (that of the report for the first failed condition,
// the condition's for the others).
func conditionText(rep *validate.Report, c validate.ConditionResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "C%d %s at %s:%d:%d: %s\n", c.ID, c.Kind, c.File, c.Line, c.Col, c.Text)
	if c.Reason != "" {
		fmt.Fprintf(&b, "reason: %s\n", c.Reason)
	}
	if c.Formula != "" {
		fmt.Fprintf(&b, "formula: %s\n", c.Formula)
	}
	cx := c.Counterexample
	if cx == nil && rep.Counterexample != nil && rep.Counterexample.Condition == c.ID {
		cx = rep.Counterexample
	}
	if cx != nil {
		var r strings.Builder
		(&validate.Report{Verdict: validate.Invalid, Reason: cx.Kind.String(), Counterexample: cx}).WriteText(&r, false)
		b.WriteString("counterexample:\n")
		b.WriteString(r.String())
	}
	return b.String()
}

// malformedHelp explains the errors of malformed input.
const malformedHelp = "The specification or the kernel does not parse or type-check; the message gives the position and the rule broken."

// ruleHelp is the help text of a rule described as desc: help, the
// explanation of its kind of failure ("" when there is none), and where
// to read more.
func ruleHelp(desc, help string) string {
	if help == "" {
		help = "A verification condition of kind " + desc + " failed or could not be decided; see the result's message."
	}
	return help + " See docs/validate.md for verdicts and counterexamples."
}

// SARIF 2.1.0.

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool      `json:"tool"`
	Results    []sarifResult  `json:"results"`
	Properties map[string]any `json:"properties,omitempty"`
}

// runProperties are the SARIF run's properties: the verdict, the
// validation's URLs, and whether the verdict was cached.
func runProperties(a answer) map[string]any {
	p := map[string]any{"verdict": string(a.rep.Verdict)}
	if a.link != "" {
		p["url"] = a.link
	}
	if a.dashboard != "" {
		p["dashboard"] = a.dashboard
	}
	if a.cachedFrom != "" {
		p["cached"], p["cachedFrom"] = true, a.cachedFrom
	}
	return p
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name,omitempty"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	Help             sarifMessage `json:"help"`
	HelpURI          string       `json:"helpUri,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// malformedInput names the errors of malformed input as a kind of
// condition would be named.
const malformedInput = "malformed input"

// ruleID turns a condition kind into a rule id: "annotation mismatch"
// becomes "annotation-mismatch".
func ruleID(kind string) string {
	return strings.Join(strings.Fields(strings.ToLower(kind)), "-")
}

func location(file string, line, col int) []sarifLocation {
	if file == "" {
		return nil
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: filepath.ToSlash(file)}}}
	if line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: line, StartColumn: col}
	}
	return []sarifLocation{loc}
}

func writeSARIF(w io.Writer, a answer) error {
	rep, link := a.rep, a.dashboard
	if link == "" {
		link = a.link
	}
	rules := map[string]sarifRule{}
	var results []sarifResult
	// add adds the result r of the rule described as desc, with the
	// help text help (see ruleHelp).
	add := func(r sarifResult, desc, help string) {
		if _, ok := rules[r.RuleID]; !ok {
			rules[r.RuleID] = sarifRule{ID: r.RuleID, Name: r.RuleID, ShortDescription: sarifMessage{desc},
				FullDescription: sarifMessage{ruleHelp(desc, help)}, Help: sarifMessage{ruleHelp(desc, help)},
				HelpURI: "https://github.com/augur-verify/augur/blob/main/docs/validate.md"}
		}
		if link != "" {
			r.Message.Text += "\n" + link
		}
		results = append(results, r)
	}
	for _, c := range rep.Conditions {
		switch c.Status {
		case validate.Failed:
			add(sarifResult{RuleID: ruleID(c.Kind.String()), Level: "error", Message: sarifMessage{conditionText(rep, c)},
				Locations: location(c.File, c.Line, c.Col)}, c.Kind.String(), c.Kind.Help())
		case validate.Undecided:
			add(sarifResult{RuleID: ruleID(c.Kind.String()), Level: "warning",
				Message:   sarifMessage{fmt.Sprintf("%s undecided: %s\n%s", c.Kind, c.Reason, c.Text)},
				Locations: location(c.File, c.Line, c.Col)}, c.Kind.String(), c.Kind.Help())
		}
	}
	for _, e := range rep.Errors {
		add(sarifResult{RuleID: ruleID(malformedInput), Level: "error", Message: sarifMessage{e.Text}, Locations: location(e.File, e.Line, e.Col)},
			malformedInput, malformedHelp)
	}
	if cx := rep.Counterexample; len(results) == 0 && cx != nil {
		// Found by testing first: no condition, the counterexample.
		var b strings.Builder
		rep.WriteText(&b, false)
		add(sarifResult{RuleID: ruleID(cx.Kind.String()), Level: "error", Message: sarifMessage{b.String()},
			Locations: location(cx.File, cx.Line, cx.Col)}, cx.Kind.String(), cx.Kind.Help())
	}
	if len(results) == 0 && rep.Verdict != validate.Valid {
		add(sarifResult{RuleID: "verdict-" + string(rep.Verdict), Level: "warning",
			Message: sarifMessage{strings.ToUpper(string(rep.Verdict)) + ": " + rep.Reason}, Locations: location(rep.Program, 0, 0)},
			"verdict "+string(rep.Verdict), "")
	}
	driver := sarifDriver{Name: "augur", Version: version, InformationURI: "https://github.com/augur-verify/augur", Rules: []sarifRule{}}
	for _, r := range results {
		if rule, ok := rules[r.RuleID]; ok {
			driver.Rules = append(driver.Rules, rule)
			delete(rules, r.RuleID)
		}
	}
	if results == nil {
		results = []sarifResult{}
	}
	log := sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json",
		Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results, Properties: runProperties(a)}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
