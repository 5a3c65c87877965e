// Package readme checks that the console blocks of README.md and of every
// docs/*.md page that has them (consoleDocs) show exactly what
// a user sees: each "$ kubectl schedcache …" line is run and its stdout,
// its stderr and its exit code are compared with the block.
//
// The conventions (CONTRIBUTING.md states them for writers):
//
//   - A line starting with "$ " is a command; the lines after it, up to the
//     next command or the end of the block, are its output.
//   - Output lines starting with "# stderr: " are what the command writes to
//     stderr (without that prefix); every other line is stdout, blank lines
//     included. Each stream must match exactly.
//   - A command may end in "| head -N": stdout is cut to its first N lines
//     (and, as in a shell pipeline, the exit code shown is head's: 0).
//   - "$ echo $?" shows the exit code of the command before it; a command
//     not followed by one must exit 0.
//   - An HTML comment "<!-- console: skip REASON -->" on the line right
//     before the fence skips a block (a live cluster, files of your own);
//     REASON is required. The live blocks' behaviour is covered by the
//     end-to-end tests.
//
// Commands run from the repository root with an empty kubeconfig (no
// context namespace). With SCHEDCACHE_README_PLUGIN naming a built plugin
// binary (make readme), each command runs that binary as kubectl runs a
// plugin: "kubectl schedcache ARGS" is "kubectl-schedcache ARGS"; without
// it, commands run in-process through the same root command and exit-code
// mapping as the binary's main (the fast loop of make unit).
package readme

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/pkg/cmd"
)

const (
	stderrMark = "# stderr: "
	skipMark   = "<!-- console: skip "
	prompt     = "$ "
	plugin     = "kubectl schedcache "
)

// command is one "$ " line of a block and the output shown after it.
type command struct {
	line           int // 1-based line in the README
	text           string
	stdout, stderr []string
}

// block is one ```console block.
type block struct {
	line     int
	skip     string
	commands []*command
}

// parseBlocks returns the console blocks of a Markdown document.
func parseBlocks(doc string) ([]block, error) {
	var blocks []block
	var cur *block
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		switch {
		case cur == nil && strings.TrimSpace(l) == "```console":
			b := block{line: i + 1}
			if i > 0 && strings.HasPrefix(lines[i-1], skipMark) {
				b.skip = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(lines[i-1], skipMark), "-->"))
				if b.skip == "" {
					return nil, fmt.Errorf("line %d: skip marker without a reason", i)
				}
			}
			blocks = append(blocks, b)
			cur = &blocks[len(blocks)-1]
		case cur == nil:
		case strings.TrimSpace(l) == "```":
			cur = nil
		case strings.HasPrefix(l, prompt):
			cur.commands = append(cur.commands, &command{line: i + 1, text: strings.TrimPrefix(l, prompt)})
		case len(cur.commands) == 0:
			return nil, fmt.Errorf("line %d: output before the first command of the block", i+1)
		default:
			c := cur.commands[len(cur.commands)-1]
			if s, ok := strings.CutPrefix(l, stderrMark); ok {
				c.stderr = append(c.stderr, s)
			} else {
				c.stdout = append(c.stdout, l)
			}
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("line %d: console block not closed", cur.line)
	}
	return blocks, nil
}

// headPipe is a trailing "| head -N" (or "-n N").
var headPipe = regexp.MustCompile(`\s*\|\s*head\s+-(?:n\s*)?(\d+)\s*$`)

// cutHead returns s without a trailing "| head -N" and N, or -1.
func cutHead(s string) (string, int) {
	m := headPipe.FindStringSubmatchIndex(s)
	if m == nil {
		return s, -1
	}
	n, _ := strconv.Atoi(s[m[2]:m[3]])
	return s[:m[0]], n
}

// head keeps the first n lines of r's stdout; the exit code becomes 0.
func head(r result, n int) result {
	lines := strings.SplitAfter(r.stdout, "\n")
	if len(lines) > n {
		r.stdout = strings.Join(lines[:n], "")
	}
	var kept []string
	out := 0
	for _, l := range r.lines {
		if !strings.HasPrefix(l, stderrMark) {
			if out == n {
				continue
			}
			out++
		}
		kept = append(kept, l)
	}
	r.lines, r.code = kept, 0
	return r
}

