package sare

import (
	"fmt"

	"github.com/augur-verify/augur/expr"
	"github.com/augur-verify/augur/syntax"
	"github.com/augur-verify/augur/value"
)

// Widen returns a copy of spec computed in double precision: every f32
// tensor, input and cast becomes f64, so that the copy's values are the
// specification's as the real value model reads them, up to binary64's
// rounding rather than binary32's. Comparing the two evaluations tells
// where a value is sensitive to rounding (ill-conditioned: a cancellation,
// a recurrence that amplifies its errors), where no float computation of
// it, right or wrong, can be told from another by its value. The copy is
// checked; a specification whose widened text does not check (a bit cast
// of an f32, reinterpret_f32, has no f64 twin of the same width) is an
// error. spec is not changed.
func Widen(spec *Spec) (*Spec, *expr.Info, error) {
	src := &syntax.Source{Name: "widened specification", Text: Print(spec)}
	w, errs := Parse(src)
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("widening the specification: %w", errs)
	}
	widen := func(x syntax.Expr) {
		syntax.Inspect(x, func(e syntax.Expr) bool {
			if c, ok := e.(*syntax.Call); ok && c.Fun.Name == syntax.F32.String() {
				c.Fun.Name = syntax.F64.String()
			}
			return true
		})
	}
	for _, t := range w.Tensors {
		if t.Type == syntax.F32 {
			t.Type = syntax.F64
		}
		for _, eq := range t.Eqs {
			widen(eq.RHS)
			widen(eq.Where)
			if r := eq.Reduce; r != nil {
				widen(r.Cond)
				for i := range r.Los {
					widen(r.Los[i])
					widen(r.His[i])
				}
			}
		}
	}
	for _, a := range w.Assumes {
		widen(a.Cond)
	}
	info, errs := Check(w)
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("widening the specification: %w", errs)
	}
	return w, info, nil
}

// WidenInputs gives the inputs of a widened specification (Widen): the
// elements of in, each f32 element exactly as the f64 of the same value.
// orig is the specification in was made for, whose tensors give the
// elements' types.
func WidenInputs(orig *Spec, in Inputs) Inputs {
	return InputFunc(func(t *Tensor, idx []int64) (value.Value, error) {
		o := orig.Tensor(t.Name.Name)
		if o == nil {
			return value.Value{}, fmt.Errorf("input %s is not a tensor of the specification", t.Name.Name)
		}
		v, err := in.Input(o, idx)
		if err != nil || o.Type != syntax.F32 {
			return v, err
		}
		if v.IsUndef() {
			return value.Undef(syntax.F64), nil
		}
		return value.Float(syntax.F64, v.Float64()), nil
	})
}
