package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestInstallUsesKrewLayout(t *testing.T) {
	pair := OSArch{"linux", "amd64"}
	data := tarGz(t, releaseEntries(t, pair))
	p := validPlugin(map[OSArch]string{pair: Sha256Hex(data)})
	pl, ok := p.MatchingPlatform(pair)
	if !ok {
		t.Fatal("no linux/amd64 platform")
	}
	root := t.TempDir()
	in, err := Install(root, p, pl, data, pair.OS)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "store", "schedcache", testTag); in.InstallDir != want {
		t.Errorf("InstallDir = %s, want %s", in.InstallDir, want)
	}
	if want := filepath.Join(root, "bin", "kubectl-schedcache"); in.Link != want {
		t.Errorf("Link = %s, want %s", in.Link, want)
	}
	target, err := os.Readlink(in.Link)
	if err != nil || filepath.IsAbs(target) {
		t.Errorf("link target %q (%v), want a relative symlink like krew's", target, err)
	}
	if resolved, err := filepath.EvalSymlinks(in.Link); err != nil || resolved != in.Bin {
		t.Errorf("link resolves to %q (%v), want %s", resolved, err, in.Bin)
	}
	var names []string
	entries, _ := os.ReadDir(in.InstallDir)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"LICENSE", "README.md", "kubectl-schedcache", "kubectl_complete-schedcache"}; !slices.Equal(names, want) {
		t.Errorf("installed %v, want %v", names, want)
	}
	if fi, err := os.Stat(filepath.Join(in.InstallDir, "kubectl_complete-schedcache")); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("completion shim not executable: %v %v", fi, err)
	}

	// A reinstall (krew upgrade to the same dir) replaces the files and link.
	if _, err := Install(root, p, pl, data, pair.OS); err != nil {
		t.Fatalf("reinstall: %v", err)
	}

	pl.Sha256 = strings.Repeat("0", 64)
	if _, err := Install(t.TempDir(), p, pl, data, pair.OS); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("install with a wrong sha256: err = %v", err)
	}
}

func TestInstallFilesOperations(t *testing.T) {
	pair := OSArch{"linux", "amd64"}
	entries := []entry{
		{name: "dist/kubectl-schedcache", mode: 0o755, body: fakeBinary(t, pair)},
		{name: "dist/LICENSE", mode: 0o644, body: []byte("license")},
		{name: "docs/a.md", mode: 0o644, body: []byte("a")},
		{name: "docs/b.md", mode: 0o644, body: []byte("b")},
	}
	data := tarGz(t, entries)
	for name, tc := range map[string]struct {
		files []FileOperation
		bin   string
		want  []string // installed files, relative, sorted
		err   string
	}{
		"default moves everything": {bin: "dist/kubectl-schedcache",
			want: []string{"dist/LICENSE", "dist/kubectl-schedcache", "docs/a.md", "docs/b.md"}},
		"direct file with to=.": {files: []FileOperation{{From: "dist/kubectl-schedcache", To: "."}, {From: "dist/LICENSE", To: "."}},
			bin: "kubectl-schedcache", want: []string{"LICENSE", "kubectl-schedcache"}},
		"direct file renamed": {files: []FileOperation{{From: "dist/kubectl-schedcache", To: "bin/kubectl-sc"}},
			bin: "bin/kubectl-sc", want: []string{"bin/kubectl-sc"}},
		"glob into a directory": {files: []FileOperation{{From: "docs/*.md", To: "doc"}, {From: "dist/*", To: "."}},
			bin: "kubectl-schedcache", want: []string{"LICENSE", "doc/a.md", "doc/b.md", "kubectl-schedcache"}},
		"from escaping the archive":   {files: []FileOperation{{From: "../*", To: "."}}, err: "out of bounds"},
		"to escaping the install dir": {files: []FileOperation{{From: "dist/LICENSE", To: "../LICENSE"}}, err: "out of bounds"},
		"unclean to":                  {files: []FileOperation{{From: "dist/*", To: "bin/"}}, err: "not clean"},
	} {
		t.Run(name, func(t *testing.T) {
			work := t.TempDir()
			installDir := filepath.Join(work, "store", "x", "v1.0.0")
			_, err := InstallFiles(data, Platform{Files: tc.files, Bin: tc.bin}, work, installDir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			filepath.WalkDir(installDir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(installDir, p)
					got = append(got, filepath.ToSlash(rel))
				}
				return nil
			})
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("installed %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBinLinkName(t *testing.T) {
	for _, tc := range []struct{ name, goos, want string }{
		{"schedcache", "linux", "kubectl-schedcache"},
		{"sched-cache", "darwin", "kubectl-sched_cache"},
		{"schedcache", "windows", "kubectl-schedcache.exe"},
	} {
		if got := BinLinkName(tc.name, tc.goos); got != tc.want {
			t.Errorf("BinLinkName(%q, %q) = %q, want %q", tc.name, tc.goos, got, tc.want)
		}
	}
}
