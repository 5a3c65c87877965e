# Release packaging (included by the top Makefile). docs/RELEASING.md has the
# whole procedure.
#
#   make dist            GoReleaser snapshot of all six os/arch targets:
#                        archives and checksums.txt in dist/, then the krew
#                        manifest dist/krew/schedcache.yaml rendered from
#                        krew/schedcache.yaml by hack/krew-manifest (never
#                        publishes)
#   make dist-host       the same for this machine's os/arch only (what
#                        `make test` builds: one target instead of six)
#   make release VERSION=vX.Y.Z
#                        a versioned release into dist/ (archives, checksums,
#                        krew manifest); publishes the GitHub release only
#                        when GITHUB_TOKEN is set (CI, on the vX.Y.Z tag)
#   make verify-krew     validate-krew-manifest (krew-index's CI check) on
#                        dist/krew/schedcache.yaml as it is, downloading the
#                        archives from its uri fields (after publishing)
#   make package-host    this machine's archive, checksums.txt and krew
#                        manifest in _output/package, without GoReleaser
#                        (hack/package-host.sh: go build, tar, and
#                        hack/krew-manifest from krew/schedcache.yaml)
#   make install-check   the krew-index check and a real `kubectl krew
#                        install` of package-host's archive through a local
#                        index, all offline (hack/install-check.sh), then the
#                        plugin and its completion through kubectl's plugin
#                        discovery
#   make install-check-dist
#                        the same check on GoReleaser's dist/ (all platforms
#                        after make dist or release; the release workflow
#                        runs it)
#   make verify          the checks `make test` runs (install-check)
#
# make test does not build GoReleaser: from source it was the costliest
# build of a cold run (~2,000 packages) for a host-only archive that a go
# build and tar make as well. install-check-dist and verify-krew reuse an
# existing dist/ (full or host-only) and run `make dist-host` only when
# dist/metadata.json is missing; run `make dist` or `make dist-host` again
# after changing the code.
#
# Tools, all built from source once per pin into hack/tools/bin (gitignored),
# under names that carry the version (and a hash of go.sum), so a later run,
# or a CI cache restored after a fresh checkout, reuses them:
#   - GoReleaser, pinned in hack/tools/goreleaser/go.mod (a `tool` directive);
#   - krew and validate-krew-manifest, pinned in hack/tools/krew/go.mod, with
#     that module's fileserver;
#   - kubectl (KUBECTL, see hack/make/e2e.mk) from the k8s.io/kubernetes
#     release of hack/tools/go.mod, built next to the e2e control plane.

DIST_DIR := dist
GORELEASER_MOD := hack/tools/goreleaser
GORELEASER_VERSION := $(shell awk '$$1 == "github.com/goreleaser/goreleaser/v2" { print $$2; exit }' $(GORELEASER_MOD)/go.mod)
GORELEASER_SUM := $(shell git hash-object $(GORELEASER_MOD)/go.sum 2>/dev/null | cut -c1-12)
GORELEASER := hack/tools/bin/goreleaser-$(GORELEASER_VERSION)-$(GORELEASER_SUM)
# Extra flags, e.g. GORELEASER_FLAGS=--parallelism=1 on a busy machine.
GORELEASER_FLAGS ?=

KREW_MOD := hack/tools/krew
KREW_VERSION := $(shell awk '$$1 == "sigs.k8s.io/krew" { print $$2; exit }' $(KREW_MOD)/go.mod)
KREW_SUM := $(shell cat $(KREW_MOD)/go.sum $(KREW_MOD)/fileserver/main.go 2>/dev/null | git hash-object --stdin | cut -c1-12)
# A directory: kubectl-krew (the name kubectl's plugin discovery needs),
# validate-krew-manifest and fileserver.
KREW_TOOLS := hack/tools/bin/krew-$(KREW_VERSION)-$(KREW_SUM)

KREW_MANIFEST := $(DIST_DIR)/krew/schedcache.yaml
KREW_TEMPLATE := krew/schedcache.yaml

