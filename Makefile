GO      ?= go
BIN     := bin/augur
FUZZTIME ?= 2m

.PHONY: all build run demo test vet fuzz bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/augur

## run: build augur and start the service on its embedded defaults (one
## SQLite file, in-process workers, the examples submitted at start): the
## dashboard is on http://localhost:8080.
run: build
	./$(BIN) serve --addr :8080 --db sqlite:augur.db --examples

## demo: validate and run every bundled example from the command line.
demo: build
	@./scripts/demo.sh $(BIN)

## test: vet and run every test, one package at a time (the verifier's
## solver time limits are wall-clock: packages running side by side would
## slow each other past them).
test:
	$(GO) vet ./...
	$(GO) test -p 1 -timeout 45m ./...

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
