package manifest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// releasePlatforms is the goreleaser build matrix (.goreleaser.yaml).
var releasePlatforms = []OSArch{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

const testTag = "v0.1.0"

type entry struct {
	name string
	mode int64
	body []byte
	typ  byte // tar type flag; 0 means a regular file
}

// fakeBinary returns the smallest header debug/elf, debug/macho or debug/pe
// accepts for the pair, so the binary-format rule can be tested without
// cross-compiling.
func fakeBinary(t *testing.T, p OSArch) []byte {
	t.Helper()
	le := binary.LittleEndian
	var b []byte
	switch p.OS {
	case "linux":
		machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.Arch]
		b = make([]byte, 64)
		copy(b, "\x7fELF")
		b[4], b[5], b[6] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
		le.PutUint16(b[16:], uint16(elf.ET_EXEC))
		le.PutUint16(b[18:], uint16(machine))
		le.PutUint32(b[20:], uint32(elf.EV_CURRENT))
		le.PutUint16(b[52:], 64) // e_ehsize
		le.PutUint16(b[54:], 56) // e_phentsize
		le.PutUint16(b[58:], 64) // e_shentsize
		if _, err := elf.NewFile(bytes.NewReader(b)); err != nil {
			t.Fatalf("fake ELF: %v", err)
		}
	case "darwin":
		cpu := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.Arch]
		b = make([]byte, 32)
		le.PutUint32(b[0:], macho.Magic64)
		le.PutUint32(b[4:], uint32(cpu))
		le.PutUint32(b[12:], uint32(macho.TypeExec))
		if _, err := macho.NewFile(bytes.NewReader(b)); err != nil {
			t.Fatalf("fake Mach-O: %v", err)
		}
	case "windows":
		machine := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[p.Arch]
		b = make([]byte, 512) // DOS header, "PE\0\0", COFF header, zero padding
		copy(b, "MZ")
		le.PutUint32(b[0x3c:], 64)
		copy(b[64:], "PE\x00\x00")
		le.PutUint16(b[68:], machine)
		if _, err := pe.NewFile(bytes.NewReader(b)); err != nil {
			t.Fatalf("fake PE: %v", err)
		}
	default:
		t.Fatalf("no fake binary for %s", p)
	}
	return b
}

func tarGz(t *testing.T, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.body)), Typeflag: typ}
		if typ != tar.TypeReg {
			hdr.Size = 0
			hdr.Linkname = "LICENSE"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipArchive(t *testing.T, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(os.FileMode(e.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func archiveName(tag string, p OSArch) string {
	ext := ".tar.gz"
	if p.OS == "windows" {
		ext = ".zip"
	}
	return "kubectl-schedcache_" + tag + "_" + p.OS + "_" + p.Arch + ext
}

func binName(p OSArch) string {
	if p.OS == "windows" {
		return "kubectl-schedcache.exe"
	}
	return "kubectl-schedcache"
}

// releaseEntries is what .goreleaser.yaml puts into every archive.
func releaseEntries(t *testing.T, p OSArch) []entry {
	return []entry{
		{name: binName(p), mode: 0o755, body: fakeBinary(t, p)},
		{name: "LICENSE", mode: 0o644, body: []byte("Apache License\n")},
		{name: "README.md", mode: 0o644, body: []byte("# kubectl-schedcache\n")},
		{name: "kubectl_complete-schedcache", mode: 0o755, body: []byte("#!/bin/sh\nexec kubectl schedcache __complete \"$@\"\n")},
	}
}

func packArchive(t *testing.T, p OSArch, entries []entry) []byte {
	if p.OS == "windows" {
		return zipArchive(t, entries)
	}
	return tarGz(t, entries)
}

// writeReleaseArchives writes goreleaser-like archives for every release
// platform into dir and returns their digests.
func writeReleaseArchives(t *testing.T, dir string) map[OSArch]string {
	t.Helper()
	sums := map[OSArch]string{}
	for _, p := range releasePlatforms {
		data := packArchive(t, p, releaseEntries(t, p))
		if err := os.WriteFile(filepath.Join(dir, archiveName(testTag, p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		sums[p] = Sha256Hex(data)
	}
	return sums
}

// validPlugin is a manifest that passes every rule for the archives written
// by writeReleaseArchives.
func validPlugin(sums map[OSArch]string) *Plugin {
	p := &Plugin{
		APIVersion: APIVersion,
		Kind:       Kind,
		Metadata:   Metadata{Name: "schedcache"},
		Spec: PluginSpec{
			Version:          testTag,
			Homepage:         "https://github.com/schedcache/kubectl-schedcache",
			ShortDescription: "Show a cluster as kube-scheduler's cache sees it",
			Description:      "Builds a local model of kube-scheduler's cache.\nRead-only.\n",
			Caveats:          "Needs get and list on nodes and pods.\n",
		},
	}
	for _, pair := range releasePlatforms {
		p.Spec.Platforms = append(p.Spec.Platforms, Platform{
			Selector: &LabelSelector{MatchLabels: map[string]string{"os": pair.OS, "arch": pair.Arch}},
			URI:      "https://github.com/schedcache/kubectl-schedcache/releases/download/" + testTag + "/" + archiveName(testTag, pair),
			Sha256:   sums[pair],
			Bin:      binName(pair),
		})
	}
	return p
}

func marshal(t *testing.T, p *Plugin) []byte {
	t.Helper()
	b, err := yaml.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
