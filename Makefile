GO      ?= go
BIN     := bin/augur
FUZZTIME ?= 2m

.PHONY: all build run demo test test-long vet lint islcheck fuzz bench bench-apps bench-go bench-validate bench-regen clean halide

all: build

build:
	$(GO) build -o $(BIN) ./cmd/augur

## run: build augur and start the service on its embedded defaults (one
## SQLite file, in-process workers, the examples submitted at start): the
## dashboard is on http://127.0.0.1:8080, or on ADDR (make run
## ADDR=127.0.0.1:9090). It listens on loopback only: ADDR=:8080 opens it
## to the network, without tokens (augur serve warns so).
ADDR ?= 127.0.0.1:8080
run: build
	./$(BIN) serve --addr $(ADDR) --db sqlite:augur.db --examples

## demo: validate and run every bundled example from the command line.
demo: build
	@./scripts/demo.sh $(BIN)

## test: vet and staticcheck, run every test but the long tier (test-long),
## then the verifier's packages
## again under the race detector (short mode: the corpus in the real value
## model), then the differential tests of the Presburger engine against isl
## at a small scale. The verifier's limits are counted in solver resources
## and engine steps, not seconds, so packages may run side by side.
## The race detector watches the packages whose code starts goroutines
## (validate's workers, the solver's interrupts): symeval and the packages
## it builds on start none, and its tests run in one goroutine, so the
## detector has nothing to watch there; validate's workers call it under
## the detector.
RACE_PKGS := ./validate ./smt/...
## The tests run the verifier in-process, where most CPU time would go to
## collecting the engine's short-lived rows at Go's default setting: they
## run with the collector setting that augur itself uses (cmd/augur/gc.go).
TEST_GOGC ?= 800
test: vet lint
	GOGC=$(TEST_GOGC) $(GO) test -timeout 45m ./...
	GOGC=$(TEST_GOGC) $(GO) test -race -short -timeout 30m $(RACE_PKGS)
	@$(MAKE) --no-print-directory islcheck

## test-long: the long tier (internal/testtier): the tests named TestLong...,
## whose validations cost minutes of CPU each (whole apps, the final stage's
## suite). make test skips them; continuous integration runs both.
test-long:
	GOGC=$(TEST_GOGC) AUGUR_TEST_LONG=1 $(GO) test -timeout 80m -run '^TestLong' ./...

vet:
	$(GO) vet ./...

## lint: staticcheck, at a pinned version that supports this Go release
## (2026.2.2); go run fetches and caches it on first use, so nothing needs
## installing beforehand. STATICCHECK=staticcheck uses an installed one.
STATICCHECK_VERSION := v0.8.2
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
lint:
	$(STATICCHECK) ./...

## islcheck: the differential tests of package presburger against isl
## (presburger/islcheck, build tag isl, needs libisl-dev), at ISL_SCALE times
## the default number of random cases (1 is the full run, several minutes;
## 0.25 takes well under a minute). Skipped with a note when isl's headers
## are missing, unless CI is set.
ISL_SCALE ?= 0.25
islcheck:
	@if [ -f /usr/include/isl/set.h ] || [ -n "$$CI" ]; then \
	  echo "$(GO) test -tags isl ./presburger/islcheck/ -args -scale $(ISL_SCALE)"; \
	  $(GO) test -tags isl -timeout 10m ./presburger/islcheck/ -args -scale $(ISL_SCALE); \
	else \
	  echo "islcheck: skipped, isl's headers are missing (Debian: apt-get install -y libisl-dev)"; \
	fi

