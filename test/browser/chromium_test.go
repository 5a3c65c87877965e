//go:build browser

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumEnv names the browser binary; else the first of chromiumNames on
// PATH.
const chromiumEnv = "SCHEDCACHE_CHROMIUM"

var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

func chromiumPath(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv(chromiumEnv); p != "" {
		return p
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	tb.Fatalf("no Chromium found (%s, or %s on PATH): run hack/install-chromium.sh", chromiumEnv, strings.Join(chromiumNames, ", "))
	return ""
}

// browser is one headless Chromium with a fresh profile, and what the page
// it shows did that a self-contained page must not: console errors,
// uncaught exceptions, error log entries (a refused load, a CSP
// violation), and requests for anything but the page itself.
type browser struct {
	ctx          context.Context
	cancel, stop context.CancelFunc

	mu       sync.Mutex
	page     string
	errors   []string
	requests []string
}

// newBrowser starts Chromium with the flags that work in a container
// without a display, GPU or network, and nothing phoning home.
func newBrowser(tb testing.TB) *browser {
	tb.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(tb)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	b := &browser{}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	// The listener is in place before the first command: chromedp enables
	// the Runtime, Log and Network domains of the tab, whose events it
	// hands to observe.
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(b.observe))
	b.cancel = func() { cancel(); acancel() }
	tb.Cleanup(b.cancel)
	// The first Run starts the browser, with no timeout on its context
	// (that would stop the browser); later actions are bounded.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int]("1")); err != nil {
		tb.Fatalf("starting Chromium: %v", err)
	}
	b.ctx, b.stop = context.WithTimeout(ctx, 5*time.Minute)
	tb.Cleanup(b.stop)
	return b
}

func (b *browser) observe(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		if u := e.Request.URL; u != b.page && !strings.HasPrefix(u, "data:") {
			b.requests = append(b.requests, u)
		}
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			b.errors = append(b.errors, fmt.Sprintf("console.%s: %s", e.Type, consoleText(e.Args)))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		b.errors = append(b.errors, fmt.Sprintf("exception: %s (line %d, column %d)", d.Text, d.LineNumber+1, d.ColumnNumber+1))
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			b.errors = append(b.errors, fmt.Sprintf("log (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	}
}

func consoleText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

// open loads the HTML file at path and waits until it is laid out and
// painted; it returns that time as the page measured it (from the start
// of the navigation to the second animation frame after load).
func (b *browser) open(tb testing.TB, path string) time.Duration {
	tb.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tb.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: abs}).String()
	b.mu.Lock()
	b.page = u
	b.mu.Unlock()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(u)); err != nil {
		tb.Fatalf("opening %s: %v", path, err)
	}
	painted, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](
		`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("opening %s: %v", path, err)
	}
	return time.Duration(painted * float64(time.Millisecond))
}

// showAll scrolls every part of the page into view, one after the other
// (the tables are laid out only when near the viewport: CSS
// content-visibility), and returns when the last was painted, as the page
// measures it from the start of the navigation.
func (b *browser) showAll(tb testing.TB) time.Duration {
	tb.Helper()
	done, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`(async () => {
		const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
		for (const s of document.querySelectorAll("section")) { s.scrollIntoView(); await frame(); }
		for (const t of document.querySelectorAll(".scroll")) { t.scrollIntoView(); t.scrollTop = t.scrollHeight; await frame(); }
		for (const t of document.querySelectorAll(".wide")) { t.scrollIntoView({block: "end"}); await frame(); }
		window.scrollTo(0, 0);
		return performance.now();
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("showing the whole page: %v", err)
	}
	return time.Duration(done * float64(time.Millisecond))
}

// clean fails tb for every console error and outside request so far.
func (b *browser) clean(tb testing.TB) {
	tb.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		tb.Errorf("the page logged an error: %s", e)
	}
	for _, r := range b.requests {
		tb.Errorf("a request left the page: %s", r)
	}
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(tb testing.TB, js string, out any) {
	tb.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]byte](js))
	if err != nil {
		tb.Fatalf("evaluating %s: %v", js, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		tb.Fatalf("evaluating %s: %v", js, err)
	}
}

// click clicks the first element matching the CSS selector.
func (b *browser) click(tb testing.TB, sel string) {
	tb.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		tb.Fatalf("clicking %s: %v", sel, err)
	}
}

// screenshot saves the whole page (full) or the viewport as PNG to path.
func (b *browser) screenshot(tb testing.TB, path string, full bool) {
	tb.Helper()
	action := chromedp.CaptureScreenshot()
	if full {
		action = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(b.ctx, action)
	if err != nil {
		tb.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("screenshot: %s (%d kB)", path, len(png)/1000)
}

// shotsDir is where screenshots go: SCHEDCACHE_BROWSER_SHOTS, else a
// directory that outlives the test (so the paths logged can be opened).
func shotsDir(tb testing.TB) string {
	dir := os.Getenv("SCHEDCACHE_BROWSER_SHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "schedcache-browser-shots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		tb.Fatal(err)
	}
	return dir
}

// resize sets the viewport's size in CSS pixels.
func (b *browser) resize(tb testing.TB, width, height int64) {
	tb.Helper()
	if err := chromedp.Do(b.ctx, chromedp.EmulateViewport(width, height)); err != nil {
		tb.Fatalf("resizing the viewport: %v", err)
	}
}
