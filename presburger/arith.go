package presburger

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Int is an exact integer. Values that fit in an int64 are stored inline;
// any operation whose result would overflow an int64 falls back to
// math/big, so no arithmetic on Int is ever silently wrong. Int is a value
// type: the zero value is 0 and methods never modify their receiver or
// arguments.
type Int struct {
	small int64
	big   *big.Int // non-nil iff the value does not fit in an int64; never mutated
}

// NewInt returns the Int equal to v.
func NewInt(v int64) Int { return Int{small: v} }

// NewIntFromBig returns the Int equal to v; v is copied.
func NewIntFromBig(v *big.Int) Int {
	if v.IsInt64() {
		return Int{small: v.Int64()}
	}
	return Int{big: new(big.Int).Set(v)}
}

func fromBig(v *big.Int) Int {
	if v.IsInt64() {
		return Int{small: v.Int64()}
	}
	return Int{big: v}
}

// Big returns a fresh big.Int equal to x.
func (x Int) Big() *big.Int {
	if x.big != nil {
		return new(big.Int).Set(x.big)
	}
	return big.NewInt(x.small)
}

func (x Int) bigRO() *big.Int {
	if x.big != nil {
		return x.big
	}
	return big.NewInt(x.small)
}

// Int64 returns x as an int64 and whether it fits.
func (x Int) Int64() (int64, bool) {
	if x.big != nil {
		return 0, false
	}
	return x.small, true
}

// IsZero reports whether x = 0.
func (x Int) IsZero() bool { return x.big == nil && x.small == 0 }

// IsOne reports whether x = 1.
func (x Int) IsOne() bool { return x.big == nil && x.small == 1 }

// Sign returns -1, 0 or 1 according to the sign of x.
func (x Int) Sign() int {
	if x.big != nil {
		return x.big.Sign()
	}
	switch {
	case x.small < 0:
		return -1
	case x.small > 0:
		return 1
	}
	return 0
}

// Cmp returns -1, 0 or 1 as x < y, x = y or x > y.
func (x Int) Cmp(y Int) int {
	if x.big == nil && y.big == nil {
		switch {
		case x.small < y.small:
			return -1
		case x.small > y.small:
			return 1
		}
		return 0
	}
	return x.bigRO().Cmp(y.bigRO())
}

// Equal reports whether x = y.
func (x Int) Equal(y Int) bool {
	switch {
	case x.big == nil && y.big == nil:
		return x.small == y.small
	case x.big == nil || y.big == nil:
		return false // the representation is canonical: only big values are big
	}
	return x.big.Cmp(y.big) == 0
}

// isNegOf reports whether x = -y.
func (x Int) isNegOf(y Int) bool {
	if x.big == nil && y.big == nil && y.small != math.MinInt64 {
		return x.small == -y.small
	}
	return x.Equal(y.Neg())
}

// Add returns x + y.
func (x Int) Add(y Int) Int {
	if x.big == nil && y.big == nil {
		s := x.small + y.small
		// Overflow iff both operands have the same sign and the result differs.
		if (x.small >= 0) == (y.small >= 0) && (s >= 0) != (x.small >= 0) {
			return fromBig(new(big.Int).Add(big.NewInt(x.small), big.NewInt(y.small)))
		}
		return Int{small: s}
	}
	return fromBig(new(big.Int).Add(x.bigRO(), y.bigRO()))
}

// Sub returns x - y.
func (x Int) Sub(y Int) Int {
	if x.big == nil && y.big == nil {
		d := x.small - y.small
		if (x.small >= 0) != (y.small >= 0) && (d >= 0) != (x.small >= 0) {
			return fromBig(new(big.Int).Sub(big.NewInt(x.small), big.NewInt(y.small)))
		}
		return Int{small: d}
	}
	return fromBig(new(big.Int).Sub(x.bigRO(), y.bigRO()))
}

// Neg returns -x.
func (x Int) Neg() Int {
	if x.big == nil {
		if x.small == math.MinInt64 {
			return fromBig(new(big.Int).Neg(big.NewInt(x.small)))
		}
		return Int{small: -x.small}
	}
	return fromBig(new(big.Int).Neg(x.big))
}

// Abs returns |x|.
func (x Int) Abs() Int {
	if x.Sign() < 0 {
		return x.Neg()
	}
	return x
}

