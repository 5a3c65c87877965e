package manifest

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Rule names reported in Problems. Tests key on them.
const (
	RuleDecode           = "decode"
	RuleFileName         = "file-name"
	RuleName             = "name"
	RuleAPIVersion       = "api-version"
	RuleKind             = "kind"
	RuleShortDescription = "short-description"
	RuleDescription      = "description"
	RuleCaveats          = "caveats"
	RuleVersion          = "version"
	RuleHomepage         = "homepage"
	RulePlatforms        = "platforms"
	RuleURI              = "uri"
	RuleSha256           = "sha256"
	RuleBin              = "bin"
	RuleFiles            = "files"
	RuleSelector         = "selector"
	RuleUnsupported      = "unsupported-platform"
	RuleOverlap          = "overlapping-platforms"
	RulePlatformSet      = "platform-set"
	RuleArchive          = "archive"
	RuleInstall          = "install"
	RuleLicense          = "license"
	RuleBinaryFormat     = "binary-format"
)

// MaxShortDescription is where `kubectl krew search` cuts shortDescription
// and the limit krew-index reviewers ask for.
const MaxShortDescription = 50

// MaxLineLength is the column limit krew-index asks for in description and
// caveats (validate-krew-manifest warns above 80; we fail).
const MaxLineLength = 80

var (
	safePluginName = regexp.MustCompile(`^[\w-]+$`)
	validSHA256    = regexp.MustCompile(`^[a-f0-9]{64}$`)
	// semVer is semver.org 2.0.0's regular expression with the leading "v" krew
	// requires (internal/installation/semver.Parse).
	semVer = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
		`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
		`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	// usageExample flags description lines that look like a shell session or a
	// command line, which krew-index review rejects ("no usage examples").
	usageExample = regexp.MustCompile(`^\s*(\$ |# |>\s|kubectl\s+\S|kubectl-\S)`)

	windowsReserved = []string{"CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9"}

	// licenseFiles are the names validate-krew-manifest accepts (lowercased).
	licenseFiles = []string{"license", "license.txt", "license.md",
		"licenses", "licenses.txt", "licenses.md", "copying", "copying.txt"}
)

// Problem is one broken rule.
type Problem struct {
	Rule    string
	Message string
}

func (p Problem) String() string { return p.Rule + ": " + p.Message }

// Options controls the checks that need more than the manifest text.
type Options struct {
	// Fetcher reads the archives. With a nil Fetcher the archive checks
	// (digest, extraction, bin, LICENSE, binary format) are skipped.
	Fetcher *Fetcher
	// WantPlatforms, when set, is the exact set of os/arch pairs the manifest
	// must serve (the release's build matrix).
	WantPlatforms []OSArch
	// WorkDir holds temporary install directories (default os.TempDir()).
	WorkDir string
}

// ValidateFile reads and checks the manifest at path.
func ValidateFile(path string, opts Options) ([]Problem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Validate(path, data, opts), nil
}

