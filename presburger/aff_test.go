package presburger

import (
	"context"
	"testing"
)

func TestAffEvalAndString(t *testing.T) {
	// f(N, i) = floor((i + floor(N/2) + 1) / 3) on [N] -> { A[i] }.
	dom := SetSpace([]string{"N"}, FlatTuple("A", "i"))
	divs := []Div{{Num: ints(1, 0, 0, 0), Den: NewInt(2)}}
	a, err := NewAff(dom, divs, ints(0, 1, 1, 1), NewInt(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ N, i, want int64 }{{4, 0, 1}, {5, 3, 2}, {-3, 0, -1}, {0, -5, -2}} {
		v, err := a.Eval(ints(c.N, c.i))
		if err != nil || v.Cmp(NewInt(c.want)) != 0 {
			t.Errorf("f(%d, %d) = %v, want %d (%v)", c.N, c.i, v, c.want, err)
		}
	}
	if got, want := a.String(), "[N] -> { A[i] -> [(floor((i + floor((N)/2) + 1)/3))] }"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if _, err := NewAff(dom, nil, ints(1, 2), NewInt(1)); err == nil {
		t.Error("NewAff accepted a row of the wrong width")
	}
	if _, err := NewAff(dom, nil, ints(1, 2, 3), NewInt(0)); err == nil {
		t.Error("NewAff accepted a zero denominator")
	}
}

func TestPwAffComponent(t *testing.T) {
	ctx := context.Background()
	m := mustParse(t, "[N] -> { A[i] -> B[j, k] : 0 <= i < N and j = N - i and k = floor(i / 2) }")
	p, err := PwMultiAffFromMap(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	k, err := p.Component(1)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(-1); i <= 6; i++ {
		v, ok, err := k.Eval(ctx, ints(5, i))
		if err != nil {
			t.Fatal(err)
		}
		if ok != (i >= 0 && i < 5) || ok && v.Cmp(NewInt(i/2)) != 0 {
			t.Errorf("k(5, %d) = %v, %v", i, v, ok)
		}
	}
	want := mustParse(t, "[N] -> { A[i] -> B[k] : 0 <= i < N and k = floor(i / 2) }")
	if eq, err := k.ToMap().IsEqual(ctx, want); err != nil || !eq {
		t.Errorf("component graph %v, want %v (%v)", k.ToMap(), want, err)
	}
	if _, err := p.Component(2); err == nil {
		t.Error("Component accepted an index out of range")
	}
}