// Mul returns x * y.
func (x Int) Mul(y Int) Int {
	if x.big == nil && y.big == nil {
		a, b := x.small, y.small
		if a == 0 || b == 0 {
			return Int{}
		}
		neg := (a < 0) != (b < 0)
		ua, ub := absU(a), absU(b)
		hi, lo := bits.Mul64(ua, ub)
		if hi == 0 {
			if !neg && lo <= math.MaxInt64 {
				return Int{small: int64(lo)}
			}
			if neg && lo <= 1<<63 {
				return Int{small: int64(-lo)} // -(1<<63) wraps to MinInt64 exactly
			}
		}
		return fromBig(new(big.Int).Mul(big.NewInt(a), big.NewInt(b)))
	}
	return fromBig(new(big.Int).Mul(x.bigRO(), y.bigRO()))
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}

// FloorDiv returns floor(x / y). It panics if y = 0, like integer division.
func (x Int) FloorDiv(y Int) Int {
	if x.big == nil && y.big == nil {
		a, b := x.small, y.small
		if b == -1 {
			return x.Neg()
		}
		q := a / b
		if (a%b != 0) && ((a < 0) != (b < 0)) {
			q--
		}
		return Int{small: q}
	}
	q, m := new(big.Int), new(big.Int)
	yb := y.bigRO()
	q.DivMod(x.bigRO(), yb, m) // Euclidean: m >= 0
	// Euclidean division agrees with floor division when y > 0; for y < 0
	// and a nonzero remainder, floor is one less.
	if yb.Sign() < 0 && m.Sign() != 0 {
		q.Sub(q, big.NewInt(1))
	}
	return fromBig(q)
}

// CeilDiv returns ceil(x / y). It panics if y = 0.
func (x Int) CeilDiv(y Int) Int { return x.Neg().FloorDiv(y).Neg() }

// Mod returns x mod |y| as a non-negative remainder in [0, |y|). It panics
// if y = 0.
func (x Int) Mod(y Int) Int {
	ay := y.Abs()
	return x.Sub(x.FloorDiv(ay).Mul(ay))
}

// Gcd returns the non-negative greatest common divisor of x and y; Gcd(0, 0) = 0.
func Gcd(x, y Int) Int {
	if x.big == nil && y.big == nil {
		a, b := absU(x.small), absU(y.small)
		for b != 0 {
			a, b = b, a%b
		}
		if a <= math.MaxInt64 {
			return Int{small: int64(a)}
		}
		return fromBig(new(big.Int).SetUint64(a))
	}
	return fromBig(new(big.Int).GCD(nil, nil, new(big.Int).Abs(x.bigRO()), new(big.Int).Abs(y.bigRO())))
}

// Lcm returns the non-negative least common multiple of x and y; Lcm(x, 0) = 0.
func Lcm(x, y Int) Int {
	if x.IsZero() || y.IsZero() {
		return Int{}
	}
	g := Gcd(x, y)
	return x.Abs().FloorDiv(g).Mul(y.Abs())
}

// String returns x in decimal.
func (x Int) String() string {
	if x.big != nil {
		return x.big.String()
	}
	return strconv.FormatInt(x.small, 10)
}

// Row helpers: an affine row is a []Int.

func intsEqual(a, b []Int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// copyRow returns a copy of r (nil for an empty row).
func copyRow(r []Int) []Int {
	if len(r) == 0 {
		return nil
	}
	out := make([]Int, len(r))
	copy(out, r)
	return out
}

func negRow(r []Int) []Int {
	out := make([]Int, len(r))
	for i, v := range r {
		out[i] = v.Neg()
	}
	return out
}

// addScaled returns a + k*b.
func addScaled(a []Int, k Int, b []Int) []Int {
	out := make([]Int, len(a))
	for i := range a {
		if b[i].IsZero() {
			out[i] = a[i]
		} else {
			out[i] = a[i].Add(k.Mul(b[i]))
		}
	}
	return out
}

func scaleRow(r []Int, k Int) []Int {
	out := make([]Int, len(r))
	for i, v := range r {
		out[i] = v.Mul(k)
	}
	return out
}

// rowGcd returns the gcd of the first n entries of r.
func rowGcd(r []Int, n int) Int {
	g := Int{}
	for i := 0; i < n; i++ {
		if !r[i].IsZero() {
			g = Gcd(g, r[i])
			if g.IsOne() {
				return g
			}
		}
	}
	return g
}

func isZeroRow(r []Int, n int) bool {
	for i := 0; i < n; i++ {
		if !r[i].IsZero() {
			return false
		}
	}
	return true
}

func ints(vs ...int64) []Int {
	out := make([]Int, len(vs))
	for i, v := range vs {
		out[i] = NewInt(v)
	}
	return out
}
