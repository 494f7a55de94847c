# a2a-conform: build, test, lint, and the measurements.
#
#   make test     lint, then every test, ending with a summary of what was
#                 skipped and why. Tests that need Node (SDK interop,
#                 the a2a-js and framework adapters), python3 (the stdlib adapter;
#                 with jq, reading the hostile runs' reports) or
#                 Chromium (browser tests) skip when those are missing,
#                 unless A2A_CONFORM_REQUIRE_NODE/_PYTHON/_CHROMIUM=1 (CI
#                 sets all three in .ci/run, so nothing is skipped there).
#   make test-short  the inner loop (under a minute): -short skips the long
#                 whole-catalog runs, which make test and CI keep.
#   make reports  the reference run's JSON, JUnit and HTML reports in reports/
#   make image    the container image (Dockerfile) with podman or docker
#   make fuzz     every fuzz target for FUZZTIME (default 60s)
#   make proto    regenerates internal/a2apb from proto/ with the pinned
#                 protoc and Go plugins (proto/README.md)
#   make bench    fleet vs a bare TLS server (both dialects, load client in
#                 its own process), gRPC fleet vs bare grpc-go (own transport
#                 and ServeHTTP), start-up, suite wall time
GO      ?= go
BIN     ?= bin/a2a-conform
# REVISION is stamped into the binary (a2a-conform version): Go records no
# VCS revision in a linked git worktree or with -buildvcs=false. VERSION
# stays "dev" unless given (make build VERSION=v0.2.0); reports record it.
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
VERSION  ?= dev
LDFLAGS  := -X main.version=$(VERSION) -X main.revision=$(REVISION)
# GOTESTSUM runs go test and ends with a summary: every skipped test with
# its reason (a missing Node, python3 or Chromium, say), then the counts.
GOTESTSUM ?= $(GO) run gotest.tools/gotestsum@v1.13.0
# CONTAINER builds the image (make image): podman, else docker.
CONTAINER ?= $(shell command -v podman || command -v docker)
# MODULES are this repository's Go modules: the harness (.) and the example
# programs that pull SDKs (gRPC and all) a library user must not inherit:
# the a2a-go adapter, and the a2a-go SDK server the proxy's tests stand in
# front of (examples/upstreams).
MODULES := . examples/adapters/a2a-go examples/upstreams/a2a-go
NPM_DIRS := cardsig/testdata/jsinterop examples/adapters/a2a-js examples/upstreams/a2a-js \
            examples/adapters/adk examples/adapters/beeai examples/adapters/mastra examples/adapters/ai-sdk
# PY_DIRS are the Python adapters: each gets a virtual environment in .venv
# from its requirements.txt (every package pinned with its hashes, made by
# `uv pip compile --generate-hashes` from requirements.in).
PY_DIRS := examples/adapters/a2a-sdk examples/adapters/adk-python examples/adapters/strands
PYTHON ?= python3

.PHONY: build test test-short lint cross deps fleet reports adapters fuzz bench image proto

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/a2a-conform

# proto regenerates the gRPC binding's Go code (internal/a2apb) from the
# vendored A2A 1.0.1 proto; go test ./internal/a2apb checks it is current.
proto:
	proto/generate.sh

# image builds the container image (Dockerfile) as a2a-conform:$(VERSION).
# GO_IMAGE replaces the build stage's base where golang:1.26-bookworm
# cannot be pulled.
GO_IMAGE ?= golang:1.26-bookworm
image:
	$(CONTAINER) build --build-arg GO_IMAGE=$(GO_IMAGE) --build-arg VERSION=$(VERSION) --build-arg REVISION=$(REVISION) -t a2a-conform:$(VERSION) .