// splitArgs splits a command line as a POSIX shell would for the plain
// words, single and double quotes the README uses; anything a shell would
// interpret otherwise (pipes, redirections, variables) is refused.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t':
			if inWord {
				args = append(args, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'' || ch == '"':
			j := strings.IndexByte(s[i+1:], ch)
			if j < 0 {
				return nil, fmt.Errorf("unclosed %c quote", ch)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case strings.IndexByte("|&;<>()$`\\*?", ch) >= 0:
			return nil, fmt.Errorf("shell syntax %q is not supported in README commands", ch)
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		args = append(args, cur.String())
	}
	return args, nil
}

// update rewrites the output shown in the documents' console blocks from
// what the commands print now (in-process): go test ./test/readme/ -update.
// Review the diff by eye before committing it.
var update = flag.Bool("update", false, "rewrite the console output of README.md and docs/*.md")

type result struct {
	stdout, stderr string
	code           int
	// lines are the output lines in the order they were written, stderr
	// ones with stderrMark (in-process runs only, for -update).
	lines []string
}

// orderedWriter is one stream of a run that also records, in write order,
// the lines of both streams.
type orderedWriter struct {
	buf     bytes.Buffer
	mark    string
	lines   *[]string
	partial *string
}

func (w *orderedWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	rest := *w.partial + string(p)
	for {
		line, after, ok := strings.Cut(rest, "\n")
		if !ok {
			break
		}
		*w.lines = append(*w.lines, w.mark+line)
		rest = after
	}
	*w.partial = rest
	return len(p), nil
}

// runPlugin runs the plugin with args from dir: the binary when bin is
// set, else in-process as main does.
func runPlugin(t *testing.T, bin, dir string, args []string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	if bin != "" {
		c := exec.Command(bin, args...)
		c.Dir, c.Stdout, c.Stderr = dir, &out, &errOut
		err := c.Run()
		code := 0
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			code = exitErr.ExitCode()
		} else if err != nil {
			t.Fatalf("running %s: %v", bin, err)
		}
		return result{stdout: out.String(), stderr: errOut.String(), code: code}
	}
	t.Chdir(dir)
	var lines []string
	var outPartial, errPartial string
	o := &orderedWriter{lines: &lines, partial: &outPartial}
	e := &orderedWriter{mark: stderrMark, lines: &lines, partial: &errPartial}
	root := cmd.NewCmdSchedCache(genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: o, ErrOut: e})
	root.SetArgs(args)
	ctx := context.Background()
	err := root.ExecuteContext(ctx)
	msg, code := cmd.Outcome(ctx, err)
	if msg != "" {
		fmt.Fprintln(e, msg)
	}
	return result{stdout: o.buf.String(), stderr: e.buf.String(), code: code, lines: lines}
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// consoleDocs returns the documents whose console blocks are run: README.md
// and every docs/*.md page that holds a console block, each with the fewest
// blocks it is expected to hold (a parse that finds fewer has gone wrong).
func consoleDocs(t *testing.T, root string) []consoleDoc {
	t.Helper()
	docs := []consoleDoc{{"README.md", 5}}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), "```console") {
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, consoleDoc{filepath.ToSlash(rel), 1})
		}
	}
	return docs
}

type consoleDoc struct {
	path      string
	minBlocks int
}

func TestREADMEConsoleBlocks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := os.Getenv("SCHEDCACHE_README_PLUGIN")
	if bin != "" {
		if bin, err = filepath.Abs(bin); err != nil {
			t.Fatal(err)
		}
	}
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("NO_COLOR", "1")
	if *update && bin != "" {
		t.Fatal("-update runs in-process: unset SCHEDCACHE_README_PLUGIN")
	}
	for _, d := range consoleDocs(t, root) {
		t.Run(d.path, func(t *testing.T) { checkConsoleBlocks(t, root, bin, d.path, d.minBlocks) })
	}
}

