package halide

import (
	"regexp"
	"strings"
	"testing"
)

// maxFuncLines is the longest a C++ function of the translator may be,
// from its signature to its closing brace.
const maxFuncLines = 150

// cppFunc is a function definition found in C++ source: its name, the
// line of its signature (1-based) and its length in lines.
type cppFunc struct {
	name        string
	line, lines int
}

// blankCPP returns src with its comments, string and character literals
// and preprocessor directives replaced by spaces, newlines kept, so that
// every brace left is one of the code's.
func blankCPP(src string) string {
	b := []byte(src)
	out := make([]byte, len(b))
	copy(out, b)
	blank := func(i int) {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	lineStart := true
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case lineStart && c == '#':
			// a directive, with its continuation lines
			for ; i < len(b) && (b[i] != '\n' || b[i-1] == '\\'); i++ {
				blank(i)
			}
			lineStart = true
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				blank(i)
			}
			lineStart = true
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			blank(i)
			blank(i + 1)
			for i += 2; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				blank(i)
			}
			if i < len(b) {
				blank(i)
				blank(i + 1)
				i++
			}
		case c == '"' || c == '\'':
			for i++; i < len(b) && b[i] != c; i++ {
				if b[i] == '\\' {
					blank(i)
					i++
				}
				blank(i)
			}
		}
		if c == '\n' {
			lineStart = true
		} else if c != ' ' && c != '\t' {
			lineStart = false
		}
	}
	return string(out)
}

var (
	// notFunc starts the head of a brace that opens no function body.
	notFunc = regexp.MustCompile(`^(template\s*<[^{]*>\s*)?(namespace|class|struct|union|enum)\b`)
	// label is an access specifier before a member.
	label = regexp.MustCompile(`^(public|private|protected)\s*:\s*`)
)

// cppFuncs finds the function definitions of src outside function bodies
// (a lambda or a local class counts in the function that holds it): a
// brace is a function's body when its head, the text since the last ';',
// '{' or '}', has parentheses and is neither a namespace, a class, a
// struct, a union nor an enum, nor an initialiser (an '=' outside
// parentheses).
func cppFuncs(src string) []cppFunc {
	code := blankCPP(src)
	type open struct {
		fn        bool
		name      string
		line      int
		insideFun bool
	}
	var stack []open
	var funcs []cppFunc
	headStart := 0
	line := 1
	inFunc := func() bool { return len(stack) > 0 && (stack[len(stack)-1].fn || stack[len(stack)-1].insideFun) }
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '\n':
			line++
		case ';':
			if !inFunc() {
				headStart = i + 1
			}
		case '{':
			if inFunc() {
				stack = append(stack, open{insideFun: true})
				continue
			}
			head := strings.TrimSpace(code[headStart:i])
			for loc := label.FindStringIndex(head); loc != nil; loc = label.FindStringIndex(head) {
				head = head[loc[1]:]
			}
			o := open{line: line - strings.Count(head, "\n")}
			if strings.Contains(head, "(") && !notFunc.MatchString(head) && !assigns(head) {
				o.fn = true
				o.name = strings.Join(strings.Fields(head[:strings.Index(head, "(")]), " ")
			}
			stack = append(stack, o)
			headStart = i + 1
		case '}':
			if len(stack) == 0 {
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if o.fn {
				funcs = append(funcs, cppFunc{name: o.name, line: o.line, lines: line - o.line + 1})
			}
			if !inFunc() {
				headStart = i + 1
			}
		}
	}
	return funcs
}

// assigns reports whether head has an '=' outside parentheses and angle
// brackets that is no comparison (an initialiser, or a default member
// value).
func assigns(head string) bool {
	depth := 0
	for i := 0; i < len(head); i++ {
		switch head[i] {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case '=':
			prev, next := byte(' '), byte(' ')
			if i > 0 {
				prev = head[i-1]
			}
			if i+1 < len(head) {
				next = head[i+1]
			}
			if depth == 0 && !strings.ContainsRune("=!<>", rune(prev)) && next != '=' &&
				!strings.HasSuffix(strings.TrimSpace(head[:i]), "operator") {
				return true
			}
		}
	}
	return false
}

// TestCPPFunctionLength checks that no function of the translator's C++
// sources is longer than maxFuncLines.
func TestCPPFunctionLength(t *testing.T) {
	t.Parallel()
	entries, err := sources.ReadDir("cc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		b, err := sources.ReadFile("cc/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range cppFuncs(string(b)) {
			n++
			if f.lines > maxFuncLines {
				t.Errorf("cc/%s:%d: %s is %d lines long, more than %d", e.Name(), f.line, f.name, f.lines, maxFuncLines)
			}
		}
	}
	if n < 100 {
		t.Errorf("found only %d functions in cc/: the scanner misses some", n)
	}
}

// TestCPPFuncs checks the scanner of TestCPPFunctionLength on the kinds
// of definitions the sources hold.
func TestCPPFuncs(t *testing.T) {
	t.Parallel()
	src := `#define M(x) do { \
    f(x); \
} while (0)
namespace a {
// a comment with a brace {
int first() { return 0; }
enum E { A = 1, B };
template<typename T>
struct S {
    T v{};
    S(int x)
        : v(x) {
    }
public:
    int get() const { return v; }
    bool operator==(const S &o) const { return v == o.v; }
};
static const char *s = "}{";
int f(int x) {
    auto g = [&](int y) {
        return y + '}';
    };
    struct L {
        int h() { return 0; }
    } l;
    return g(x) + l.h();
}
}  // namespace a
`
	got := cppFuncs(src)
	want := []cppFunc{{"int first", 6, 1}, {"S", 11, 3}, {"int get", 15, 1}, {"bool operator==", 16, 1}, {"int f", 19, 9}}
	if len(got) != len(want) {
		t.Fatalf("found %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("function %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