# render_krew writes KREW_MANIFEST from KREW_TEMPLATE for the archives
# GoReleaser left in dist/ ($(1): -all when all six platforms must be there).
define render_krew
	@mkdir -p $(dir $(KREW_MANIFEST))
	$(GO) run ./hack/krew-manifest -template $(KREW_TEMPLATE) $(1) -o $(KREW_MANIFEST) $$(ls $(DIST_DIR)/*.tar.gz $(DIST_DIR)/*.zip 2>/dev/null)
endef

.PHONY: goreleaser krew-tools dist dist-host release verify-krew package-host install-check install-check-dist verify

goreleaser: $(GORELEASER)

$(GORELEASER):
	@test -n "$(GORELEASER_VERSION)" -a -n "$(GORELEASER_SUM)" || { echo "cannot read the goreleaser pin in $(GORELEASER_MOD)"; exit 1; }
	@mkdir -p $(@D)
	rm -f $(filter-out $@,$(wildcard hack/tools/bin/goreleaser-*))
	cd $(GORELEASER_MOD) && GOWORK=off CGO_ENABLED=0 $(GO) build -mod=readonly -trimpath \
		-ldflags "-s -w -X main.version=$(GORELEASER_VERSION) -X main.builtBy=kubectl-schedcache/hack/make/dist.mk" \
		-o $(CURDIR)/$@.tmp github.com/goreleaser/goreleaser/v2
	mv $@.tmp $@

krew-tools: $(KREW_TOOLS)

# No -trimpath for the krew tools (test tools, never shipped): `make vet`
# vets hack/tools/krew with the same settings, so both share one compile.

$(KREW_TOOLS):
	@test -n "$(KREW_VERSION)" -a -n "$(KREW_SUM)" || { echo "cannot read the krew pin in $(KREW_MOD)"; exit 1; }
	rm -rf $(filter-out $@,$(wildcard hack/tools/bin/krew-*)) $@.tmp
	@mkdir -p $@.tmp
	cd $(KREW_MOD) && GOWORK=off CGO_ENABLED=0 $(GO) build -mod=readonly \
		-ldflags "-s -w -X sigs.k8s.io/krew/internal/version.gitTag=$(KREW_VERSION)" \
		-o $(CURDIR)/$@.tmp/kubectl-krew sigs.k8s.io/krew/cmd/krew
	cd $(KREW_MOD) && GOWORK=off CGO_ENABLED=0 $(GO) build -mod=readonly -ldflags "-s -w" \
		-o $(CURDIR)/$@.tmp/ sigs.k8s.io/krew/cmd/validate-krew-manifest ./fileserver
	mv $@.tmp $@

# GoReleaser reads the remote URL from git; without one (a local clone that was
# never pushed) a snapshot silently falls back to commit "none" and a zero
# date. Give this process the project's URL through git's environment config
# instead of touching .git/config.
DIST_GIT_ENV = $(if $(shell git ls-remote --get-url 2>/dev/null),,GIT_CONFIG_COUNT=1 \
	GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/schedcache/kubectl-schedcache.git)

dist: $(GORELEASER)
	$(DIST_GIT_ENV) $(GORELEASER) release --snapshot --clean $(GORELEASER_FLAGS)
	$(call render_krew,-all)
	@ls -l $(DIST_DIR)/*.tar.gz $(DIST_DIR)/*.zip $(DIST_DIR)/checksums.txt $(KREW_MANIFEST)

# GoReleaser's --single-target exists for `build` only, not for `release`
# (which makes the archives), so dist-host runs release
# on a copy of the configuration whose goos/goarch lists name only this
# machine's platform. Everything else (archive names, ldflags, the manifest)
# is the release configuration's.
HOST_GOOS = $(shell $(GO) env GOOS)
HOST_GOARCH = $(shell $(GO) env GOARCH)
dist-host: $(GORELEASER)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	sed -e 's/^    goos: \[.*\]$$/    goos: [$(HOST_GOOS)]/' -e 's/^    goarch: \[.*\]$$/    goarch: [$(HOST_GOARCH)]/' \
		.goreleaser.yaml >"$$tmp/.goreleaser.yaml"; \
	test "$$(grep -cE '^    go(os|arch): \[[a-z0-9]+\]$$' "$$tmp/.goreleaser.yaml")" = 2 || \
		{ echo "dist-host: cannot narrow goos/goarch in .goreleaser.yaml"; exit 1; }; \
	echo "$(GORELEASER) release --snapshot --clean -f <.goreleaser.yaml for $(HOST_GOOS)/$(HOST_GOARCH) only> $(GORELEASER_FLAGS)"; \
	$(DIST_GIT_ENV) $(GORELEASER) release --snapshot --clean -f "$$tmp/.goreleaser.yaml" $(GORELEASER_FLAGS)
	$(call render_krew,)
	@ls -l $(DIST_DIR)/*.tar.gz $(DIST_DIR)/checksums.txt $(KREW_MANIFEST)

# release: VERSION must be a release version (vX.Y.Z or vX.Y.Z-pre), given on
# the command line or, on a clean checkout of a tag, by hack/version.sh.
# GoReleaser takes it as the tag (GORELEASER_CURRENT_TAG). Without
# GITHUB_TOKEN nothing is published (--skip=publish,announce,validate: the
# tag need not exist yet, so a release can be rehearsed on any commit); with
# it, GoReleaser's own checks apply (clean tree, the tag at HEAD) and the
# archives and checksums.txt go to the GitHub release.
release: $(GORELEASER)
	@echo "$(VERSION)" | grep -qE '^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$$' || \
		{ echo "release: VERSION=$(VERSION) is not a release version; use make release VERSION=vX.Y.Z"; exit 2; }
	$(if $(GITHUB_TOKEN),,$(DIST_GIT_ENV)) GORELEASER_CURRENT_TAG=$(VERSION) \
		$(GORELEASER) release --clean $(if $(GITHUB_TOKEN),,--skip=publish,announce,validate) $(GORELEASER_FLAGS)
	$(call render_krew,-all)
	@ls -l $(DIST_DIR)/*.tar.gz $(DIST_DIR)/*.zip $(DIST_DIR)/checksums.txt $(KREW_MANIFEST)

$(DIST_DIR)/metadata.json:
	$(MAKE) dist-host

verify-krew: $(DIST_DIR)/metadata.json $(KREW_TOOLS) $(KUBECTL)
	PATH="$(CURDIR)/$(KREW_TOOLS):$(dir $(abspath $(KUBECTL))):$$PATH" \
		$(KREW_TOOLS)/validate-krew-manifest -manifest $(KREW_MANIFEST)

PACKAGE_DIR := _output/package

package-host:
	GO="$(GO)" hack/package-host.sh $(PACKAGE_DIR)

install-check: package-host $(KREW_TOOLS) $(KUBECTL)
	KUBECTL=$(abspath $(KUBECTL)) KREW_TOOLS=$(abspath $(KREW_TOOLS)) \
		bash hack/install-check.sh $(PACKAGE_DIR)/krew/schedcache.yaml $(PACKAGE_DIR)

install-check-dist: $(DIST_DIR)/metadata.json $(KREW_TOOLS) $(KUBECTL)
	KUBECTL=$(abspath $(KUBECTL)) KREW_TOOLS=$(abspath $(KREW_TOOLS)) \
		bash hack/install-check.sh $(KREW_MANIFEST) $(DIST_DIR)

# Prerequisite only, so other hack/make/*.mk files can add to `verify` too.
verify: install-check
