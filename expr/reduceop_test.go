package expr

import (
	"testing"

	"github.com/augur-verify/augur/syntax"
)

func TestReductionIdentity(t *testing.T) {
	for _, tc := range []struct {
		op   ReduceOp
		typ  syntax.Type
		want string
	}{
		{Sum, syntax.F32, "0"}, {Prod, syntax.I64, "1"}, {BitAnd, syntax.U8, "255"},
		{Min, syntax.I8, "127"}, {Max, syntax.I16, "-32768"}, {Max, syntax.U32, "0"},
		{Min, syntax.F64, "inf"}, {Max, syntax.F32, "-inf"}, {BitXor, syntax.I32, "0"},
	} {
		if got := tc.op.IdentityText(tc.typ); got != tc.want {
			t.Errorf("identity of %s on %s = %s, want %s", tc.op, tc.typ, got, tc.want)
		}
	}
}
