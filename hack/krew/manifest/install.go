package manifest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Extract unpacks a .tar.gz or .zip archive into dir. Like krew
// (internal/download/downloader.go) it picks the format from the content,
// refuses entries with ".." or absolute paths, and accepts only regular files
// and directories.
func Extract(data []byte, dir string) error {
	head := data
	if len(head) > 512 {
		head = head[:512]
	}
	switch t, _, _ := strings.Cut(http.DetectContentType(head), ";"); t {
	case "application/x-gzip":
		return extractTarGz(data, dir)
	case "application/zip":
		return extractZip(data, dir)
	default:
		return fmt.Errorf("archive content type %q is not a supported archive format (tar.gz or zip)", t)
	}
}

func suspiciousPath(name string) error {
	if strings.Contains(name, "..") {
		return fmt.Errorf("refusing to unpack archive with suspicious entry %q", name)
	}
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) {
		return fmt.Errorf("refusing to unpack archive with absolute entry %q", name)
	}
	return nil
}

func extractTarGz(data []byte, dir string) error {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tar: %w", err)
		}
		if hdr.Name == "pax_global_header" {
			continue
		}
		if err := suspiciousPath(hdr.Name); err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(hdr.Name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, os.FileMode(hdr.Mode).Perm()|0o700); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := writeFile(p, tr, os.FileMode(hdr.Mode).Perm()); err != nil {
				return err
			}
		default:
			return fmt.Errorf("tar: unable to handle file type %q of %q", hdr.Typeflag, hdr.Name)
		}
	}
}

func extractZip(data []byte, dir string) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	for _, f := range zr.File {
		if err := suspiciousPath(f.Name); err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(p, f.Mode().Perm()|0o700); err != nil {
				return err
			}
			continue
		}
		if !f.Mode().IsRegular() {
			return fmt.Errorf("zip: unable to handle non-regular file %q (mode %s)", f.Name, f.Mode())
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("zip: %w", err)
		}
		err = writeFile(p, rc, f.Mode().Perm())
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func writeFile(p string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return f.Close()
}

// ArchiveError is returned by InstallFiles when the archive cannot be unpacked.
type ArchiveError struct{ Err error }

func (e *ArchiveError) Error() string { return "failed to unpack the plugin archive: " + e.Err.Error() }
func (e *ArchiveError) Unwrap() error { return e.Err }

// DefaultFiles is what krew uses when a platform has no `files` (applyDefaults).
var DefaultFiles = []FileOperation{{From: "*", To: "."}}

