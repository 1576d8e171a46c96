package api

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/augur-verify/augur/smt/encode"
	"github.com/augur-verify/augur/store"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/validate"
)

// Submission is a request to validate a kernel against its
// specification: the JSON body of POST /v1/validations, and what its
// multipart form is read into.
type Submission struct {
	Spec        string        `json:"spec"`
	Program     string        `json:"program"`
	SpecName    string        `json:"spec_name,omitempty"`
	ProgramName string        `json:"program_name,omitempty"`
	Options     store.Options `json:"options"`
	Meta        store.Meta    `json:"meta"`
}

// maxTimeoutSeconds bounds a submission's solver timeout (one hour).
const maxTimeoutSeconds = 3600

// Limits of a submission's names and metadata, so that a list page stays
// small whatever clients send.
const (
	// MaxNameBytes bounds spec_name and program_name.
	MaxNameBytes = 1024
	// MaxMetaBytes bounds each of repository, branch, commit, pipeline
	// and job.
	MaxMetaBytes = 256
	// MaxLabels bounds the number of labels, MaxLabelKeyBytes and
	// MaxLabelValueBytes each label's key and value.
	MaxLabels          = 32
	MaxLabelKeyBytes   = 64
	MaxLabelValueBytes = 256
)

// checkMeta checks the names and metadata against the limits above.
func (sub *Submission) checkMeta() error {
	for _, f := range []struct{ name, value string }{
		{"spec_name", sub.SpecName}, {"program_name", sub.ProgramName},
	} {
		if len(f.value) > MaxNameBytes {
			return fmt.Errorf("%s has %d bytes; at most %d are accepted", f.name, len(f.value), MaxNameBytes)
		}
	}
	m := sub.Meta
	for _, f := range []struct{ name, value string }{
		{"meta.repository", m.Repository}, {"meta.branch", m.Branch}, {"meta.commit", m.Commit},
		{"meta.pipeline", m.Pipeline}, {"meta.job", m.Job},
	} {
		if len(f.value) > MaxMetaBytes {
			return fmt.Errorf("%s has %d bytes; at most %d are accepted", f.name, len(f.value), MaxMetaBytes)
		}
	}
	if len(m.Labels) > MaxLabels {
		return fmt.Errorf("%d labels; at most %d are accepted", len(m.Labels), MaxLabels)
	}
	for k, v := range m.Labels {
		switch {
		case k == "":
			return errors.New("a label has an empty key")
		case len(k) > MaxLabelKeyBytes:
			return fmt.Errorf("label key %.40q... has %d bytes; at most %d are accepted", k, len(k), MaxLabelKeyBytes)
		case len(v) > MaxLabelValueBytes:
			return fmt.Errorf("label %q has a value of %d bytes; at most %d are accepted", k, len(v), MaxLabelValueBytes)
		}
	}
	return nil
}

// Check validates the submission's options and parses and type-checks
// its specification and kernel, as augur validate does before anything
// else. It returns every error of malformed input with its position, or
// the usage error of a bad option.
func (sub *Submission) Check() (errs []validate.ErrorDetail, usage error) {
	if sub.SpecName == "" {
		sub.SpecName = "spec.sare"
	}
	if sub.ProgramName == "" {
		sub.ProgramName = "program.sched"
	}
	if strings.TrimSpace(sub.Spec) == "" {
		return nil, errors.New("the specification (spec) is missing or empty")
	}
	if strings.TrimSpace(sub.Program) == "" {
		return nil, errors.New("the kernel (program) is missing or empty")
	}
	if sub.Options.ValueModel != "" {
		m, err := encode.ParseModel(sub.Options.ValueModel)
		if err != nil {
			return nil, fmt.Errorf("unknown value model %q (want real or ieee)", sub.Options.ValueModel)
		}
		sub.Options.ValueModel = m.String()
	}
	if sub.Options.TimeoutSeconds < 0 || sub.Options.TimeoutSeconds > maxTimeoutSeconds {
		return nil, fmt.Errorf("timeout must be between 0 and %d seconds", maxTimeoutSeconds)
	}
	if err := sub.checkMeta(); err != nil {
		return nil, err
	}
	return checkPair(&syntax.Source{Name: sub.SpecName, Text: sub.Spec}, &syntax.Source{Name: sub.ProgramName, Text: sub.Program}), nil
}

