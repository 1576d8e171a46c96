package halide

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// A build describes a generator to Augur in one of two ways: the flags
// given on the command line, or the entry of a compilation database
// (compile_commands.json, which CMake writes with
// CMAKE_EXPORT_COMPILE_COMMANDS) for its source. The compiler's own
// dependency output (-MMD) then says which headers the build read.

// ParseDeps reads a dependency file in make's syntax, as the compiler
// writes it with -MD or -MMD, "target: prerequisite ...", lines continued
// with a backslash, spaces in names escaped ("\ "), "$$" for "$". It
// returns the targets and the prerequisites of every rule; file names
// errors' positions.
func ParseDeps(file string, b []byte) (targets, prereqs []string, err error) {
	text := string(b)
	line, col := 1, 0
	var word strings.Builder
	inWord, sawColon, lineHasWords := false, false, false
	var startLine, startCol int
	endWord := func() {
		if !inWord {
			return
		}
		if sawColon {
			prereqs = append(prereqs, word.String())
		} else {
			targets = append(targets, word.String())
		}
		word.Reset()
		inWord = false
	}
	endLine := func() error {
		endWord()
		if lineHasWords && !sawColon {
			return posError(file, startLine, startCol, "a rule needs a colon after its targets")
		}
		lineHasWords, sawColon = false, false
		return nil
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for i := 0; i < len(text); i++ {
		c := text[i]
		col++
		switch {
		case c == '\\' && strings.HasPrefix(text[i+1:], "\n"), c == '\\' && strings.HasPrefix(text[i+1:], "\r\n"):
			endWord()
			i = i + strings.IndexByte(text[i:], '\n')
			line, col = line+1, 0
			continue
		case c == '\n':
			if err := endLine(); err != nil {
				return nil, nil, err
			}
			line, col = line+1, 0
			continue
		case space(c):
			endWord()
			continue
		case c == ':' && !sawColon && (i+1 == len(text) || space(text[i+1])):
			endWord()
			if !lineHasWords {
				return nil, nil, posError(file, line, col, "a rule without a target")
			}
			sawColon = true
			continue
		}
		if !inWord {
			inWord = true
			if !lineHasWords {
				lineHasWords, startLine, startCol = true, line, col
			}
		}
		if (c == '\\' && i+1 < len(text) && strings.IndexByte(" #\\", text[i+1]) >= 0) || (c == '$' && i+1 < len(text) && text[i+1] == '$') {
			i++
			col++
			c = text[i]
		}
		word.WriteByte(c)
	}
	if err := endLine(); err != nil {
		return nil, nil, err
	}
	return targets, prereqs, nil
}

// SplitCommand splits a command line as a POSIX shell splits words:
// spaces separate words, single quotes keep everything up to the next
// single quote, double quotes keep everything but a backslash before
// '"', '\', '$' or '`', and a backslash outside quotes keeps the next
// character. Expansions ($, `, globs) are not performed. file names
// errors' positions (the column is the byte offset in the command, plus
// one).
func SplitCommand(file, cmd string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case '\'':
			inWord = true
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, posError(file, 1, i+1, "unterminated single quote")
			}
			w.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case '"':
			inWord = true
			closed := false
			for i++; i < len(cmd); i++ {
				if cmd[i] == '"' {
					closed = true
					break
				}
				if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`\n", cmd[i+1]) >= 0 {
					i++
				}
				w.WriteByte(cmd[i])
			}
			if !closed {
				return nil, posError(file, 1, len(cmd), "unterminated double quote")
			}
		case '\\':
			inWord = true
			if i+1 == len(cmd) {
				return nil, posError(file, 1, i+1, "a backslash at the end of the command")
			}
			i++
			w.WriteByte(cmd[i])
		default:
			inWord = true
			w.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// compileCommand is an entry of a compilation database.
type compileCommand struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// FromCompileCommands returns the generator of the source src with the
// flags that the compilation database db (a compile_commands.json file)
// gives it: its include directories (-I, -isystem, -iquote), definitions
// (-D) and language standard (-std=); other flags (optimisation,
// warnings, the output) are the toolchain's. Relative paths are resolved
// against the entry's directory.
func FromCompileCommands(db, src string) (Generator, error) {
	b, err := os.ReadFile(db)
	if err != nil {
		return Generator{}, err
	}
	var entries []compileCommand
	if err := json.Unmarshal(b, &entries); err != nil {
		return Generator{}, jsonError(db, b, err)
	}
	want, err := canonical(src, "")
	if err != nil {
		return Generator{}, err
	}
	for i, e := range entries {
		file, err := canonical(e.File, e.Directory)
		if err != nil || file != want {
			continue
		}
		args := e.Arguments
		if len(args) == 0 {
			args, err = SplitCommand(fmt.Sprintf("%s: entry %d's command", db, i+1), e.Command)
			if err != nil {
				return Generator{}, err
			}
		}
		g := flagsOf(args, e.Directory)
		g.Sources = []string{src}
		return g, nil
	}
	return Generator{}, fmt.Errorf("%s has no entry for %s", db, src)
}

// jsonError positions a JSON decoding error in the file.
func jsonError(file string, b []byte, err error) error {
	var off int64
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	default:
		return fmt.Errorf("%s: %w", file, err)
	}
	line, col := 1, 1
	for _, c := range b[:min(int(off), len(b))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return posError(file, line, col, err.Error())
}

// canonical is the absolute, cleaned path of p relative to dir (the
// working directory when dir is empty), through symbolic links when it
// exists.
func canonical(p, dir string) (string, error) {
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r, nil
	}
	return a, nil
}

// flagsOf reads the flags Augur takes from a compiler's arguments (the
// compiler itself first), relative paths against dir.
func flagsOf(args []string, dir string) Generator {
	var g Generator
	path := func(p string) string {
		if !filepath.IsAbs(p) && dir != "" {
			return filepath.Join(dir, p)
		}
		return p
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case a == "-I" || a == "-isystem" || a == "-iquote":
			if v, ok := next(); ok {
				g.Includes = append(g.Includes, path(v))
			}
		case strings.HasPrefix(a, "-isystem") || strings.HasPrefix(a, "-iquote"):
			g.Includes = append(g.Includes, path(strings.TrimPrefix(strings.TrimPrefix(a, "-isystem"), "-iquote")))
		case strings.HasPrefix(a, "-I"):
			g.Includes = append(g.Includes, path(a[2:]))
		case a == "-D":
			if v, ok := next(); ok {
				g.Defines = append(g.Defines, v)
			}
		case strings.HasPrefix(a, "-D"):
			g.Defines = append(g.Defines, a[2:])
		case strings.HasPrefix(a, "-std="):
			g.Std = a[len("-std="):]
		}
	}
	return g
}

// posError is the error msg at line:col of file.
func posError(file string, line, col int, msg string) error {
	return &syntax.Error{File: file, Pos: syntax.Pos{Line: line, Col: col}, Msg: msg}
}
