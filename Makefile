GO      ?= go
BIN     := bin/augur
FUZZTIME ?= 2m

.PHONY: all build run test vet fuzz bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/augur

## run: build augur and show what it does on the bundled examples.
run: build
	@./scripts/demo.sh $(BIN)

## test: vet and run every test.
test:
	$(GO) vet ./...
	$(GO) test -timeout 45m ./...

## fuzz: run every fuzz target for FUZZTIME each.
FUZZ_TARGETS := syntax:FuzzParseExpr value:FuzzLiteral sare:FuzzParse sched:FuzzParse \
	presburger:FuzzParse presburger/iscc:FuzzParse presburger/iscc:FuzzRun \
	compiler/alg:FuzzParse
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
	rm -rf bin
