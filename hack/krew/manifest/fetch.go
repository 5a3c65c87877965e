package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Fetcher returns the bytes of the archive a manifest uri names.
//
//   - file:// URIs are read from disk.
//   - Other URIs are served from ArchiveDir/<last path element of the URI> when
//     ArchiveDir is set. This is krew's `install --manifest=... --archive=...`
//     override: release URLs are checked against the local dist/ archives
//     before they are uploaded.
//   - Otherwise http(s) URIs are downloaded with HTTPClient, if set.
type Fetcher struct {
	ArchiveDir string
	HTTPClient *http.Client
}

// Fetch returns the archive bytes and where they were read from.
func (f Fetcher) Fetch(uri string) ([]byte, string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return nil, "", fmt.Errorf("invalid uri %q: %w", uri, err)
	}
	if u.Scheme == "file" {
		p := filepath.FromSlash(u.Path)
		b, err := os.ReadFile(p)
		return b, p, err
	}
	if f.ArchiveDir != "" {
		name := path.Base(u.Path)
		if name == "/" || name == "." || name == "" {
			return nil, "", fmt.Errorf("uri %q has no file name to look up in %s", uri, f.ArchiveDir)
		}
		p := filepath.Join(f.ArchiveDir, name)
		b, err := os.ReadFile(p)
		return b, p, err
	}
	if f.HTTPClient == nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, "", fmt.Errorf("cannot fetch %q: no archive directory given and downloads are off", uri)
	}
	resp, err := f.HTTPClient.Get(uri)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("downloading %s: HTTP status %d", uri, resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	return b, uri, err
}

// DefaultHTTPClient is the client the commands use when downloads are allowed.
var DefaultHTTPClient = &http.Client{Timeout: 5 * time.Minute}

// Sha256Hex returns the lowercase hex sha256 digest of b, as krew compares it.
func Sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// FileURI returns the file:// URI of a local path.
func FileURI(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// hasArchiveExt reports whether the uri names a format krew can install.
func hasArchiveExt(uri string) bool {
	if u, err := url.Parse(uri); err == nil {
		uri = u.Path
	}
	return strings.HasSuffix(uri, ".tar.gz") || strings.HasSuffix(uri, ".zip")
}
