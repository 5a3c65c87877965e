# The report's page in a real browser (included by the top Makefile).
#
#   make browser        install Chromium when missing (hack/install-chromium.sh:
#                       Debian's chromium package), build the plugin, then run
#                       test/browser (build tag `browser`): the report of the
#                       example cluster and of a generated 5,000-node cluster in
#                       headless Chromium driven by chromedp. Screenshots go to
#                       BROWSER_SHOTS (the paths are logged)
#   make readme-shot    the same test for the example only, writing the README's
#                       picture docs/images/report.png
#   make browser-vet    vet the browser tests (their build tag keeps them out of
#                       `go vet ./...`)

BROWSER_FLAGS ?= -v
BROWSER_SHOTS ?= $(or $(TMPDIR),/tmp)/schedcache-browser-shots

.PHONY: browser browser-vet readme-shot
browser: build
	hack/install-chromium.sh
	SCHEDCACHE_BROWSER_PLUGIN=$(abspath $(BIN)) SCHEDCACHE_BROWSER_SHOTS=$(BROWSER_SHOTS) \
		$(GO) test -tags browser -count=1 -timeout 15m $(BROWSER_FLAGS) ./test/browser/...

readme-shot: build
	hack/install-chromium.sh
	SCHEDCACHE_BROWSER_PLUGIN=$(abspath $(BIN)) SCHEDCACHE_BROWSER_SHOTS=$(BROWSER_SHOTS) SCHEDCACHE_README_SHOT=$(abspath docs/images/report.png) \
		$(GO) test -tags browser -count=1 -run '^TestReportExample$$' ./test/browser/...

browser-vet:
	$(GO) vet -tags browser ./test/browser/...