## halide: build the C++ translator of stock Halide 14 pipelines (see
## docs/halide.md) into bin/halide/: libaugur_halide.a (augur::emit, for
## pipelines built in code) and driver.o (the main that augur halide links
## with a Generator). augur halide and its tests build their own copy on
## demand, in a cache; this rule is for builds outside Go. Halide.h is
## looked for in HALIDE_INCLUDE.
HALIDE_INCLUDE ?= /usr/include/halide14
HALIDE_CXXFLAGS := -std=c++17 -O1 -Wall -Werror -I$(HALIDE_INCLUDE)
HALIDE_UNITS := $(patsubst frontend/halide/cc/%.cpp,bin/halide/%.o,$(filter-out %/driver.cpp,$(wildcard frontend/halide/cc/*.cpp)))

halide: bin/halide/libaugur_halide.a bin/halide/driver.o

bin/halide/%.o: frontend/halide/cc/%.cpp $(wildcard frontend/halide/cc/*.h)
	@mkdir -p bin/halide
	$(CXX) $(HALIDE_CXXFLAGS) -c $< -o $@

bin/halide/libaugur_halide.a: $(HALIDE_UNITS)
	$(AR) rcs $@ $^

## fuzz: run every fuzz target for FUZZTIME each.
FUZZ_TARGETS := syntax:FuzzParseExpr value:FuzzLiteral sare:FuzzParse sched:FuzzParse \
	presburger:FuzzParse presburger/iscc:FuzzParse presburger/iscc:FuzzRun \
	frontend/compiler/alg:FuzzParse frontend/compiler/alg:FuzzParseSchedule \
	frontend/atl:FuzzParse frontend/rink:FuzzParse \
	frontend:FuzzParseIntTerm frontend/halide:FuzzParseDeps frontend/halide:FuzzSplitCommand
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t#*:}; \
	  echo "== $$pkg $$fn"; \
	  $(GO) test ./$$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME); \
	done

## bench: run the benchmark suite of Clément 2022, Table 6.1, and the
## stencil chain's depth curve (augur bench, see docs/bench.md) and print
## the table; each validation is bounded by BENCH_TIMEOUT, BENCH_FLAGS adds
## flags (make bench BENCH_FLAGS='--only sdot,blur --halide', '--json').
## Exits 1 when a verdict differs from the expected one.
BENCH_TIMEOUT ?= 10m
BENCH_FLAGS ?=
bench: build
	./$(BIN) bench --timeout $(BENCH_TIMEOUT) $(BENCH_FLAGS)

## bench-apps: Halide's apps, each validated against stock Halide's compile
## time in the same run (augur bench --halide-apps, see docs/bench.md);
## needs Halide 14, as augur halide does. BENCH_FLAGS adds flags
## (make bench-apps BENCH_FLAGS='--only wavelet,blur').
bench-apps: build
	./$(BIN) bench --halide-apps --timeout $(BENCH_TIMEOUT) $(BENCH_FLAGS)

## bench-go: the Go micro-benchmarks of every package but the suite's
## (go test -bench); bench-validate: BenchmarkValidate, one sub-benchmark
## per suite entry (BENCH=halide/sdot selects some; slow).
BENCH ?= .
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem $$($(GO) list ./... | grep -v '/bench$$')

bench-validate:
	$(GO) test -run '^$$' -bench 'Validate/$(BENCH)' -benchtime 1x -timeout 0 ./bench

## bench-isl: the engine against isl on the verifier's own work. Validates
## the Halide pairs ISL_KERNELS with --trace-presburger into a temporary
## directory, then replays the traces in both engines (BenchmarkReplay of
## presburger/islcheck, build tag isl, needs libisl-dev) and prints, per
## trace and per kind of operation, the time in each and the median ratio
## Augur/isl (see docs/bench.md). ISL_BENCHTIME runs each trace that many
## times (the median time of each operation is kept).
ISL_KERNELS ?= sdot blur cmm1024 sgemm1024 conv
ISL_BENCHTIME ?= 3x
.PHONY: bench-isl
bench-isl: build
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; set -e; \
	for k in $(ISL_KERNELS); do \
	  echo "== tracing $$k"; \
	  ./$(BIN) validate bench/halide/$$k/spec.sare bench/halide/$$k/prog.sched \
	    --trace-presburger $$dir/$$k.iscc > /dev/null || [ $$? -lt 3 ]; \
	done; \
	$(GO) test -tags isl -run '^$$' -bench Replay -benchtime $(ISL_BENCHTIME) -timeout 0 -v \
	  ./presburger/islcheck/ -args -traces $$dir

## bench-regen: rebuild the suite's checked-in Halide pairs (bench/halide/)
## from frontend/halide/apps with stock Halide 14 (see docs/halide.md for what it
## needs).
bench-regen: build
	./$(BIN) bench --regenerate

clean:
	rm -rf bin augur.db augur.db-wal augur.db-shm
