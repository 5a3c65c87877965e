# End-to-end tests against real control-plane binaries (included by the top
# Makefile).
#
#   make e2e-binaries   build etcd, kube-apiserver, kube-scheduler and kubectl
#                       from Go modules into hack/tools/bin/<k8s version>/
#                       (first run ~6 min on 2 cores once make vet or the
#                       tests have compiled the ~900 packages they share
#                       with the plugin, ~15 min without; later runs reuse
#                       them)
#   make kubectl        only kubectl (the install check and bench-live use it)
#   make e2e            the above, the plugin, then the e2e tests
#   make e2e-vet        vet the e2e tests (their build tag keeps them out of
#                       `go vet ./...`)
#   make e2e-go-mod     regenerate hack/tools/go.mod from k8s.io/kubernetes
#
# The e2e tests carry the build tag `e2e`, so `go test ./...` (make unit)
# never starts a cluster. SCHEDCACHE_E2E_BIN_DIR overrides where the binaries
# are built and looked up. E2E_FLAGS adds go test flags, e.g. E2E_FLAGS=-v or
# E2E_FLAGS='-run TestCLIOnRealCluster'.
#
# The tests run the real plugin binary with os/exec: make e2e hands them the
# one `make build` just wrote (SCHEDCACHE_E2E_PLUGIN); a plain
# `go test -tags e2e ./test/e2e/...` builds its own copy into a temp dir.

E2E_FLAGS ?=
# Every e2e test starts its own etcd and kube-apiserver (none shares one), so
# they run E2E_PARALLEL at a time (t.Parallel). Two at a time on 2 cores:
# 98.5 s against 133.2 s one at a time (same binaries, back to back, load
# 2-5; docs/PERFORMANCE.md "make test"); E2E_PARALLEL=1 runs them in turn.
E2E_PARALLEL ?= 2

.PHONY: e2e e2e-binaries e2e-vet e2e-go-mod kubectl
e2e-binaries:
	hack/e2e-binaries.sh

# kubectl (KUBECTL, defined in the top Makefile): the apiserver's own release,
# built once next to the control-plane binaries.
kubectl: $(KUBECTL)

$(KUBECTL):
	hack/e2e-binaries.sh kubectl

e2e: e2e-binaries
	$(MAKE) build
	SCHEDCACHE_E2E_PLUGIN=$(abspath $(BIN)) $(GO) test -tags e2e -count=1 -timeout 30m -parallel $(E2E_PARALLEL) $(E2E_FLAGS) ./test/e2e/...

e2e-vet:
	$(GO) vet -tags e2e ./test/e2e/...

e2e-go-mod:
	hack/tools/gen-go-mod.sh
