# Static checks beyond go vet (included by the top Makefile).
#
#   make lint           golangci-lint with .golangci.yml (errcheck,
#                       staticcheck, unused, gocritic, revive's exported rule
#                       for pkg/; gofmt and goimports as formatters), over
#                       every build tag the tests use
#   make golangci-lint  only install the pinned golangci-lint
#
# golangci-lint is installed with `go install` at the pinned version into
# hack/tools/bin (gitignored), under a name that carries the version, so it
# is built once per pin (a few minutes on 2 cores) and every later run reuses
# it. Bump GOLANGCI_LINT_VERSION to upgrade; `make lint` then builds the new
# one and removes the old.

GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT := hack/tools/bin/golangci-lint-$(GOLANGCI_LINT_VERSION)
# Extra flags, e.g. LINT_FLAGS=--fix or LINT_FLAGS='--new-from-rev=main'.
LINT_FLAGS ?=

.PHONY: lint golangci-lint
golangci-lint: $(GOLANGCI_LINT)

$(GOLANGCI_LINT):
	@mkdir -p $(@D)/golangci-lint.tmp
	rm -f $(filter-out $@,$(wildcard hack/tools/bin/golangci-lint-*))
	GOBIN=$(CURDIR)/$(@D)/golangci-lint.tmp GOWORK=off CGO_ENABLED=0 $(GO) install \
		github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	mv $(@D)/golangci-lint.tmp/golangci-lint $@
	rmdir $(@D)/golangci-lint.tmp

lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run $(LINT_FLAGS) ./...
