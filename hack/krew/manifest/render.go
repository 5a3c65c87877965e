package manifest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"text/template"
)

// ReleaseValues are the values krew-release-bot executes the template with.
// Its ReleaseRequest has more fields, but only TagName is documented and set
// at render time; a template that uses anything else fails here, as it would
// (or would silently render empty) in the bot.
type ReleaseValues struct {
	TagName string
}

// RenderOptions configures Render.
type RenderOptions struct {
	// Fetch returns the bytes of the archive at a release URL, for its sha256.
	Fetch func(uri string) ([]byte, error)
	// RewriteURI, when set, maps the release URL written into the manifest
	// (for example to a file:// URI of the local archive). The digest is
	// always taken from the fetched bytes.
	RewriteURI func(uri string) (string, error)
}

// Render executes a krew-release-bot template (pkg/source/template.go) for
// the tag:
//
//   - {{ .TagName }} is the release tag.
//   - {{ addURIAndSha "<url>" .TagName }} executes <url> as a template with
//     .TagName (the tag) and .Version (the first dotted number run of the tag,
//     "0.1.0" for "v0.1.0"), fetches it, and returns
//     "uri: <url>\n    sha256: <hex>", so it must sit at 4-space indent.
//   - {{ indent N "text" }} indents continuation lines by N spaces.
func Render(name string, tmpl []byte, tag string, opts RenderOptions) ([]byte, error) {
	funcs := template.FuncMap{
		"indent": indent,
		"addURIAndSha": func(urlTmpl, tag string) (string, error) {
			t, err := template.New("url").Parse(urlTmpl)
			if err != nil {
				return "", err
			}
			var buf bytes.Buffer
			if err := t.Execute(&buf, struct{ TagName, Version string }{tag, versionFromTag(tag)}); err != nil {
				return "", err
			}
			uri := buf.String()
			if opts.Fetch == nil {
				return "", fmt.Errorf("no way to fetch %s", uri)
			}
			data, err := opts.Fetch(uri)
			if err != nil {
				return "", fmt.Errorf("getting sha256 for %s: %w", uri, err)
			}
			if opts.RewriteURI != nil {
				if uri, err = opts.RewriteURI(uri); err != nil {
					return "", err
				}
			}
			return fmt.Sprintf("uri: %s\n    sha256: %s", uri, Sha256Hex(data)), nil
		},
	}
	t, err := template.New(name).Funcs(funcs).Parse(string(tmpl))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := t.Execute(&out, ReleaseValues{TagName: tag}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

var dottedNumbers = regexp.MustCompile(`\d+(\.\d+)+`)

// versionFromTag is krew-release-bot's extractVersionFromTag.
func versionFromTag(tag string) string {
	if v := dottedNumbers.FindString(tag); v != "" {
		return v
	}
	return tag
}

// indent is krew-release-bot's indent helper, including its fix-up of the
// 4-space sha256 line addURIAndSha emits.
func indent(spaces int, v string) string {
	v = strings.ReplaceAll(v, "    sha256:", "sha256:")
	pad := strings.Repeat(" ", spaces)
	return strings.TrimSpace(pad + strings.ReplaceAll(v, "\n", "\n"+pad))
}
