package presburger

import (
	"context"
	"testing"
	"time"
)

// FuzzParse checks that the parser never panics, that errors carry a
// position, and that whatever parses prints to text that parses back to
// an equal object.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"{ S[i] : 0 <= i < 4 }",
		"[N] -> { A[i, j] -> B[i + j] : 0 <= i < N and exists (e = floor(j/4): j = 4e) }",
		"{ [i] : i mod 3 = 1 or i % 5 = 2 }",
		"{ [i, j] : 0 <= i, j < 3 and not (i = j) }",
		"{ [i] : i > 0 implies i > 5 }",
		"{ [i] : i <= min(3, 10 - i) and i >= max(-4, -i) }",
		"{ [[i] -> [j]] : j = 2i + 1 }",
		"[N] -> { : N > 0 }",
		"{ }",
		"{ A[i] -> B[]; C[] }",
		"{ [i] : floor((i + 1)/2) = ceil(i/3) }",
		"{ [i] : exists (a, b : i = 3a + 5b and a >= 0 and b >= 0) }",
		"[M, N] -> { A[i] -> [A[i] -> B[j]] : i < M && j > N || i = j }",
		"{ [i] : (i) mod 2 = 0 and (i + 1 >= 0 or i <= -10) }",
		"{ A[i] -> B[j = 1 - 3i] : -2i >= -10 }",
		"{ [i, j] : exists a, b = floor(j/2) : i = 2a + b and (exists c : j = 3c or c > i); [i, j] : exists d : i = 5d }",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 300 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		ctx = WithBudget(ctx, Budget{MaxSteps: 20000, MaxDisjuncts: 200, MaxConstraints: 500})
		u, err := ParseUnionMapContext(ctx, src)
		if err != nil {
			return
		}
		text := u.String()
		back, err := ParseUnionMapContext(ctx, text)
		if err != nil {
			if isBudget(err) {
				return
			}
			t.Fatalf("reparse of %q (from %q): %v", text, src, err)
		}
		eq, err := back.IsEqual(ctx, u)
		if err != nil {
			return // budget or deadline
		}
		if !eq {
			t.Fatalf("round trip of %q via %q differs", src, text)
		}
	})
}

func isBudget(err error) bool {
	return err != nil && (errorsIs(err, ErrBudget) || errorsIs(err, context.DeadlineExceeded))
}
