package value

import (
	"math/rand/v2"

	"github.com/augur-verify/augur/syntax"
)

// Random draws a value of type t from r. Integers are uniform over their
// whole range; booleans are fair coins; floats are multiples of 1/8 in
// [-4, 4], so they carry few significant bits: sums and products of a few
// thousand of them are exact in f32, which makes tests of reassociated
// reductions meaningful. For syntax.Invalid it returns the zero Value.
func Random(t syntax.Type, r *rand.Rand) Value {
	switch {
	case t == syntax.Bool:
		return Bool(r.IntN(2) == 1)
	case t.IsInteger():
		return wrap(t, r.Uint64())
	case t.IsFloat():
		return Float(t, float64(r.IntN(65)-32)/8)
	}
	return Value{}
}
