package testtier

import "testing"

// TestSkipsOutsideLongTier checks that a long test is skipped unless the
// tier is selected, and runs when it is.
func TestSkipsOutsideLongTier(t *testing.T) {
	for _, tc := range []struct {
		env     string
		skipped bool
	}{{"", true}, {"0", true}, {"1", testing.Short()}} {
		t.Setenv(Env, tc.env)
		var inner *testing.T
		t.Run("env="+tc.env, func(t *testing.T) {
			inner = t
			Long(t)
		})
		if inner.Skipped() != tc.skipped {
			t.Errorf("%s=%q: skipped %v, want %v", Env, tc.env, inner.Skipped(), tc.skipped)
		}
	}
}
