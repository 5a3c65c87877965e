# Release packaging (included by the top Makefile).
#
#   make dist            GoReleaser snapshot: archives + checksums.txt in dist/
#   make release         GoReleaser `release --clean` (CI, on a v* tag; needs GITHUB_TOKEN)
#   make krew-manifest   render krew/schedcache.yaml for the dist/ archives
#                        into dist/krew/schedcache.yaml
#   make verify-krew     test the manifest checker, then check the rendered
#                        manifest and every archive against the krew-index rules
#   make install-check   install the host's archive like krew does and run the
#                        plugin and its completion through the real kubectl
#   make verify          all of the above checks (verify-krew, install-check)
#
# krew-manifest, verify-krew and install-check reuse an existing dist/ (they
# run `make dist` only when dist/metadata.json is missing); run `make dist`
# again after changing the code.
#
# GoReleaser is built from source at the version pinned in
# hack/tools/goreleaser/go.mod (a `tool` directive) into hack/tools/bin, which
# is gitignored. The file name carries the version and a hash of go.sum, not
# file times, so the binary is built once per pin (also when restored from a
# CI cache after a fresh checkout) and every later `make dist` reuses it.

DIST_DIR := dist
GORELEASER_MOD := hack/tools/goreleaser
GORELEASER_VERSION := $(shell awk '$$1 == "github.com/goreleaser/goreleaser/v2" { print $$2; exit }' $(GORELEASER_MOD)/go.mod)
GORELEASER_SUM := $(shell git hash-object $(GORELEASER_MOD)/go.sum 2>/dev/null | cut -c1-12)
GORELEASER := hack/tools/bin/goreleaser-$(GORELEASER_VERSION)-$(GORELEASER_SUM)
# Extra flags, e.g. GORELEASER_FLAGS=--parallelism=1 on a busy machine.
GORELEASER_FLAGS ?=

KREW_TEMPLATE := krew/schedcache.yaml
KREW_MANIFEST := $(DIST_DIR)/krew/schedcache.yaml
# uri fields of the rendered manifest: "release" writes the GitHub release
# URLs (what krew-release-bot submits; sha256 from the local archives), "file"
# writes file:// URIs of the local archives.
KREW_URI ?= release
# The krew tools are a separate module (hack/krew/go.mod).
KREW_GO := cd hack/krew && GOWORK=off $(GO)

.PHONY: goreleaser dist release krew-manifest verify-krew install-check verify

goreleaser: $(GORELEASER)

$(GORELEASER):
	@test -n "$(GORELEASER_VERSION)" -a -n "$(GORELEASER_SUM)" || { echo "cannot read the goreleaser pin in $(GORELEASER_MOD)"; exit 1; }
	@mkdir -p $(@D)
	rm -f $(filter-out $@,$(wildcard hack/tools/bin/goreleaser-*))
	cd $(GORELEASER_MOD) && GOWORK=off CGO_ENABLED=0 $(GO) build -mod=readonly -trimpath \
		-ldflags "-s -w -X main.version=$(GORELEASER_VERSION) -X main.builtBy=kubectl-schedcache/hack/make/dist.mk" \
		-o $(CURDIR)/$@.tmp github.com/goreleaser/goreleaser/v2
	mv $@.tmp $@

# GoReleaser reads the remote URL from git; without one (a local clone that was
# never pushed) a snapshot silently falls back to commit "none" and a zero
# date. Give this process the project's URL through git's environment config
# instead of touching .git/config.
DIST_GIT_ENV = $(if $(shell git ls-remote --get-url 2>/dev/null),,GIT_CONFIG_COUNT=1 \
	GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/schedcache/kubectl-schedcache.git)

dist: $(GORELEASER)
	$(DIST_GIT_ENV) $(GORELEASER) release --snapshot --clean $(GORELEASER_FLAGS)
	@ls -l $(DIST_DIR)/*.tar.gz $(DIST_DIR)/*.zip $(DIST_DIR)/checksums.txt

release: $(GORELEASER)
	$(GORELEASER) release --clean $(GORELEASER_FLAGS)

$(DIST_DIR)/metadata.json:
	$(MAKE) dist

krew-manifest: $(DIST_DIR)/metadata.json
	$(KREW_GO) run ./render -template $(CURDIR)/$(KREW_TEMPLATE) \
		-metadata $(CURDIR)/$(DIST_DIR)/metadata.json -archive-dir $(CURDIR)/$(DIST_DIR) \
		-uri $(KREW_URI) -o $(CURDIR)/$(KREW_MANIFEST)

verify-krew: krew-manifest
	@out=$$(cd hack/krew && gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed in hack/krew:"; echo "$$out"; exit 1; fi
	$(KREW_GO) vet ./...
	$(KREW_GO) test -count=1 ./...
	$(KREW_GO) run ./verify -manifest $(CURDIR)/$(KREW_MANIFEST) -archive-dir $(CURDIR)/$(DIST_DIR) \
		-artifacts $(CURDIR)/$(DIST_DIR)/artifacts.json -checksums $(CURDIR)/$(DIST_DIR)/checksums.txt

install-check: krew-manifest
	bash hack/install-check.sh $(KREW_MANIFEST) $(DIST_DIR)

# Prerequisite only, so other hack/make/*.mk files can add to `verify` too.
verify: verify-krew install-check