// checkConsoleBlocks runs the console blocks of the document at path
// (relative to root) and compares, or with -update rewrites, their output.
func checkConsoleBlocks(t *testing.T, root, bin, path string, minBlocks int) {
	doc, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := parseBlocks(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(blocks) < minBlocks {
		t.Fatalf("%s: %d console blocks, expected %d or more", path, len(blocks), minBlocks)
	}
	// newOutput maps a command's README line to the output it prints now.
	newOutput := map[int][]string{}
	defer func() {
		if *update && !t.Failed() {
			if err := os.WriteFile(filepath.Join(root, path), []byte(rewrite(string(doc), newOutput)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}()
	for _, b := range blocks {
		t.Run("line-"+strconv.Itoa(b.line), func(t *testing.T) {
			if b.skip != "" {
				t.Skipf("%s:%d: %s", path, b.line, b.skip)
			}
			if len(b.commands) == 0 {
				t.Fatalf("%s:%d: console block without a command", path, b.line)
			}
			var last *result
			for i, c := range b.commands {
				if c.text == "echo $?" {
					if last == nil {
						t.Fatalf("%s:%d: echo $? without a command before it", path, c.line)
					}
					newOutput[c.line] = []string{strconv.Itoa(last.code)}
					if want := joinLines(c.stdout); !*update && want != fmt.Sprintf("%d\n", last.code) {
						t.Errorf("%s:%d: exit code %d, the document shows %q", path, c.line, last.code, want)
					}
					last = nil
					continue
				}
				rest, ok := strings.CutPrefix(c.text, plugin)
				if !ok {
					t.Fatalf("%s:%d: %q: only %q commands and echo $? can be run (or mark the block %s…-->)", path, c.line, c.text, plugin, skipMark)
				}
				rest, headLines := cutHead(rest)
				args, err := splitArgs(rest)
				if err != nil {
					t.Fatalf("%s:%d: %v", path, c.line, err)
				}
				r := runPlugin(t, bin, root, args)
				if headLines >= 0 {
					r = head(r, headLines)
				}
				newOutput[c.line] = r.lines
				followed := i+1 < len(b.commands) && b.commands[i+1].text == "echo $?"
				if !followed && r.code != 0 {
					t.Errorf("%s:%d: %s exits %d; show it with a \"$ echo $?\" line", path, c.line, c.text, r.code)
				}
				last = &r
				if *update {
					continue
				}
				if got, want := r.stdout, joinLines(c.stdout); got != want {
					t.Errorf("%s:%d: %s\nstdout differs\n--- document\n%s--- got\n%s", path, c.line, c.text, want, got)
				}
				if got, want := r.stderr, joinLines(c.stderr); got != want {
					t.Errorf("%s:%d: %s\nstderr differs (its lines start with %q)\n--- document\n%s--- got\n%s", path, c.line, c.text, stderrMark, want, got)
				}
			}
		})
	}
}

// rewrite replaces the output after each command line of doc that
// newOutput has (1-based line numbers) with its new lines.
func rewrite(doc string, newOutput map[int][]string) string {
	lines := strings.Split(doc, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		repl, ok := newOutput[i+1]
		if !ok {
			continue
		}
		out = append(out, repl...)
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], prompt) && strings.TrimSpace(lines[i+1]) != "```" {
			i++
		}
	}
	return strings.Join(out, "\n")
}

// TestParseBlocks: the conventions as the parser reads them.
func TestParseBlocks(t *testing.T) {
	doc := "text\n```console\n$ kubectl schedcache a 'b c'\n# stderr: note\nout\n\nout2\n$ echo $?\n1\n```\n" +
		"<!-- console: skip needs a cluster -->\n```console\n$ kubectl schedcache live\n```\n```sh\n$ not console\n```\n"
	blocks, err := parseBlocks(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[1].skip != "needs a cluster" || blocks[0].skip != "" {
		t.Fatalf("blocks %+v", blocks)
	}
	c := blocks[0].commands
	if len(c) != 2 || c[0].line != 3 || joinLines(c[0].stdout) != "out\n\nout2\n" || joinLines(c[0].stderr) != "note\n" || joinLines(c[1].stdout) != "1\n" {
		t.Errorf("commands %+v %+v", c[0], c[1])
	}
	args, err := splitArgs(c[0].text[len(plugin):])
	if err != nil || strings.Join(args, "|") != "a|b c" {
		t.Errorf("args %q, %v", args, err)
	}
	if rest, n := cutHead("dump -o json | head -40"); rest != "dump -o json" || n != 40 {
		t.Errorf("cutHead: %q, %d", rest, n)
	}
	if r := head(result{stdout: "a\nb\nc\n", code: 1, lines: []string{"a", stderrMark + "e", "b", "c"}}, 2); r.stdout != "a\nb\n" || r.code != 0 || strings.Join(r.lines, ",") != "a,"+stderrMark+"e,b" {
		t.Errorf("head: %+v", r)
	}
	if _, err := splitArgs("dump > x"); err == nil {
		t.Error("a redirection was accepted")
	}
	if _, err := parseBlocks("<!-- console: skip -->\n```console\n$ x\n```\n"); err == nil {
		t.Error("a skip marker without a reason was accepted")
	}
}
