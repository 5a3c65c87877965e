# kubectl-schedcache developer targets. Feature areas keep their own targets in
# hack/make/*.mk (e2e, dist, bench), included below.
GO ?= go
BIN ?= bin/kubectl-schedcache
PKG := github.com/schedcache/kubectl-schedcache
VERSION ?= $(shell hack/version.sh)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X $(PKG)/pkg/cmd.version=$(VERSION) -X $(PKG)/pkg/cmd.commit=$(COMMIT) -X $(PKG)/pkg/cmd.date=$(DATE)

# Every Go build and test here is pure Go (CGO_ENABLED=0), as the plugin is
# released, except `make race` (the race detector needs cgo). One setting
# for vet, the tests, the plugin binary and the tools built from source
# (e2e control plane, kubectl, krew) lets them share one compiled copy of
# their common packages in the build cache: with cgo on for some and off
# for others, the net package differs and so does everything above it, and
# a cold `make test` compiled the plugin's 1,171 packages three times over.
CGO_ENABLED ?= 0
export CGO_ENABLED

.PHONY: build test unit race vet golden bench example readme
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-schedcache

# test is the README's test command. Its stages, each timed
# (hack/run-stages.sh; .ci/run prints the timings at the end): go vet and
# the other source checks (vet), the unit tests with the race detector, the
# README check (readme), the hostile-input suite, the end-to-end tests
# against real control-plane binaries (built from Go modules on first use
# and cached by version), the report's page in headless Chromium (browser,
# installed when missing), then the release packaging checks. golangci-lint
# (lint) and each fuzz target for its budget (hack/make/fuzz.mk) run in the
# background at the lowest CPU priority (the bg: stages, one after the
# other), with the builds of the tools later stages need: golangci-lint from
# the start; lint, fuzz, the control plane, kubectl and the krew tools once
# vet has compiled the packages they share with the plugin (started
# together, they would compile those twice). `wait` collects them and
# prints their output. A cold run thus spends on them the CPU the
# foreground leaves idle; on a warm machine the tools are cached.
TEST_STAGES ?= bg:golangci-lint vet bg:lint,fuzz,e2e-binaries,krew-tools race readme hostile wait e2e browser verify
test:
	@MAKE="$(MAKE)" hack/run-stages.sh $(TEST_STAGES)

# unit is the fast loop, without the race detector (which makes the suite
# several times slower); race runs the same tests with it, in make test.
unit:
	$(GO) test ./...

# -vet=off: make vet (a stage of make test) runs all of vet on the same
# packages; go test's own subset would only repeat it, per test binary.
race:
	CGO_ENABLED=1 $(GO) test -race -vet=off ./...

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags e2e ./test/e2e/...
	$(GO) vet -tags hostile ./test/hostile/...
	$(GO) vet -tags browser ./test/browser/...
	cd hack/tools/krew && GOWORK=off $(GO) vet ./...
	hack/verify-code-patterns.sh
	hack/verify-go-mod.sh

golden:
	$(GO) test ./pkg/cmd/... ./pkg/cache/... -update

# readme runs README.md's console blocks against the built plugin binary, as
# kubectl runs it (make unit runs them in-process); go test ./test/readme/
# -update rewrites their output, to review by eye.
readme: build
	SCHEDCACHE_README_PLUGIN=$(abspath $(BIN)) $(GO) test -count=1 ./test/readme/

bench:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./pkg/...

example: build
	./$(BIN) dump -f examples/cluster.yaml

# The kubectl the install check and the live benchmarks run: by default the
# one of the e2e control plane's Kubernetes release, built from source once
# (make kubectl; a kubectl on PATH may be another release or a wrapper).
# KUBECTL=/path/to/kubectl uses another.
ifeq ($(origin KUBECTL),undefined)
KUBECTL := $(shell hack/e2e-binaries.sh -print-dir)/kubectl
endif

-include hack/make/*.mk
