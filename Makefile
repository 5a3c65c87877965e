# kubectl-schedcache developer targets. Feature areas keep their own targets in
# hack/make/*.mk (e2e, dist, bench), included below.
GO ?= go
BIN ?= bin/kubectl-schedcache
PKG := github.com/schedcache/kubectl-schedcache
VERSION ?= $(shell hack/version.sh)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X $(PKG)/pkg/cmd.version=$(VERSION) -X $(PKG)/pkg/cmd.commit=$(COMMIT) -X $(PKG)/pkg/cmd.date=$(DATE)

.PHONY: build test unit race vet golden bench example
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-schedcache

# test is the README's test command. Its stages run in this order, each
# timed (hack/run-stages.sh; .ci/run prints the timings at the end): static
# checks (vet, lint), the unit tests with the race detector, each fuzz
# target for FUZZTIME (hack/make/fuzz.mk), the hostile-input suite, the
# end-to-end tests against real control-plane binaries (built from Go
# modules on first use and cached by version), then the release packaging
# checks.
TEST_STAGES ?= vet lint race fuzz hostile e2e verify
test:
	@MAKE="$(MAKE)" hack/run-stages.sh $(TEST_STAGES)

# unit is the fast loop, without the race detector (which makes the suite
# several times slower); race runs the same tests with it, in make test.
unit:
	$(GO) test ./...

race:
	$(GO) test -race ./...

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags e2e ./test/e2e/...
	$(GO) vet -tags hostile ./test/hostile/...
	hack/verify-code-patterns.sh
	hack/verify-go-mod.sh

golden:
	$(GO) test ./pkg/cmd/... ./pkg/cache/... -update

bench:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./pkg/...

example: build
	./$(BIN) dump -f examples/cluster.yaml

-include hack/make/*.mk