// checkPair parses and checks both sources as augur validate does
// (validate.Load) and returns every error, sorted.
func checkPair(specSrc, progSrc *syntax.Source) []validate.ErrorDetail {
	_, errs := validate.Load(specSrc, progSrc)
	return validate.ErrorDetails(errs)
}

// Validation returns the store's record of the checked submission, keyed
// by key.
func (sub *Submission) Validation(key func(spec, program string, opts store.Options) string) *store.Validation {
	return &store.Validation{
		Key:         key(sub.Spec, sub.Program, sub.Options),
		SpecName:    sub.SpecName,
		Spec:        sub.Spec,
		ProgramName: sub.ProgramName,
		Program:     sub.Program,
		Options:     sub.Options,
		Meta:        sub.Meta,
	}
}

// errUnsupported is a body of a media type the endpoint does not read.
var errUnsupported = errors.New("unsupported media type")

// decodeSubmission reads a submission from a JSON body or a form
// (multipart/form-data or application/x-www-form-urlencoded).
func decodeSubmission(r *http.Request) (*Submission, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json", "":
		var sub Submission
		if err := decodeJSON(r.Body, &sub); err != nil {
			return nil, err
		}
		return &sub, nil
	case "multipart/form-data":
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, err
		}
		return readMultipart(mr)
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return nil, err
		}
		var sub Submission
		for k, vs := range r.PostForm {
			for _, v := range vs {
				if err := sub.setField(k, "", v); err != nil {
					return nil, err
				}
			}
		}
		return &sub, nil
	}
	return nil, errUnsupported
}

// readMultipart reads the parts of a multipart form: files or values.
func readMultipart(mr *multipart.Reader) (*Submission, error) {
	var sub Submission
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return &sub, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, err
		}
		// The file name as sent, with its directories (FileName keeps
		// only the base).
		file := ""
		if _, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition")); err == nil {
			file = params["filename"]
		}
		if err := sub.setField(p.FormName(), file, string(data)); err != nil {
			return nil, err
		}
	}
}

// setField sets one form field: spec, program (with the file's name),
// spec_name, program_name, value_model, timeout ("30s" or seconds),
// all_conditions ("true" or "false"),
// meta.repository, meta.branch, meta.commit, meta.pipeline, meta.job,
// label ("key=value", repeatable) or label.KEY.
func (sub *Submission) setField(name, file, val string) error {
	switch {
	case name == "spec":
		sub.Spec = val
		if file != "" && sub.SpecName == "" {
			sub.SpecName = file
		}
	case name == "program":
		sub.Program = val
		if file != "" && sub.ProgramName == "" {
			sub.ProgramName = file
		}
	case name == "spec_name":
		sub.SpecName = val
	case name == "program_name":
		sub.ProgramName = val
	case name == "value_model":
		sub.Options.ValueModel = val
	case name == "timeout" || name == "timeout_seconds":
		d, err := parseSeconds(val)
		if err != nil {
			return fmt.Errorf("timeout: %v", err)
		}
		sub.Options.TimeoutSeconds = int(d / time.Second)
	case name == "all_conditions":
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("all_conditions: %q is not true or false", val)
		}
		sub.Options.AllConditions = b
	case name == "meta.repository":
		sub.Meta.Repository = val
	case name == "meta.branch":
		sub.Meta.Branch = val
	case name == "meta.commit":
		sub.Meta.Commit = val
	case name == "meta.pipeline":
		sub.Meta.Pipeline = val
	case name == "meta.job":
		sub.Meta.Job = val
	case name == "label":
		k, v, _ := strings.Cut(val, "=")
		sub.setLabel(k, v)
	case strings.HasPrefix(name, "label."):
		sub.setLabel(strings.TrimPrefix(name, "label."), val)
	case strings.HasPrefix(name, "meta.labels."):
		sub.setLabel(strings.TrimPrefix(name, "meta.labels."), val)
	default:
		return fmt.Errorf("unknown field %q", name)
	}
	return nil
}

func (sub *Submission) setLabel(k, v string) {
	if k == "" {
		return
	}
	if sub.Meta.Labels == nil {
		sub.Meta.Labels = map[string]string{}
	}
	sub.Meta.Labels[k] = v
}

// parseSeconds reads a duration as Go writes it ("90s", "5m") or as a
// number of seconds.
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("%q is negative", s)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (like 60s or 5m) nor a number of seconds", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}