// InstallFiles installs one platform's archive into installDir the way krew's
// install() does: extract into a staging directory, apply the `files`
// operations (default "*" -> "."), move the result to installDir, and check
// that `bin` exists inside it. It returns the absolute path of bin.
// workDir holds the temporary directories; keep it on the same file system
// as installDir.
func InstallFiles(data []byte, p Platform, workDir, installDir string) (string, error) {
	staging, err := os.MkdirTemp(workDir, "krew-downloads")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(staging)
	if err := Extract(data, staging); err != nil {
		return "", &ArchiveError{err}
	}
	moved, err := os.MkdirTemp(workDir, "krew-temp-move")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(moved)
	if err := os.Chmod(moved, 0o755); err != nil {
		return "", err
	}
	files := p.Files
	if files == nil {
		files = DefaultFiles
	}
	for _, fo := range files {
		if err := moveFiles(staging, moved, fo); err != nil {
			return "", fmt.Errorf("files {from: %q, to: %q}: %w", fo.From, fo.To, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(installDir), 0o755); err != nil {
		return "", err
	}
	if err := os.RemoveAll(installDir); err != nil {
		return "", err
	}
	if err := os.Rename(moved, installDir); err != nil {
		return "", err
	}
	absDir, err := filepath.Abs(installDir)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(absDir, filepath.FromSlash(p.Bin))
	if !isSubPath(absDir, bin) {
		return "", fmt.Errorf("bin %q is outside the install directory", p.Bin)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("bin %q cannot be found in the extracted archive: %w", p.Bin, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("bin %q is not a regular file (mode %s)", p.Bin, fi.Mode())
	}
	return bin, nil
}

// moveFiles implements krew's findMoveTargets/moveFiles for one operation: a
// `from` naming an existing path moves that path (to "." keeps its name);
// otherwise `from` is a glob whose matches move into the `to` directory.
func moveFiles(fromDir, toDir string, fo FileOperation) error {
	if fo.To != filepath.Clean(fo.To) {
		return fmt.Errorf("the provided path is not clean, %q should be %q", fo.To, filepath.Clean(fo.To))
	}
	type move struct{ from, to string }
	var moves []move
	direct := filepath.Clean(filepath.Join(fromDir, filepath.FromSlash(fo.From)))
	if _, err := os.Stat(direct); err == nil {
		to := fo.To
		if filepath.Clean(to) == "." {
			to = filepath.Base(direct)
		}
		moves = append(moves, move{direct, filepath.Join(toDir, filepath.FromSlash(to))})
	} else {
		matches, err := filepath.Glob(filepath.Join(fromDir, filepath.FromSlash(fo.From)))
		if err != nil {
			return fmt.Errorf("could not get files using a glob string: %w", err)
		}
		if len(matches) == 0 {
			return fmt.Errorf("no files in the plugin archive matched the glob pattern=%s", fo.From)
		}
		dst := filepath.Join(toDir, filepath.FromSlash(fo.To))
		for _, m := range matches {
			moves = append(moves, move{m, filepath.Join(dst, filepath.Base(m))})
		}
	}
	for _, m := range moves {
		if !isSubPath(fromDir, m.from) || !isSubPath(toDir, m.to) {
			return fmt.Errorf("can't move, move target %s -> %s is out of bounds", m.from, m.to)
		}
		if err := os.MkdirAll(filepath.Dir(m.to), 0o755); err != nil {
			return err
		}
		if fi, err := os.Stat(m.to); err == nil && fi.IsDir() {
			if err := os.RemoveAll(m.to); err != nil {
				return err
			}
		}
		if err := os.Rename(m.from, m.to); err != nil {
			return err
		}
	}
	return nil
}

// isSubPath reports whether p is base or inside it.
func isSubPath(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// BinLinkName is the name krew gives the plugin's link in $KREW_ROOT/bin
// (pluginNameToBin): kubectl-<name with "-" as "_">, plus .exe on Windows.
func BinLinkName(pluginName, goos string) string {
	n := "kubectl-" + strings.ReplaceAll(pluginName, "-", "_")
	if goos == "windows" {
		n += ".exe"
	}
	return n
}

// Installed describes a krew-style installation made by Install.
type Installed struct {
	InstallDir string // $KREW_ROOT/store/<name>/<version>
	BinDir     string // $KREW_ROOT/bin
	Link       string // $KREW_ROOT/bin/kubectl-<name>, a relative symlink to bin
	Bin        string // the platform's bin inside InstallDir
}

// Install installs the plugin under root with krew's layout
// (internal/environment): the archive goes to store/<name>/<version>/ and a
// relative symlink bin/kubectl-<name> points at its `bin`.
func Install(root string, plugin *Plugin, p Platform, data []byte, goos string) (*Installed, error) {
	if got := Sha256Hex(data); got != p.Sha256 {
		return nil, fmt.Errorf("sha256 of the archive is %s, the manifest says %s", got, p.Sha256)
	}
	in := &Installed{
		InstallDir: filepath.Join(root, "store", plugin.Metadata.Name, plugin.Spec.Version),
		BinDir:     filepath.Join(root, "bin"),
	}
	if err := os.MkdirAll(in.BinDir, 0o755); err != nil {
		return nil, err
	}
	bin, err := InstallFiles(data, p, root, in.InstallDir)
	if err != nil {
		return nil, err
	}
	in.Bin = bin
	in.Link = filepath.Join(in.BinDir, BinLinkName(plugin.Metadata.Name, goos))
	rel, err := filepath.Rel(in.BinDir, bin)
	if err != nil {
		return nil, err
	}
	if err := os.Remove(in.Link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.Symlink(rel, in.Link); err != nil {
		return nil, err
	}
	return in, nil
}