// Validate checks a manifest against the krew-index rules. path is used only
// for the file-name rule. It returns every problem found, not only the first.
func Validate(path string, data []byte, opts Options) []Problem {
	var probs []Problem
	add := func(rule, format string, args ...any) {
		probs = append(probs, Problem{rule, fmt.Sprintf(format, args...)})
	}

	p, err := Decode(data)
	if err != nil {
		add(RuleDecode, "%v", err)
		return probs
	}

	// File name: <metadata.name>.yaml.
	base := filepath.Base(path)
	if ext := filepath.Ext(base); ext != Extension {
		add(RuleFileName, "expected manifest extension %q but found %q", Extension, ext)
	} else if stem := strings.TrimSuffix(base, ext); stem != p.Metadata.Name {
		add(RuleFileName, "file %q must be named after metadata.name %q (%s%s)", base, p.Metadata.Name, p.Metadata.Name, Extension)
	}
	if !safePluginName.MatchString(p.Metadata.Name) {
		add(RuleName, "the plugin name %q is not allowed, must match %q", p.Metadata.Name, safePluginName)
	} else if slices.ContainsFunc(windowsReserved, func(r string) bool { return strings.EqualFold(r, p.Metadata.Name) }) {
		add(RuleName, "the plugin name %q is a reserved name on Windows", p.Metadata.Name)
	}
	if p.APIVersion != APIVersion {
		add(RuleAPIVersion, "apiVersion is %q, must be %q", p.APIVersion, APIVersion)
	}
	if p.Kind != Kind {
		add(RuleKind, "kind is %q, must be %q", p.Kind, Kind)
	}

	s := p.Spec
	switch sd := s.ShortDescription; {
	case sd == "":
		add(RuleShortDescription, "shortDescription is required")
	case strings.ContainsAny(sd, "\r\n"):
		add(RuleShortDescription, "shortDescription must be one line, got %q", sd)
	case len(sd) > MaxShortDescription:
		add(RuleShortDescription, "shortDescription is %d characters, at most %d: %q", len(sd), MaxShortDescription, sd)
	case sd != strings.TrimSpace(sd):
		add(RuleShortDescription, "shortDescription has leading or trailing space: %q", sd)
	}
	if strings.TrimSpace(s.Description) == "" {
		add(RuleDescription, "description is required")
	}
	for i, line := range strings.Split(s.Description, "\n") {
		if tooLong(line) {
			add(RuleDescription, "description line %d is %d characters, wrap at %d: %q", i+1, utf8.RuneCountInString(line), MaxLineLength, line)
		}
		if usageExample.MatchString(line) {
			add(RuleDescription, "description line %d looks like a usage example (not allowed in krew-index): %q", i+1, line)
		}
	}
	for i, line := range strings.Split(s.Caveats, "\n") {
		if tooLong(line) {
			add(RuleCaveats, "caveats line %d is %d characters, wrap at %d: %q", i+1, utf8.RuneCountInString(line), MaxLineLength, line)
		}
	}
	if s.Version == "" {
		add(RuleVersion, "version is required")
	} else if !semVer.MatchString(s.Version) {
		add(RuleVersion, "version %q is not a semantic version with a leading \"v\" (vMAJOR.MINOR.PATCH[-PRE][+BUILD])", s.Version)
	}
	if !strings.HasPrefix(s.Homepage, "https://") {
		add(RuleHomepage, "homepage must be an https:// URL, got %q", s.Homepage)
	}

	if len(s.Platforms) == 0 {
		add(RulePlatforms, "at least one platform is required")
	}
	for i, pl := range s.Platforms {
		validatePlatform(i, pl, add)
	}

	// Every selector serves some supported os/arch; no os/arch is served twice.
	for i, pl := range s.Platforms {
		if !slices.ContainsFunc(SupportedPlatforms, pl.Selector.Matches) {
			add(RuleUnsupported, "platforms[%d] selector %s matches no supported os/arch", i, selectorString(pl.Selector))
		}
	}
	served := map[OSArch]bool{}
	for _, pair := range SupportedPlatforms {
		var idx []int
		for i, pl := range s.Platforms {
			if pl.Selector.Matches(pair) {
				idx = append(idx, i)
			}
		}
		if len(idx) > 1 {
			add(RuleOverlap, "platforms %v have overlapping selectors that all select %s", idx, pair)
		}
		served[pair] = len(idx) > 0
	}
	if len(opts.WantPlatforms) > 0 {
		for _, pair := range opts.WantPlatforms {
			if !served[pair] {
				add(RulePlatformSet, "no platform serves %s, which the release builds", pair)
			}
		}
		for pair, ok := range served {
			if ok && !slices.Contains(opts.WantPlatforms, pair) {
				add(RulePlatformSet, "a platform serves %s, which the release does not build", pair)
			}
		}
	}

	if opts.Fetcher != nil {
		for i, pl := range s.Platforms {
			checkArchive(i, p, pl, opts, add)
		}
	}
	return probs
}

