package value

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/augur-verify/augur/syntax"
)

// Literal converts the spelling of a literal to a value of type t, the
// type its context demands. text is an integer literal (decimal or 0x
// hexadecimal), a float literal (1.0, 1., .5, 1e-3) or true/false, with an
// optional leading '-' so that a negated literal such as -128 can be
// converted as a whole. An integer literal must fit t when t is an integer
// type; it is rounded to nearest when t is a float type. A float literal
// needs a float type and must not overflow it. It is an error for a
// literal not to fit its type.
func Literal(t syntax.Type, text string) (Value, error) {
	body, neg := strings.CutPrefix(text, "-")
	switch {
	case body == "true" || body == "false":
		if t != syntax.Bool || neg {
			return Value{}, fmt.Errorf("boolean literal %s used as %s", text, t)
		}
		return Bool(body == "true"), nil
	case isIntSpelling(body):
		if v, ok := smallIntLiteral(t, body, neg); ok {
			return withMark(v, t.IsFloat() && !isExactInt(v)), nil
		}
		n, ok := parseBigInt(body)
		if !ok {
			return Value{}, fmt.Errorf("malformed integer literal %q", text)
		}
		if neg {
			n.Neg(n)
		}
		v, err := intLiteral(t, n, text)
		return withMark(v, t.IsFloat() && !isExactInt(v)), err
	}
	if t.IsFloat() {
		bits := 64
		if t == syntax.F32 {
			bits = 32
		}
		f, err := strconv.ParseFloat(text, bits)
		if err != nil && !errors.Is(err, strconv.ErrRange) || isBadFloatSpelling(body) {
			return Value{}, fmt.Errorf("malformed float literal %q", text)
		}
		if math.IsInf(f, 0) {
			return Value{}, fmt.Errorf("float literal %s overflows %s", text, t)
		}
		r := Float(t, f)
		return withMark(r, literalRounds(text, r)), nil
	}
	if t.IsInteger() {
		return Value{}, fmt.Errorf("float literal %s used as %s (cast it explicitly)", text, t)
	}
	return Value{}, fmt.Errorf("literal %s used as %s", text, t)
}

// isExactInt reports whether the float value v of an integer literal is
// below the magnitude from which integers round in its type (the literal
// may have been rounded to the bound itself).
func isExactInt(v Value) bool {
	lim := 0x1p24
	if v.typ == syntax.F64 {
		lim = 0x1p53
	}
	return finite(v) && math.Abs(v.Float64()) < lim
}

func isIntSpelling(s string) bool {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return true
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isBadFloatSpelling rejects what strconv accepts but the lexer does not:
// hexadecimal floats, underscores, inf and nan.
func isBadFloatSpelling(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return true
		}
	}
	return false
}

func parseBigInt(s string) (*big.Int, bool) {
	base := 10
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		s, base = s[2:], 16
	}
	if s == "" {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := '0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
		if !ok {
			return nil, false
		}
	}
	return new(big.Int).SetString(s, base)
}

func intLiteral(t syntax.Type, n *big.Int, text string) (Value, error) {
	switch {
	case t.IsInteger():
		lo, hi := Range(t)
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return Value{}, fmt.Errorf("integer literal %s does not fit %s", text, t)
		}
		if t.IsSigned() {
			return Int(t, n.Int64()), nil
		}
		return Uint(t, n.Uint64()), nil
	case t.IsFloat():
		f := new(big.Float).SetInt(n)
		if t == syntax.F32 {
			x, _ := f.Float32()
			if math.IsInf(float64(x), 0) {
				return Value{}, fmt.Errorf("integer literal %s overflows %s", text, t)
			}
			return Float(t, float64(x)), nil
		}
		x, _ := f.Float64()
		if math.IsInf(x, 0) {
			return Value{}, fmt.Errorf("integer literal %s overflows %s", text, t)
		}
		return Float(t, x), nil
	}
	return Value{}, fmt.Errorf("integer literal %s used as %s", text, t)
}

// Range returns the smallest and largest values of the integer type t.
func Range(t syntax.Type) (lo, hi *big.Int) {
	w := uint(t.Bits())
	one := big.NewInt(1)
	if t.IsSigned() {
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, w-1), one)
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, w-1))
		return lo, hi
	}
	return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, w), one)
}

// smallIntLiteral is the fast path of Literal for an integer literal that
// fits its integer type; ok is false in every other case, which the
// general path handles (and reports).
func smallIntLiteral(t syntax.Type, body string, neg bool) (Value, bool) {
	if !t.IsInteger() {
		return Value{}, false
	}
	base := 10
	if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
		body, base = body[2:], 16
	}
	if body == "" || body[0] == '+' || body[0] == '-' || strings.Contains(body, "_") {
		return Value{}, false
	}
	u, err := strconv.ParseUint(body, base, 64)
	if err != nil {
		return Value{}, false
	}
	w := uint(t.Bits())
	if t.IsUnsigned() {
		if neg && u != 0 || w < 64 && u >= 1<<w {
			return Value{}, false
		}
		return Uint(t, u), true
	}
	limit := uint64(1) << (w - 1) // |min|; max is limit - 1
	if neg && u > limit || !neg && u >= limit {
		return Value{}, false
	}
	if neg {
		return Int(t, int64(-u)), true
	}
	return Int(t, int64(u)), true
}
