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

// Token is one lexical token.
type Token struct {
	Kind Kind
	Text string // the source text; for Newline, "\n"; for EOF, ""
	Pos  Pos
}

// Describe renders the token for "found ..." in error messages.
func (t Token) Describe() string {
	switch t.Kind {
	case EOF, Newline:
		return t.Kind.String()
	case Name:
		return "'" + t.Text + "'"
	case Int, Float:
		return t.Kind.String() + " " + t.Text
	}
	return "'" + t.Text + "'"
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
