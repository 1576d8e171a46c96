GO      ?= go
BIN     := bin/augur
FUZZTIME ?= 2m

.PHONY: all build run demo test vet fuzz bench clean halide

all: build

build:
	$(GO) build -o $(BIN) ./cmd/augur

## run: build augur and start the service on its embedded defaults (one
## SQLite file, in-process workers, the examples submitted at start): the
## dashboard is on http://localhost:8080, or on ADDR (make run ADDR=:9090).
ADDR ?= :8080
run: build
	./$(BIN) serve --addr $(ADDR) --db sqlite:augur.db --examples

## demo: validate and run every bundled example from the command line.
demo: build
	@./scripts/demo.sh $(BIN)

## test: vet and run every test, then the verifier's packages again under
## the race detector (short mode: the corpus in the real value model). The
## verifier's limits are counted in solver resources and engine steps, not
## seconds, so packages may run side by side.
RACE_PKGS := ./validate ./symeval ./smt/...
test:
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...
	$(GO) test -race -short -timeout 30m $(RACE_PKGS)

## halide: build the C++ translator of stock Halide 14 pipelines (see
## docs/halide.md) into bin/halide/: libaugur_halide.a (augur::emit, for
## pipelines built in code) and driver.o (the main that augur halide links
## with a Generator). augur halide and its tests build their own copy on
## demand, in a cache; this rule is for builds outside Go. Halide.h is
## looked for in HALIDE_INCLUDE.
HALIDE_INCLUDE ?= /usr/include/halide14
HALIDE_CXXFLAGS := -std=c++17 -O1 -Wall -I$(HALIDE_INCLUDE)

halide: bin/halide/libaugur_halide.a bin/halide/driver.o

bin/halide/%.o: halide/cc/%.cpp halide/cc/augur_halide.h
	@mkdir -p bin/halide
	$(CXX) $(HALIDE_CXXFLAGS) -c $< -o $@

bin/halide/libaugur_halide.a: bin/halide/emit.o
	$(AR) rcs $@ $^

## fuzz: run every fuzz target for FUZZTIME each.
FUZZ_TARGETS := syntax:FuzzParseExpr value:FuzzLiteral sare:FuzzParse sched:FuzzParse \
	presburger:FuzzParse presburger/iscc:FuzzParse presburger/iscc:FuzzRun \
	compiler/alg:FuzzParse compiler/alg:FuzzParseSchedule
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t#*:}; \
	  echo "== $$pkg $$fn"; \
	  $(GO) test ./$$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME); \
	done

## bench: run the benchmarks.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin augur.db augur.db-wal augur.db-shm
