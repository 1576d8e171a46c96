package syntax

// Kind is the kind of a token.
type Kind int

// Token kinds. Keywords are scanned as Name; parsers recognise them by text.
const (
	EOF Kind = iota
	Newline
	Name
	Int
	Float

	LParen   // (
	RParen   // )
	LBrack   // [
	RBrack   // ]
	LBrace   // {
	RBrace   // }
	Comma    // ,
	Semi     // ;
	Colon    // :
	Assign   // =
	Define   // :=
	DotDot   // ..
	Eq       // ==
	Ne       // !=
	Lt       // <
	Le       // <=
	Gt       // >
	Ge       // >=
	Plus     // +
	Minus    // -
	Star     // *
	Slash    // /
	Percent  // %
	Amp      // &
	Pipe     // |
	Caret    // ^
	Shl      // <<
	Shr      // >>
	Tilde    // ~
	Bang     // !
	AndAnd   // &&
	OrOr     // ||
	At       // @ (reduction positions in kernel annotations)
	Illegal  // a character that starts no token
	numKinds // keep last
)

var kindText = [numKinds]string{
	EOF: "end of file", Newline: "newline", Name: "name", Int: "integer literal",
	Float: "float literal", LParen: "(", RParen: ")", LBrack: "[", RBrack: "]",
	LBrace: "{", RBrace: "}", Comma: ",", Semi: ";", Colon: ":", Assign: "=", Define: ":=",
	DotDot: "..", Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", Plus: "+",
	Minus: "-", Star: "*", Slash: "/", Percent: "%", Amp: "&", Pipe: "|", Caret: "^",
	Shl: "<<", Shr: ">>", Tilde: "~", Bang: "!", AndAnd: "&&", OrOr: "||", At: "@", Illegal: "illegal character",
}

// String names the kind as a user would read it in an error message.
func (k Kind) String() string {
	if k >= 0 && k < numKinds {
		return kindText[k]
	}
	return "unknown token"
}

// Token is one lexical token: its kind, in the enumeration K of the lexer
// that scanned it, its source text and its position. The lexer of this
// package scans Token[Kind]; the lexers of the front ends' languages scan
// tokens of their own kinds.
type Token[K TokenKind] struct {
	Kind K
	Text string // the source text; for Newline, "\n"; for EOF, ""
	Pos  Pos
}

// TokenKind is the enumeration of the kinds of a lexer's tokens.
type TokenKind interface {
	~int
	// Describe renders a token of this kind with the given source text
	// for "found ..." in error messages.
	Describe(text string) string
}

// Describe renders the token for "found ..." in error messages.
func (t Token[K]) Describe() string { return t.Kind.Describe(t.Text) }

// Describe renders a token of kind k with the given text for "found ..."
// in error messages.
func (k Kind) Describe(text string) string {
	switch k {
	case EOF, Newline:
		return k.String()
	case Name:
		return "'" + text + "'"
	case Int, Float:
		return k.String() + " " + text
	}
	return "'" + text + "'"
}

// continues reports whether a newline right after a token of this kind
// continues the current expression (after a binary operator or a comma).
func (k Kind) continues() bool {
	switch k {
	case Comma, Assign, Define, Colon, DotDot, Eq, Ne, Lt, Le, Gt, Ge, Plus, Minus, Star, Slash,
		Percent, Amp, Pipe, Caret, Shl, Shr, AndAnd, OrOr, Bang, Tilde, LParen, LBrack:
		return true
	}
	return false
}