# deps installs the test-only Node packages (lockfiles committed) when npm
# is there, and the Python adapters' virtual environments (hashed
# requirements, nothing installed outside .venv) when python3 has venv;
# without them those tests skip (or fail, in CI).
deps:
	@if command -v npm >/dev/null; then \
	  for d in $(NPM_DIRS); do \
	    [ "$$d/node_modules/.package-lock.json" -nt "$$d/package-lock.json" ] || npm ci --prefix $$d --no-audit --no-fund || exit 1; \
	  done; \
	else echo "npm not found: the Node interop and adapter tests will skip"; fi
	@if $(PYTHON) -c 'import venv, ensurepip' 2>/dev/null; then \
	  for d in $(PY_DIRS); do \
	    [ "$$d/.venv/installed" -nt "$$d/requirements.txt" ] && continue; \
	    echo "$$d: $(PYTHON) -m venv .venv; pip install --require-hashes -r requirements.txt"; \
	    rm -rf $$d/.venv && $(PYTHON) -m venv $$d/.venv && \
	    $$d/.venv/bin/python -m pip install -q --disable-pip-version-check --no-input \
	      --require-hashes --no-deps --only-binary :all: -r $$d/requirements.txt && \
	    touch $$d/.venv/installed || exit 1; \
	  done; \
	else echo "$(PYTHON) has no venv module: the Python adapter tests will skip"; fi

# Screenshots of the browser tests go to reports/artifacts (git-ignored)
# unless A2A_CONFORM_ARTIFACTS names another directory.
test: export A2A_CONFORM_ARTIFACTS ?= $(CURDIR)/reports/artifacts
test: deps lint cross
	$(GOTESTSUM) --format pkgname -- -count=1 -timeout 15m ./...
	$(GO) -C examples/adapters/a2a-go test -count=1 ./...

# test-short is the inner loop: every test but the long whole-catalog runs
# (the real SDK clients, hostile and lying orchestrators, the reference's
# alternatives, --parallel 1 against 4), which skip under -short and say
# so in the summary. No npm install, lint or cross-build.
test-short:
	$(GOTESTSUM) --format pkgname -- -short -count=1 -timeout 5m ./...

# lint also fails when go.mod or go.sum of any module is not what
# 'go mod tidy' makes of it (the diff is printed).
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@for m in $(MODULES); do \
	  GOWORK=off $(GO) -C $$m mod tidy -diff || { echo "go.mod/go.sum in $$m are not tidy: run (cd $$m && go mod tidy)"; exit 1; }; \
	done
	@for m in $(MODULES); do echo "$(GO) -C $$m vet ./..."; GOWORK=off $(GO) -C $$m vet ./... || exit 1; done

# cross builds the CLI for Windows and macOS (process-group code is behind
# build tags: group_unix.go, group_windows.go in suite/driver).
cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/a2a-conform
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/a2a-conform
	GOOS=windows GOARCH=amd64 $(GO) vet ./suite/driver/

fleet: build
	$(BIN) fleet up

reports: build
	mkdir -p reports
	$(BIN) run --json-report reports/report.json --junit-report reports/junit.xml --html-report reports/report.html

# adapters builds the a2a-go adapter (its own module) and installs the Node
# adapters' packages (a2a-js, adk, beeai, mastra, ai-sdk).
adapters: deps
	$(GO) -C examples/adapters/a2a-go build -o $(CURDIR)/bin/adapter-a2a-go .

# fuzz runs every fuzz target for FUZZTIME, one after another. Crashers are
# written to the package's testdata/fuzz/FuzzX/ and replay in `make test`.
FUZZTIME ?= 60s
# FUZZFLAGS adds go test flags, e.g. -fuzzminimizetime=5s for short runs.
FUZZFLAGS ?=
FUZZ_TARGETS := \
	./mockvendor:FuzzRPC \
	./mockvendor/internal/netx:FuzzProxy \
	./mockvendor:FuzzREST \
	./mockvendor/internal/binding/jsonrpc:FuzzEncodeAnswer \
	./mockvendor/internal/binding/jsonrpc:FuzzReadEnvelope \
	./mockvendor/internal/binding/jsonrpc:FuzzEncodeSendAnswer \
	./mockvendor/internal/binding/jsonrpc:FuzzDecodeSendFast \
	./mockvendor/internal/binding/jsonrpc:FuzzScanRequest \
	./mockvendor/internal/trace:FuzzTraceRing \
	./cardsig:FuzzCardSignature \
	./contract:FuzzLineReader

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "== $$fn ($$pkg, $(FUZZTIME))"; \
	  $(GO) test -run='^$$' -fuzz="^$$fn\$$" -fuzztime=$(FUZZTIME) $(FUZZFLAGS) $$pkg; \
	done

# bench prints the fleet's figures against a bare TLS server (JSON-RPC) and
# bare grpc-go servers (gRPC), and the suite's wall time, as name=value lines
# (see bench/run.sh).
bench:
	@GO=$(GO) ./bench/run.sh
