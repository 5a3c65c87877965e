# kubectl-schedcache developer targets. Feature areas keep their own targets in
# hack/make/*.mk (e2e, dist, bench), included below.
GO ?= go
BIN ?= bin/kubectl-schedcache
PKG := github.com/schedcache/kubectl-schedcache
VERSION ?= $(shell hack/version.sh)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X $(PKG)/pkg/cmd.version=$(VERSION) -X $(PKG)/pkg/cmd.commit=$(COMMIT) -X $(PKG)/pkg/cmd.date=$(DATE)

.PHONY: build test unit vet lint golden bench example
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-schedcache

# test is the README's test command: static checks, unit tests with the race
# detector, fuzzing and the hostile-input suite (hack/make/fuzz.mk), the
# end-to-end tests against real control-plane binaries (built from Go modules
# on first use), then the release packaging checks.
test: vet unit e2e verify

unit:
	$(GO) test -race ./...

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags e2e ./test/e2e/...
	$(GO) vet -tags hostile ./test/hostile/...
	hack/verify-code-patterns.sh
	hack/verify-go-mod.sh

lint: vet

golden:
	$(GO) test ./pkg/cmd/... ./pkg/cache/... -update

bench:
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./pkg/...

example: build
	./$(BIN) dump -f examples/cluster.yaml

-include hack/make/*.mk