// tooLong reports a line over MaxLineLength that could be wrapped (one long
// word, such as a URL, is allowed, as in validate-krew-manifest).
func tooLong(line string) bool {
	return utf8.RuneCountInString(line) > MaxLineLength && strings.Contains(strings.TrimSpace(line), " ")
}

func validatePlatform(i int, pl Platform, add func(rule, format string, args ...any)) {
	if pl.URI == "" {
		add(RuleURI, "platforms[%d]: uri is required", i)
	} else if !hasArchiveExt(pl.URI) {
		add(RuleURI, "platforms[%d]: uri %q must name a .tar.gz or .zip archive", i, pl.URI)
	}
	if pl.Sha256 == "" {
		add(RuleSha256, "platforms[%d]: sha256 is required", i)
	} else if !validSHA256.MatchString(pl.Sha256) {
		add(RuleSha256, "platforms[%d]: sha256 %q must be 64 lowercase hex digits", i, pl.Sha256)
	}
	if pl.Bin == "" {
		add(RuleBin, "platforms[%d]: bin is required", i)
	} else {
		if c := filepath.ToSlash(filepath.Clean(pl.Bin)); filepath.IsAbs(pl.Bin) || c == ".." || strings.HasPrefix(c, "../") {
			add(RuleBin, "platforms[%d]: bin %q must be a path inside the install directory", i, pl.Bin)
		}
		if pl.Selector != nil && pl.Selector.MatchLabels["os"] == "windows" && !strings.HasSuffix(pl.Bin, ".exe") {
			add(RuleBin, "platforms[%d]: bin %q for windows must end in .exe", i, pl.Bin)
		}
	}
	if pl.Files != nil && len(pl.Files) == 0 {
		add(RuleFiles, "platforms[%d]: files has to be unspecified or non-empty", i)
	}
	for j, fo := range pl.Files {
		switch {
		case fo.From == "":
			add(RuleFiles, "platforms[%d].files[%d]: from is required", i, j)
		case fo.To == "":
			add(RuleFiles, "platforms[%d].files[%d]: to is required", i, j)
		case fo.To != filepath.Clean(fo.To):
			add(RuleFiles, "platforms[%d].files[%d]: to %q is not clean, use %q", i, j, fo.To, filepath.Clean(fo.To))
		}
	}
	sel := pl.Selector
	switch {
	case sel == nil:
		add(RuleSelector, "platforms[%d]: selector is required", i)
	case len(sel.MatchExpressions) > 0:
		add(RuleSelector, "platforms[%d]: use selector.matchLabels with os and arch only, not matchExpressions", i)
	case len(sel.MatchLabels) == 0:
		add(RuleSelector, "platforms[%d]: selector.matchLabels is empty", i)
	default:
		for _, k := range sortedKeys(sel.MatchLabels) {
			if k != "os" && k != "arch" {
				add(RuleSelector, "platforms[%d]: selector key %q not supported, only os and arch", i, k)
			}
		}
	}
}

