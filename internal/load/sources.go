package load

// This file turns FileOptions.Filenames into the sources to read, the way
// kubectl's -f does (cli-runtime expands directories, with -R their
// subdirectories, keeping the .json, .yaml and .yml files; patterns are
// globs; http(s) URLs are fetched), and opens them.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/cli-runtime/pkg/resource"
)

// source is one input to read: a file, standard input or a URL.
type source struct {
	name string // as messages name it: the path, "stdin" or the URL
	// expanded: found by expanding a directory or a glob, rather than
	// named. Such a file that holds no Kubernetes objects is skipped with a
	// warning; a named one is an error.
	expanded bool
	open     func(ctx context.Context) (io.ReadCloser, error)

	started bool // a piece of it was added
	skipped bool // it was found to hold no Kubernetes objects
}

// URL fetching, as cli-runtime's -f does it: three attempts a second apart,
// retrying server errors; and a timeout (DefaultHeaderTimeout) for a server
// that never answers, which is not retried, so that such a server costs
// one timeout and not three.
const (
	urlAttempts       = 3
	urlRetryDelay     = time.Second
	maxHintCandidates = 100 // files looked at for the -R hint
)

// expand returns the sources of one -f name, and a note when name is a
// directory read without recursive whose subdirectories hold manifests.
func expand(name string, recursive bool, stdin io.Reader) (sources []*source, note string, err error) {
	switch {
	case name == "-":
		if stdin == nil {
			return nil, "", errors.New(`cannot read "-": no standard input`)
		}
		return []*source{{name: StdinSource, open: func(context.Context) (io.ReadCloser, error) { return io.NopCloser(stdin), nil }}}, "", nil
	case strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://"):
		return []*source{{name: name, open: func(ctx context.Context) (io.ReadCloser, error) { return fetch(ctx, name) }}}, "", nil
	}
	paths, globbed := []string{name}, false
	if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
		matches, err := filepath.Glob(name)
		if err != nil {
			return nil, "", fmt.Errorf("pattern %q is not valid: %v", name, err)
		}
		if len(matches) == 0 {
			return nil, "", fmt.Errorf("the path %q does not exist", name)
		}
		paths, globbed = matches, true
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, "", pathError(p, err)
		}
		if !fi.IsDir() {
			sources = append(sources, fileSource(p, globbed))
			continue
		}
		// cli-runtime's own expansion: the directory's files with a
		// manifest extension (and its subdirectories' with recursive).
		visitors, err := resource.ExpandPathsToFileVisitors(nil, p, recursive, resource.FileExtensions, nil)
		if err != nil {
			return nil, "", fmt.Errorf("error reading %q: %v", p, err)
		}
		for _, v := range visitors {
			if fv, ok := v.(*resource.FileVisitor); ok {
				sources = append(sources, fileSource(fv.Path, true))
			}
		}
		if !recursive && note == "" {
			if sub := manifestBelow(p); sub != "" {
				note = fmt.Sprintf("directory %s has subdirectories with Kubernetes objects (e.g. %s) that are not read without -R", p, sub)
			}
		}
	}
	return sources, note, nil
}

func fileSource(path string, expanded bool) *source {
	return &source{name: path, expanded: expanded, open: func(context.Context) (io.ReadCloser, error) { return openFile(path) }}
}

// manifestBelow returns a file in a subdirectory of dir that has a manifest
// extension and mentions a kind near its start, or "".
func manifestBelow(dir string) string {
	found, looked := "", 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || looked >= maxHintCandidates {
			return filepath.SkipAll
		}
		if d.IsDir() || filepath.Dir(path) == filepath.Clean(dir) || !hasManifestExtension(path) || !d.Type().IsRegular() {
			return nil
		}
		looked++
		if mentionsKind(path) {
			found = path
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func hasManifestExtension(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range resource.FileExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// mentionsKind reports whether the first kilobytes of path have a "kind" key.
func mentionsKind(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	return bytes.Contains(head, []byte(`"kind"`)) || bytes.Contains(head, []byte("\nkind:")) || bytes.HasPrefix(head, []byte("kind:"))
}

// fetch gets url's body, with cli-runtime's retries, until ctx is done.
func fetch(ctx context.Context, url string) (io.ReadCloser, error) {
	return fetchWithin(ctx, url, DefaultHeaderTimeout)
}

// fetchWithin is fetch with the given response-header timeout.
func fetchWithin(ctx context.Context, url string, urlHeaderTimeout time.Duration) (io.ReadCloser, error) {
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, ResponseHeaderTimeout: urlHeaderTimeout}}
	var err error
	for attempt := range urlAttempts {
		if attempt > 0 {
			select {
			case <-time.After(urlRetryDelay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return nil, rerr
		}
		var resp *http.Response
		resp, err = client.Do(req)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return nil, fmt.Errorf("unable to read URL %q: the server accepted the connection but sent no answer within %s", url, urlHeaderTimeout)
			}
			continue
		}
		if resp.StatusCode == http.StatusOK {
			return resp.Body, nil
		}
		resp.Body.Close()
		err = fmt.Errorf("unable to read URL %q, server reported %s, status code=%d", url, resp.Status, resp.StatusCode)
		if resp.StatusCode < 500 {
			break
		}
	}
	return nil, err
}
