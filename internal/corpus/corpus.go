package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Verdict is the expected answer of a verifier on a case.
type Verdict string

// Verdicts.
const (
	// Valid: the kernel computes its specification's outputs for every
	// parameter value satisfying the kernel's assumptions and every input.
	Valid Verdict = "valid"
	// Invalid: the kernel goes wrong for some parameters and inputs; the
	// reason names the first failure.
	Invalid Verdict = "invalid"
	// Unknown: the kernel is correct on every run line, but settling it
	// needs reasoning a verifier is not expected to do (nonlinear
	// arithmetic, sqrt); a verifier may answer unknown or valid, never
	// invalid.
	Unknown Verdict = "unknown"
)

// IllDefined is the reason of a case whose specification has two
// equations of one tensor with overlapping domains. The interpreter does
// not report it as a failure of the kernel: sched.Run returns an error
// that is not a *sched.Failure and that mentions these words.
const IllDefined = "ill-defined specification"

// Reasons are the reasons an invalid case may give: the names of the
// interpreter's failure kinds (sched.Kind.String), those of every kernel
// and then those of reductions' bookkeeping (ReductionReasons), then
// IllDefined.
var Reasons = slices.Concat([]string{
	"annotation mismatch",
	"undefined annotation",
	"undefined value stored",
	"out-of-bounds write",
	"out-of-bounds read",
	"undefined read",
	"read-write race",
	"write-write conflict",
	"output not written",
	"output wrong value",
}, ReductionReasons, []string{IllDefined})

// ReductionReasons are the reasons of Reasons that only kernels with
// reductions (reduce in the specification) can give.
var ReductionReasons = []string{
	"wrong identity",
	"position accumulated twice",
	"incomplete reduction",
	"position outside the reduction",
	"not an accumulator",
	"wrong reduction operator",
	"re-ordered float reduction",
}

// IsReductionReason reports whether s is one of ReductionReasons.
func IsReductionReason(s string) bool {
	return slices.Contains(ReductionReasons, s)
}

// IsReason reports whether s is one of Reasons.
func IsReason(s string) bool {
	for _, r := range Reasons {
		if r == s {
			return true
		}
	}
	return false
}

// Expectation is a verdict with, for Invalid, its reason.
type Expectation struct {
	Verdict Verdict
	Reason  string // one of Reasons when Verdict is Invalid, else ""
}

// String renders the expectation as a header does: "valid",
// "invalid read-write race".
func (e Expectation) String() string {
	if e.Reason == "" {
		return string(e.Verdict)
	}
	return string(e.Verdict) + " " + e.Reason
}

// Case is one kernel of the corpus with its specification and expected
// verdict.
type Case struct {
	Name     string // the kernel file's name without .sched
	Dir      string // the directory given to Load
	SpecFile string // the specification's path: Dir joined with the spec header
	ProgFile string // the kernel's path
	// Expect and Reason are the expected verdict under the default value
	// model, real (floats reasoned about as real numbers).
	Expect Verdict
	Reason string
	// IEEE is the expected verdict under the bit-exact IEEE value model,
	// or nil when it is the same as under the real model.
	IEEE *Expectation
	// NoGarbage is the expected verdict under the real model without
	// garbage writes (augur validate --no-garbage-writes; augur run
	// without --garbage-writes), or nil when it is the same as Expect.
	// Expect and IEEE are with garbage writes, as augur validate
	// validates by default.
	NoGarbage *Expectation
	// Runs are parameter sets for the reference interpreter, one per run
	// header, in order: small, satisfying the kernel's assumptions; for
	// an invalid case at least one of them exhibits the failure.
	Runs []map[string]int64
	// Note is the free text of the header (what the case exercises),
	// its lines joined by newlines.
	Note string
}

// ExpectFor returns the expected verdict under a value model: "ieee"
// gives IEEE when the case has one; any other model gives the default
// (real) expectation.
func (c *Case) ExpectFor(model string) Expectation {
	if model == "ieee" && c.IEEE != nil {
		return *c.IEEE
	}
	return Expectation{Verdict: c.Expect, Reason: c.Reason}
}

// ExpectWithoutGarbage returns the expected verdict under the real model
// without garbage writes: NoGarbage when the case has one, else the
// default expectation.
func (c *Case) ExpectWithoutGarbage() Expectation {
	if c.NoGarbage != nil {
		return *c.NoGarbage
	}
	return Expectation{Verdict: c.Expect, Reason: c.Reason}
}

// keyLine matches a header line that sets a key: a lower-case word
// followed at once by a colon.
var keyLine = regexp.MustCompile(`^([a-z][a-z0-9_-]*):(.*)$`)

var knownKeys = map[string]bool{"spec": true, "expect": true, "ieee": true, "no-garbage": true, "run": true}

