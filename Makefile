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
	$(GO) test ./...

## fuzz: run every parser's fuzz target for FUZZTIME each.
fuzz:
	$(GO) test ./sare -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./sched -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./presburger -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)

## bench: run the benchmarks.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
