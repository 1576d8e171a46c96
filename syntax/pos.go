package syntax

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes. The zero Pos is "no position".
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// IsValid reports whether p denotes a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Before reports whether p comes strictly before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Source is a named source text.
type Source struct {
	Name string
	Text string
}

// Line returns the text of the 1-based line n, without its newline.
func (s *Source) Line(n int) string {
	if n <= 0 {
		return ""
	}
	text := s.Text
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

// TextError reports a source that is not text, so that its bytes are
// neither parsed nor echoed in diagnostics: the first NUL byte, or the
// first byte that is not valid UTF-8, by its offset. It returns nil for
// text.
func (s *Source) TextError() *Error {
	nul, bad := strings.IndexByte(s.Text, 0), firstInvalidUTF8(s.Text)
	switch {
	case nul >= 0 && (bad < 0 || nul < bad):
		return &Error{File: s.Name, Msg: fmt.Sprintf("not a text file (NUL byte at offset %d)", nul), Code: CodeNotText}
	case bad >= 0:
		return &Error{File: s.Name, Msg: fmt.Sprintf("not a text file (invalid UTF-8 at offset %d)", bad), Code: CodeNotText}
	}
	return nil
}

// firstInvalidUTF8 returns the offset of the first byte of text that is
// not valid UTF-8, or -1.
func firstInvalidUTF8(text string) int {
	if utf8.ValidString(text) {
		return -1
	}
	for i, r := range text {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(text[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// Error is a diagnostic attached to a position of a source file.
type Error struct {
	File string // the source's name
	Pos  Pos
	Msg  string
	// Code is the kind of the error (see Code), for tools and tests to
	// match instead of Msg; empty when the kind is not classified.
	Code Code
	// LineText is the source line holding Pos, kept so the error can be
	// rendered with a caret without the source at hand.
	LineText string
}

// Error returns "file:line:col: message".
func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Pos.IsValid():
		return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg)
	case e.Pos.IsValid():
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// Detail renders the error on one line, then the source line and a caret
// under the column the error points at.
func (e *Error) Detail() string { return e.render(false) }

// Report renders the error as the command line prints a diagnostic: as
// Detail does, with the code in brackets after the message, as compilers
// name a warning's flag:
//
//	bad.sare:4:15: index N used as a value must be cast, as in f32(N) [type]
//	    C(i) = A(i) * N
//	                  ^
//
// An error without a code renders as Detail does.
func (e *Error) Report() string { return e.render(true) }

// render is Detail, with the code when withCode is set.
func (e *Error) render(withCode bool) string {
	var b strings.Builder
	b.WriteString(e.Error())
	if withCode && e.Code != "" {
		b.WriteString(" [")
		b.WriteString(string(e.Code))
		b.WriteString("]")
	}
	if e.Pos.IsValid() && e.LineText != "" {
		b.WriteString("\n    ")
		b.WriteString(e.LineText)
		b.WriteString("\n    ")
		// Reproduce tabs so the caret lines up under tab-indented code.
		for i := 0; i < e.Pos.Col-1 && i < len(e.LineText); i++ {
			if e.LineText[i] == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('^')
	}
	return b.String()
}

// ErrorList collects every error found in one pass over a source, so a
// user sees all of them at once. A nil ErrorList means no error.
type ErrorList []*Error

// Error returns the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Detail renders every error with its source line and caret.
func (l ErrorList) Detail() string { return l.render(false) }

// Report renders every error as Error.Report does, one after another.
func (l ErrorList) Report() string { return l.render(true) }

func (l ErrorList) render(withCode bool) string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.render(withCode))
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort orders the errors by file and position and drops exact duplicates.
func (l *ErrorList) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].File != s[j].File {
			return s[i].File < s[j].File
		}
		return s[i].Pos.Before(s[j].Pos)
	})
	out := s[:0]
	for i, e := range s {
		if i > 0 && e.File == s[i-1].File && e.Pos == s[i-1].Pos && e.Msg == s[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Reporter creates errors against one source.
type Reporter struct {
	Src  *Source
	Errs ErrorList
}

// MaxErrors is how many errors a Reporter records; past it, one last
// "too many errors" entry ends the list, so hostile input costs linear time.
const MaxErrors = 50

// Errorf records an error at pos, of no particular kind.
func (r *Reporter) Errorf(pos Pos, format string, args ...any) {
	r.ErrorCodef(pos, "", format, args...)
}

// ErrorCodef records an error of kind code at pos.
func (r *Reporter) ErrorCodef(pos Pos, code Code, format string, args ...any) {
	switch {
	case len(r.Errs) > MaxErrors:
		return
	case len(r.Errs) == MaxErrors:
		format, args, code = "too many errors", nil, CodeTooMany
	}
	e := &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Code: code}
	if r.Src != nil {
		e.File = r.Src.Name
		e.LineText = r.Src.Line(pos.Line)
	}
	r.Errs = append(r.Errs, e)
}