func checkArchive(i int, p *Plugin, pl Platform, opts Options, add func(rule, format string, args ...any)) {
	if pl.URI == "" {
		return
	}
	data, from, err := opts.Fetcher.Fetch(pl.URI)
	if err != nil {
		add(RuleArchive, "platforms[%d]: cannot read %s: %v", i, pl.URI, err)
		return
	}
	if got := Sha256Hex(data); validSHA256.MatchString(pl.Sha256) && got != pl.Sha256 {
		add(RuleSha256, "platforms[%d]: sha256 is %q but %s hashes to %s", i, pl.Sha256, from, got)
	}
	if pl.Bin == "" {
		return
	}
	work, err := os.MkdirTemp(opts.WorkDir, "krew-verify")
	if err != nil {
		add(RuleInstall, "platforms[%d]: %v", i, err)
		return
	}
	defer os.RemoveAll(work)
	installDir := filepath.Join(work, "store", p.Metadata.Name, p.Spec.Version)
	bin, err := InstallFiles(data, pl, work, installDir)
	if err != nil {
		rule := RuleInstall
		if _, ok := errors.AsType[*ArchiveError](err); ok {
			rule = RuleArchive
		}
		add(rule, "platforms[%d]: installing %s: %v", i, from, err)
		return
	}
	var files []string
	_ = filepath.WalkDir(installDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, d.Name())
		}
		return nil
	})
	if !slices.ContainsFunc(files, func(f string) bool { return slices.Contains(licenseFiles, strings.ToLower(f)) }) {
		add(RuleLicense, "platforms[%d]: no LICENSE (or alike) file is installed from %s, found %v", i, from, files)
	}
	goos, goarch := pl.Selector.label("os"), pl.Selector.label("arch")
	if goos != "windows" {
		if fi, err := os.Stat(bin); err == nil && fi.Mode().Perm()&0o111 == 0 {
			add(RuleInstall, "platforms[%d]: bin %q is not executable (mode %s)", i, pl.Bin, fi.Mode())
		}
	}
	if goos != "" && goarch != "" {
		if err := checkBinaryFormat(bin, OSArch{goos, goarch}); err != nil {
			add(RuleBinaryFormat, "platforms[%d]: bin %q: %v", i, pl.Bin, err)
		}
	}
}

func (s *LabelSelector) label(k string) string {
	if s == nil {
		return ""
	}
	return s.MatchLabels[k]
}

// checkBinaryFormat checks that the file is an executable for the pair:
// ELF for linux, Mach-O (thin or universal) for darwin, PE for windows, with
// a matching machine type.
func checkBinaryFormat(path string, want OSArch) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r := bytes.NewReader(data)
	var got []string
	switch want.OS {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			return fmt.Errorf("not an ELF executable: %v", err)
		}
		got = append(got, elfArch(f))
	case "darwin":
		if fat, err := macho.NewFatFile(r); err == nil {
			for _, a := range fat.Arches {
				got = append(got, machoArch(a.Cpu))
			}
		} else if f, err := macho.NewFile(r); err == nil {
			got = append(got, machoArch(f.Cpu))
		} else {
			return fmt.Errorf("not a Mach-O executable: %v", err)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a PE executable: %v", err)
		}
		got = append(got, peArch(f.Machine))
	default:
		return nil
	}
	if !slices.Contains(got, want.Arch) {
		return fmt.Errorf("built for %s/%v, the selector says %s", want.OS, got, want)
	}
	return nil
}

func elfArch(f *elf.File) string {
	switch f.Machine {
	case elf.EM_X86_64:
		return "amd64"
	case elf.EM_AARCH64:
		return "arm64"
	case elf.EM_386:
		return "386"
	case elf.EM_ARM:
		return "arm"
	case elf.EM_PPC64:
		if f.Data == elf.ELFDATA2LSB {
			return "ppc64le"
		}
		return "ppc64"
	}
	return f.Machine.String()
}

func machoArch(c macho.Cpu) string {
	switch c {
	case macho.CpuAmd64:
		return "amd64"
	case macho.CpuArm64:
		return "arm64"
	case macho.Cpu386:
		return "386"
	}
	return c.String()
}

func peArch(m uint16) string {
	switch m {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		return "amd64"
	case pe.IMAGE_FILE_MACHINE_ARM64:
		return "arm64"
	case pe.IMAGE_FILE_MACHINE_I386:
		return "386"
	}
	return fmt.Sprintf("machine(%#x)", m)
}

func selectorString(s *LabelSelector) string {
	if s == nil {
		return "<nil>"
	}
	var parts []string
	for _, k := range sortedKeys(s.MatchLabels) {
		parts = append(parts, k+"="+s.MatchLabels[k])
	}
	for _, e := range s.MatchExpressions {
		parts = append(parts, fmt.Sprintf("%s %s %v", e.Key, e.Operator, e.Values))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
