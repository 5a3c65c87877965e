package readme

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdLink is an inline Markdown link or image: [text](target) or
// ![alt](target), the target without a title.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// inlineCode is a code span, whose text is not Markdown.
var inlineCode = regexp.MustCompile("`[^`]*`")

// proseLines returns the lines of doc outside fenced code blocks, with code
// spans blanked, each with its 1-based line number.
func proseLines(doc string) map[int]string {
	out := map[int]string{}
	fenced := false
	for i, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out[i+1] = inlineCode.ReplaceAllString(l, "``")
		}
	}
	return out
}

// anchors returns the heading anchors GitHub gives a Markdown document
// (headings in fenced code blocks are none):
// the heading text lower-cased, every character other than a letter, a
// digit, a space, '-' or '_' dropped, spaces made '-', and "-1", "-2", …
// appended to repeats.
func anchors(doc string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	for _, l := range strings.Split(rawHeadings(doc), "\n") {
		text, ok := headingText(l)
		if !ok {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			set[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			set[a] = true
		}
		seen[a]++
	}
	return set
}

// headingText is the text of an ATX heading line.
func headingText(l string) (string, bool) {
	t := strings.TrimLeft(l, "#")
	if len(t) == len(l) || len(l)-len(t) > 6 || !strings.HasPrefix(t, " ") {
		return "", false
	}
	return strings.TrimSpace(t), true
}

// linkDocs are the documents whose relative links are checked.
func linkDocs(t *testing.T, root string) []string {
	t.Helper()
	docs := []string{"README.md", "CONTRIBUTING.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		rel, _ := filepath.Rel(root, p)
		docs = append(docs, filepath.ToSlash(rel))
	}
	return docs
}

// TestDocLinks: every relative link of README.md, CONTRIBUTING.md and
// docs/*.md names a file or directory of the repository, and an anchor
// names a heading of the document linked to. Links to the web are not
// fetched.
func TestDocLinks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := headings[path]; ok {
			return a, nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a := anchors(string(raw))
		headings[path] = a
		return a, nil
	}
	for _, doc := range linkDocs(t, root) {
		raw, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for n, l := range proseLines(string(raw)) {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				file := filepath.Join(root, doc)
				if path != "" {
					file = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				}
				if rel, err := filepath.Rel(root, file); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("%s:%d: link %q leaves the repository", doc, n, target)
					continue
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s:%d: link %q: no such file", doc, n, target)
					continue
				}
				if anchor == "" || !strings.HasSuffix(file, ".md") {
					continue
				}
				a, err := anchorsOf(file)
				if err != nil {
					t.Fatal(err)
				}
				if !a[anchor] {
					t.Errorf("%s:%d: link %q: no heading with anchor #%s", doc, n, target, anchor)
				}
			}
		}
	}
}

// rawHeadings returns the heading lines of doc outside fenced code blocks,
// as they are written (code spans included, which GitHub keeps as text).
func rawHeadings(doc string) string {
	var out []string
	fenced := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced && strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAnchors: GitHub's heading anchors, as the links of the docs use them.
func TestAnchors(t *testing.T) {
	a := anchors("# Output\n## CacheDump (`dump`)\n```\n# not a heading\n```\n### why -A -o json: the diagnosis (issue 29)\n## Fit\n## Fit\n")
	for _, want := range []string{"output", "cachedump-dump", "why--a--o-json-the-diagnosis-issue-29", "fit", "fit-1"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line in a code block became a heading")
	}
}
