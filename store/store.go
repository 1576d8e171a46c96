package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Status is the state of a validation.
type Status string

// The states of a validation.
const (
	Queued    Status = "queued"
	Running   Status = "running"
	Done      Status = "done"      // the report holds the verdict
	Cancelled Status = "cancelled" // cancelled before a verdict
	Failed    Status = "failed"    // an internal error prevented a verdict
)

// Options are the validation options a client chooses.
type Options struct {
	// ValueModel is "real" (the default) or "ieee".
	ValueModel string `json:"value_model,omitempty"`
	// TimeoutSeconds bounds each solver query (0: the server's default).
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
	// AllConditions decides every value condition even once a failure
	// found over Presburger sets refutes the kernel (see
	// validate.Options.AllConditions): the report then lists every
	// failure, at the cost of time.
	AllConditions bool `json:"all_conditions,omitempty"`
}

// Meta is what CI tells about a submission.
type Meta struct {
	Repository string            `json:"repository,omitempty"`
	Branch     string            `json:"branch,omitempty"`
	Commit     string            `json:"commit,omitempty"`
	Pipeline   string            `json:"pipeline,omitempty"`
	Job        string            `json:"job,omitempty"`
	Labels     map[string]string `json:"labels,omitempty"`
}

// Progress is the last progress event of a running validation.
type Progress struct {
	Phase string `json:"phase"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// Validation is one submission with its state and, when done, its report.
type Validation struct {
	ID string `json:"id"`
	// Key identifies the submission's content (specification, kernel,
	// options): identical submissions share their verdict.
	Key         string `json:"key"`
	SpecName    string `json:"spec_name"`
	Spec        string `json:"spec"`
	ProgramName string `json:"program_name"`
	Program     string `json:"program"`
	// Kernel is the kernel's name as its source declares it ("kernel
	// NAME(...)" within its first 4 KiB; "" if none is found there).
	Kernel  string  `json:"kernel,omitempty"`
	Options Options `json:"options"`
	Meta    Meta    `json:"meta"`

	Status   Status   `json:"status"`
	Progress Progress `json:"progress"`
	// Verdict and Reason copy the report's, for listing and filtering.
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Report is the validate.Report as JSON, when Status is Done.
	Report json.RawMessage `json:"report,omitempty"`
	// Error explains a Failed status.
	Error string `json:"error,omitempty"`
	// CachedFrom is the ID of the validation whose verdict this one
	// reuses, when it was answered from an identical submission, or
	// whose run it waits for, while it is Queued.
	CachedFrom string `json:"cached_from,omitempty"`
	Attempts   int    `json:"attempts"`

	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
}

// Filter selects validations for List. Empty fields match everything.
type Filter struct {
	Repository, Branch, Commit string
	Verdict                    string
	Status                     Status
	// Label is "key=value" or "key".
	Label string
	// Name matches the validations whose specification or kernel file
	// name contains it, ignoring case.
	Name string
	// Program matches the validations of the kernel file named so,
	// exactly.
	Program string
	// Since and Until bound the submission time: Since <= created < Until
	// (zero: no bound).
	Since, Until time.Time
	// Limit bounds the page (0: 50; at most 500).
	Limit int
	// Cursor continues a previous List (its next cursor).
	Cursor string
}

// Errors of a Store.
var (
	ErrNotFound = errors.New("validation not found")
	ErrFinished = errors.New("validation already finished")
	// ErrInvalidCursor is List's error for a cursor it did not give.
	ErrInvalidCursor = errors.New("not a cursor of this list")
)

// Result is what a Runner found.
type Result struct {
	// Report is the validate.Report as JSON.
	Report json.RawMessage
	// Verdict and Reason are the report's.
	Verdict, Reason string
	// Cacheable says that the verdict is deterministic: the same
	// content, options and verifier always get it (not decided by a
	// wall-clock guard, an exhausted time budget or a process-wide
	// memory bound). Only such verdicts answer identical submissions.
	Cacheable bool
}

// Runner runs one validation: it is Augur's verifier (validate.Validate)
// in production, a fake in tests. progress may be called often; the store
// throttles what it writes.
type Runner func(ctx context.Context, v *Validation, progress func(Progress)) (Result, error)

// Store is the persistence and job queue of the service.
type Store interface {
	// Submit records a validation and queues it, unless an identical
	// submission (same CacheKey: content, options and verifier) already
	// has a cacheable verdict: then the new validation is created Done
	// with that verdict (CachedFrom set). While an identical submission
	// (same Key) is queued or running, the new one shares its run: it is
	// created Queued with CachedFrom naming it, and ends with its
	// outcome (the verdict, cacheable or not, or the failure).
	Submit(ctx context.Context, v *Validation) (*Validation, error)
	// Get returns a validation by ID (ErrNotFound).
	Get(ctx context.Context, id string) (*Validation, error)
	// List returns a page of validations, newest first, and the cursor of
	// the next page ("" at the end). Listed validations carry neither
	// their sources nor their report (Spec, Program and Report are
	// empty; Kernel is set): Get returns them whole.
	List(ctx context.Context, f Filter) ([]*Validation, string, error)
	// Cancel stops a queued or running validation (ErrFinished if it
	// already has a verdict).
	Cancel(ctx context.Context, id string) error
	// Prune deletes validations finished before olderThan, and the
	// oldest finished ones beyond keep (0: no bound); it returns how many
	// it deleted.
	Prune(ctx context.Context, olderThan time.Time, keep int) (int, error)
	// Work runs queued validations with run, at most concurrency at a
	// time, until ctx is done; then it stops taking jobs, lets the
	// running ones finish within grace, and requeues the others.
	Work(ctx context.Context, concurrency int, grace time.Duration, run Runner) error
	// Ping checks the database (readiness).
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}