var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Load reads every .sched file of dir and returns its cases sorted by
// name. The header of a kernel is its leading run of lines starting with
// '#': first the keys, lines "# key: value" whose key is a lower-case word
// followed at once by a colon, then free text (the case's Note), which
// starts at the first line that is not a key. The keys are:
//
//	spec: FILE.sare                  exactly once; a file of dir
//	expect: valid | unknown | invalid REASON
//	                                 exactly once; REASON one of Reasons
//	ieee: VERDICT [REASON]           at most once; as expect
//	no-garbage: VERDICT [REASON]     at most once; as expect
//	run: NAME=INT ...                at least once; distinct names
//
// Any other key, a malformed value, a repeated key, a missing one, or a
// known key in the free text is an error naming the file and line. Load reports every error it finds,
// joined; the cases returned are those that had none.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.sched"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no .sched files", dir)
	}
	sort.Strings(paths)
	var cases []Case
	var errs []error
	for _, p := range paths {
		c, fileErrs := loadCase(dir, p)
		if len(fileErrs) > 0 {
			errs = append(errs, fileErrs...)
			continue
		}
		cases = append(cases, c)
	}
	return cases, errors.Join(errs...)
}

// loadCase parses the header of the kernel at path.
func loadCase(dir, path string) (Case, []error) {
	c := Case{Name: strings.TrimSuffix(filepath.Base(path), ".sched"), Dir: dir, ProgFile: path}
	data, err := os.ReadFile(path)
	if err != nil {
		return c, []error{err}
	}
	var errs []error
	errorf := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...)))
	}
	seen := map[string]int{} // key -> line of its first occurrence
	var notes []string
	lines := strings.Split(string(data), "\n")
	end := 0 // number of header lines
	for end < len(lines) && strings.HasPrefix(lines[end], "#") {
		end++
	}
	inText := false // past the keys, in the free text
	for i := 0; i < end; i++ {
		n := i + 1
		text := strings.TrimSpace(strings.TrimPrefix(lines[i], "#"))
		m := keyLine.FindStringSubmatch(text)
		if m != nil && inText && knownKeys[m[1]] {
			errorf(n, "%s header after the free text (keys come first)", m[1])
			continue
		}
		if m == nil || inText {
			inText = true
			notes = append(notes, text)
			continue
		}
		key, val := m[1], strings.TrimSpace(m[2])
		if first, dup := seen[key]; dup && key != "run" {
			errorf(n, "%s header repeated (first at line %d)", key, first)
			continue
		}
		seen[key] = n
		switch key {
		case "spec":
			switch {
			case val == "":
				errorf(n, "empty spec header")
			case strings.ContainsAny(val, `/\ `) || !strings.HasSuffix(val, ".sare"):
				errorf(n, "spec %q: want the name of a .sare file of the same directory", val)
			default:
				c.SpecFile = filepath.Join(dir, val)
				if _, err := os.Stat(c.SpecFile); err != nil {
					errorf(n, "spec %s: %v", val, err)
				}
			}
		case "expect":
			e, err := parseExpectation(val)
			if err != nil {
				errorf(n, "expect: %v", err)
				continue
			}
			c.Expect, c.Reason = e.Verdict, e.Reason
		case "ieee":
			e, err := parseExpectation(val)
			if err != nil {
				errorf(n, "ieee: %v", err)
				continue
			}
			c.IEEE = &e
		case "no-garbage":
			e, err := parseExpectation(val)
			if err != nil {
				errorf(n, "no-garbage: %v", err)
				continue
			}
			c.NoGarbage = &e
		case "run":
			params, err := parseRun(val)
			if err != nil {
				errorf(n, "run: %v", err)
				continue
			}
			c.Runs = append(c.Runs, params)
		default:
			errorf(n, "unknown header key %q (want spec, expect, ieee, no-garbage or run)", key)
		}
	}
	for _, key := range []string{"spec", "expect", "run"} {
		if _, ok := seen[key]; !ok {
			errorf(end+1, "missing # %s: header (the header ends here)", key)
		}
	}
	if len(errs) > 0 {
		return c, errs
	}
	c.Note = strings.Join(notes, "\n")
	return c, nil
}

// parseExpectation parses "valid", "unknown" or "invalid REASON".
func parseExpectation(s string) (Expectation, error) {
	verdict, reason, _ := strings.Cut(s, " ")
	reason = strings.TrimSpace(reason)
	switch Verdict(verdict) {
	case Valid, Unknown:
		if reason != "" {
			return Expectation{}, fmt.Errorf("%q: a %s verdict takes no reason", s, verdict)
		}
		return Expectation{Verdict: Verdict(verdict)}, nil
	case Invalid:
		if reason == "" {
			return Expectation{}, fmt.Errorf("%q: an invalid verdict needs a reason, one of: %s", s, strings.Join(Reasons, ", "))
		}
		if !IsReason(reason) {
			return Expectation{}, fmt.Errorf("unknown reason %q (want one of: %s)", reason, strings.Join(Reasons, ", "))
		}
		return Expectation{Verdict: Invalid, Reason: reason}, nil
	}
	return Expectation{}, fmt.Errorf("%q: want valid, unknown or invalid REASON", s)
}

// parseRun parses "N=4 M=3": parameter names with integer values.
func parseRun(s string) (map[string]int64, error) {
	params := map[string]int64{}
	for _, field := range strings.Fields(s) {
		name, val, ok := strings.Cut(field, "=")
		if !ok || !paramName.MatchString(name) {
			return nil, fmt.Errorf("%q: want NAME=INTEGER", field)
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %s is not a decimal integer", field, val)
		}
		if _, dup := params[name]; dup {
			return nil, fmt.Errorf("%s given twice", name)
		}
		params[name] = n
	}
	return params, nil
}
