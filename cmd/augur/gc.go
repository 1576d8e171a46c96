package main

import (
	"os"
	"runtime/debug"
)

// The verifier's Presburger engine allocates many short-lived constraint
// rows (of exact integers, which hold pointers) over little live data, so
// that with Go's default collector setting, which collects whenever the
// heap has doubled, a validation spends a large share of its CPU time
// collecting them. So augur lets the heap grow to gcPercent percent above
// the live data between collections, trading memory for fewer
// collections (docs/bench.md, "The collector setting", measures both),
// within a soft limit of gcMemoryLimit bytes, past which the runtime
// collects more often. GOGC and GOMEMLIMIT, when set, take precedence as
// usual.
const (
	gcPercent     = 800
	gcMemoryLimit = 4 << 30
)

// tuneGC applies augur's collector defaults where the environment sets
// none.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
}
