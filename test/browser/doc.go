// Package browser checks the HTML page of `kubectl schedcache report` in a
// real browser: headless Chromium (Debian's chromium package;
// hack/install-chromium.sh installs it when missing) driven over the
// DevTools protocol with github.com/chromedp/chromedp.
//
// The tests carry the build tag `browser` (make browser runs them, a stage
// of make test). They run the real plugin binary: SCHEDCACHE_BROWSER_PLUGIN
// (make browser passes bin/kubectl-schedcache), or one built with `go build`
// on first use. For the example cluster and a generated 5,000-node cluster
// they assert on the DOM (one grid cell per NodeInfo, one row per pending
// pod, the rejection chart's bars), that the page logs no console error and
// that no request leaves the page, exercise the resource selector and the
// table sorting, and save screenshots (SCHEDCACHE_BROWSER_SHOTS, else a
// temporary directory; the paths are logged). SCHEDCACHE_README_SHOT=FILE
// also writes the README's picture of the example's page.
//
// BenchmarkRender (make bench-report) times how long Chromium takes to load,
// lay out and paint a given report (-report FILE).
package browser
