package main

import (
	"os"
	"runtime/debug"
)

// The verifier's Presburger engine allocates many short-lived constraint
// rows (of exact integers, which hold pointers), and with Go's default
// collector setting it spends close to half of a validation's CPU time
// collecting them: measured on the Halide suite's blur, 3.1 to 3.4 CPU
// seconds at the default against 1.8 to 2.2 with the setting below, for a
// peak of 140 to 250 MB instead of 100. So augur lets the heap grow to
// gcPercent percent above the live data between collections, within a
// soft limit of gcMemoryLimit bytes, past which the runtime collects more
// often. GOGC and GOMEMLIMIT, when set, take precedence as usual.
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
