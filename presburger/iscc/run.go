package iscc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Run executes the script read from r, named name in error messages, with
// a fresh Calculator. Statements are executed as soon as their ";" has
// been read, so Run also serves interactive use. Values are written
// to out, one per line; every failed statement (malformed, ill-typed, or
// whose evaluation failed or ran out of budget) is written to errOut with
// its position, source line and a caret, and the script continues with
// the next statement.
//
// Run returns nil if every statement succeeded, a *FailedError (which
// matches ErrFailed) if some failed, and any other error if reading r or writing
// failed. Evaluation honours ctx and the presburger.Budget it carries
// (presburger.WithBudget); once ctx is done, the remaining statements
// fail.
func Run(ctx context.Context, name string, r io.Reader, out, errOut io.Writer) error {
	var (
		text   strings.Builder
		src    = &syntax.Source{Name: name}
		calc   = New()
		off    int
		pos    = syntax.Pos{Line: 1, Col: 1}
		failed int
		total  int
	)
	// exec runs the statement text[off:end].
	exec := func(end int) error {
		stmt, perr := parseStmt(src, off, end, pos)
		pos = advance(pos, src.Text[off:end])
		off = end
		var err error
		switch {
		case perr != nil:
			err = perr
		case stmt == nil:
			return nil
		default:
			err = calc.Exec(ctx, src, stmt, out)
		}
		total++
		var ie *Error
		if errors.As(err, &ie) {
			failed++
			if _, werr := fmt.Fprintln(errOut, ie.Detail()); werr != nil {
				return fmt.Errorf("iscc: writing an error: %w", werr)
			}
			return nil
		}
		return err
	}
	br := bufio.NewReader(r)
	for {
		line, rerr := br.ReadString('\n')
		text.WriteString(line)
		src.Text = text.String()
		for {
			end, ok := stmtEnd(src.Text, off)
			if !ok {
				break
			}
			if err := exec(end); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return fmt.Errorf("iscc: reading %s: %w", name, rerr)
		}
	}
	if !isBlank(src.Text[off:]) {
		if err := exec(len(src.Text)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return &FailedError{Name: name, Failed: failed, Total: total}
	}
	return nil
}
