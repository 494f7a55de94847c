# a2a-conform: build, test, lint.
GO      ?= go
BIN     ?= bin/a2a-conform
JSDIR   := cardsig/testdata/jsinterop

.PHONY: build test lint deps fleet

build:
	$(GO) build -o $(BIN) ./cmd/a2a-conform

# deps installs the test-only Node packages (the @a2a-js/sdk interop test).
deps: $(JSDIR)/node_modules/.package-lock.json

$(JSDIR)/node_modules/.package-lock.json: $(JSDIR)/package-lock.json
	npm ci --prefix $(JSDIR) --no-audit --no-fund

test: deps lint
	A2A_CONFORM_REQUIRE_NODE=1 A2A_CONFORM_REQUIRE_CHROMIUM=1 A2A_CONFORM_REQUIRE_PYTHON=1 $(GO) test -count=1 -timeout 15m ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fleet: build
	$(BIN) fleet up

# test-mock runs the tests of the local mock mode (fleet files, admin API,
# live page in headless Chromium, sequence diagrams), with the race detector.
.PHONY: test-mock
test-mock:
	A2A_CONFORM_REQUIRE_CHROMIUM=1 $(GO) test -count=1 -race ./mockvendor/admin ./seqdiag ./cmd/a2a-conform
	$(GO) test -count=1 -race -run 'ConfigFile' ./mockvendor

# The exec adapters around real A2A clients (examples/adapters; scored by
# suite's TestAdapters). deps also installs the a2a-js adapter's packages.
ADAPTERJS := examples/adapters/a2a-js

deps: $(ADAPTERJS)/node_modules/.package-lock.json

$(ADAPTERJS)/node_modules/.package-lock.json: $(ADAPTERJS)/package-lock.json
	npm ci --prefix $(ADAPTERJS) --no-audit --no-fund

.PHONY: adapters
adapters: $(ADAPTERJS)/node_modules/.package-lock.json
	$(GO) build -o bin/adapter-a2a-go ./examples/adapters/a2a-go

# make test saves the screenshots of the HTML report's browser test
# (suite/htmlreport) in reports/artifacts (git-ignored) unless
# A2A_CONFORM_ARTIFACTS names another directory; CI can upload it.
test: export A2A_CONFORM_ARTIFACTS ?= $(CURDIR)/reports/artifacts

# reports writes the reference run's JSON, JUnit and HTML reports to reports/.
.PHONY: reports
reports: build
	mkdir -p reports
	$(BIN) run --json-report reports/report.json --junit-report reports/junit.xml --html-report reports/report.html

# fuzz runs every fuzz target for FUZZTIME, one after another. Crashers are
# written to the package's testdata/fuzz/FuzzX/ and replay in `make test`.
FUZZTIME ?= 60s
# FUZZFLAGS adds go test flags, e.g. -fuzzminimizetime=5s for short runs.
FUZZFLAGS ?=
FUZZ_TARGETS := \
	./mockvendor:FuzzRPC \
	./mockvendor:FuzzProxy \
	./mockvendor:FuzzMarshalAnswer \
	./mockvendor:FuzzScanEnvelope \
	./mockvendor:FuzzAppendTask10 \
	./mockvendor:FuzzDecodeSendFast \
	./mockvendor:FuzzTraceRing \
	./cardsig:FuzzCardSignature \
	./contract:FuzzLineReader

.PHONY: fuzz bench
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "== $$fn ($$pkg, $(FUZZTIME))"; \
	  $(GO) test -run='^$$' -fuzz="^$$fn\$$" -fuzztime=$(FUZZTIME) $(FUZZFLAGS) $$pkg; \
	done

# bench prints the fleet's figures against a bare TLS server and the suite's
# wall time as name=value lines (see bench/run.sh).
bench:
	@GO=$(GO) ./bench/run.sh
