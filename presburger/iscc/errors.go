package iscc

import (
	"errors"
	"fmt"

	"github.com/augur-verify/augur/syntax"
)

// Error is a failed statement: a positioned message, rendered like every
// Augur diagnostic ("file:line:col: message", then the source line and a
// caret with Detail), and the error of the engine that caused it, if any.
type Error struct {
	// Diag is the diagnostic: file, position, message and source line.
	Diag *syntax.Error
	// Cause is the underlying error (for instance one wrapping
	// presburger.ErrBudget or the context's error), or nil.
	Cause error
}

// Error returns "file:line:col: message".
func (e *Error) Error() string { return e.Diag.Error() }

// Detail renders e with its source line and a caret under the position.
func (e *Error) Detail() string { return e.Diag.Detail() }

// Unwrap returns the cause of e.
func (e *Error) Unwrap() error { return e.Cause }

// ErrFailed matches (with errors.Is) the error Run returns when at least
// one statement failed; the failures themselves have been written out
// already.
var ErrFailed = errors.New("iscc: statement failed")

// FailedError is the error Run returns when some statements failed.
type FailedError struct {
	Name          string // the script's name
	Failed, Total int    // failed statements, and all non-empty statements
}

// Error returns "name: F of T statements failed".
func (e *FailedError) Error() string {
	return fmt.Sprintf("%s: %d of %d statements failed", e.Name, e.Failed, e.Total)
}

// Is reports whether target is ErrFailed.
func (e *FailedError) Is(target error) bool { return target == ErrFailed }

func newError(src *syntax.Source, pos syntax.Pos, cause error, format string, args ...any) *Error {
	d := &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	if src != nil {
		d.File = src.Name
		d.LineText = src.Line(pos.Line)
	}
	return &Error{Diag: d, Cause: cause}
}
