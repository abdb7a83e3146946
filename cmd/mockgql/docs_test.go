package main

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The docs check: the pages a user reads (README.md, CONTRIBUTING.md,
// deploy/README.md and docs/, but not docs/incoming/, which holds notes
// still to be folded in) may not point at a file or heading that is gone,
// nor mention a --flag that no command has; and every flag a command has
// must be in docs/reference/flags.md. CONTRIBUTING.md ("Docs") says so.

// repoRoot is the module's root, seen from this package's folder.
const repoRoot = "../.."

// docPages lists the checked Markdown files, relative to the root.
func docPages(t testing.TB) []string {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md", "deploy/README.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && rel == "docs/incoming" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("found only %d doc pages: %v", len(pages), pages)
	}
	return pages
}

// docLine is one line of a page, with whether it is inside a fenced code block.
type docLine struct {
	text   string
	fenced bool
	num    int
}

// readDoc returns a page's lines.
func readDoc(t testing.TB, rel string) []docLine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, rel))
	if err != nil {
		t.Fatal(err)
	}
	var lines []docLine
	fenced := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(s), "```") {
			fenced = !fenced
			lines = append(lines, docLine{s, true, n})
			continue
		}
		lines = append(lines, docLine{s, fenced, n})
	}
	return lines
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// anchorOf is GitHub's anchor of a heading: lower case, punctuation
// dropped, spaces turned into dashes.
func anchorOf(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a page's headings (a repeated heading
// gets -1, -2, … as on GitHub).
func anchors(lines []docLine) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range lines {
		m := heading.FindStringSubmatch(l.text)
		if l.fenced || m == nil {
			continue
		}
		a := anchorOf(m[1])
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// links returns the link targets of a line outside code.
func links(l docLine) []string {
	if l.fenced {
		return nil
	}
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(l.text, "``"), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDocsLinks: every relative link of the doc pages names a file that
// exists, and its #anchor, if any, a heading of that page.
func TestDocsLinks(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		lines := readDoc(t, page)
		for _, l := range lines {
			for _, target := range links(l) {
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, anchor, _ := strings.Cut(target, "#")
				file := page
				if path != "" {
					file = filepath.ToSlash(filepath.Join(filepath.Dir(page), path))
					if _, err := os.Stat(filepath.Join(repoRoot, file)); err != nil {
						t.Errorf("%s:%d: dead link %q: %s does not exist", page, l.num, target, file)
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(file, ".md") {
					continue
				}
				if !anchors(readDoc(t, file))[anchor] {
					t.Errorf("%s:%d: dead link %q: %s has no heading with anchor #%s", page, l.num, target, file, anchor)
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked only %d links; the page list or the link pattern is wrong", checked)
	}
}

// commandHelp returns the flags `mockgql <command> --help` lists, by
// running the command line as the binary does. The flag sets print their
// usage to the process's stderr, so it is captured for the call.
func commandHelp(t *testing.T, command string) []string {
	t.Helper()
	help := helpText(t, command)
	var flags []string
	for _, line := range strings.Split(help, "\n") {
		if m := helpFlag.FindStringSubmatch(line); m != nil {
			flags = append(flags, m[1])
		}
	}
	if len(flags) == 0 {
		t.Fatalf("mockgql %s --help listed no flags:\n%s", command, help)
	}
	return flags
}

// helpText returns what `mockgql <command> --help` prints.
func helpText(t *testing.T, command string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	var out, errb bytes.Buffer
	code := run([]string{command, "--help"}, &out, &errb)
	os.Stderr = saved
	w.Close()
	help := string(<-got) + errb.String()
	if code != 0 {
		t.Fatalf("mockgql %s --help: exit %d\n%s", command, code, help)
	}
	return help
}

var (
	helpFlag = regexp.MustCompile(`^  -([a-z][a-z0-9-]*)`)
	// docFlag is a --flag in text: after a space, a quote, a bracket or
	// the line's start, so that a path like a/--b or a word like x--y is not one.
	docFlag = regexp.MustCompile("(?:^|[\\s`'\"(\\[=])--([a-z][a-z0-9-]*)")
	// invocation is a mockgql command line in a code block: its flags are checked.
	invocation = regexp.MustCompile(`mockgql (serve|import|mcp)\b|make run ARGS=|make cluster\b`)
	flagsPage  = regexp.MustCompile("^\\| `--([a-z][a-z0-9-]*)` \\|[^|]*\\| `([A-Z0-9_]+)` \\|")
)

// mentionedFlags returns the --flags a page mentions: everywhere in its
// prose, and in its code blocks on lines that run mockgql.
func mentionedFlags(lines []docLine) map[string][]int {
	out := map[string][]int{}
	for _, l := range lines {
		text := l.text
		if l.fenced {
			loc := invocation.FindStringIndex(text)
			if loc == nil {
				continue
			}
			text = text[loc[0]:]
		}
		for _, m := range docFlag.FindAllStringSubmatch(text, -1) {
			out[m[1]] = append(out[m[1]], l.num)
		}
	}
	return out
}

// TestDocsFlags: every --flag the doc pages mention is a flag of some
// mockgql command (or --help), and docs/reference/flags.md lists exactly
// the flags of each command's --help, each with its MGQ_ variable.
func TestDocsFlags(t *testing.T) {
	commands := []string{"serve", "import", "import-schema", "check-upstream", "mcp", "healthcheck"}
	have := map[string]bool{"help": true}
	helps := map[string][]string{}
	for _, c := range commands {
		helps[c] = commandHelp(t, c)
		for _, f := range helps[c] {
			have[f] = true
		}
	}
	for _, page := range docPages(t) {
		for f, at := range mentionedFlags(readDoc(t, page)) {
			if !have[f] {
				t.Errorf("%s:%v: --%s is a flag of no mockgql command (serve, import, import-schema, mcp, healthcheck)", page, at, f)
			}
		}
	}
	documented := documentedFlags(t)
	for _, c := range commands {
		want := slices.Clone(helps[c])
		sort.Strings(want)
		got := documented[c]
		for _, f := range want {
			if !slices.Contains(got, f) {
				t.Errorf("docs/reference/flags.md, section \"mockgql %s\": --%s (in `mockgql %s --help`) is not documented", c, f, c)
			}
		}
		for _, f := range got {
			if !slices.Contains(want, f) {
				t.Errorf("docs/reference/flags.md, section \"mockgql %s\": --%s is documented but `mockgql %s --help` has no such flag", c, f, c)
			}
		}
	}
}

// documentedFlags reads the flag tables of docs/reference/flags.md, by the
// "## mockgql <command>" section they are in, and checks each row's
// environment variable.
func documentedFlags(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	section := ""
	for _, l := range readDoc(t, "docs/reference/flags.md") {
		if m := heading.FindStringSubmatch(l.text); m != nil && !l.fenced {
			section = strings.TrimPrefix(m[1], "mockgql ")
			continue
		}
		m := flagsPage.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		if m[2] != envName(m[1]) {
			t.Errorf("docs/reference/flags.md:%d: --%s reads %s, not %s", l.num, m[1], envName(m[1]), m[2])
		}
		out[section] = append(out[section], m[1])
	}
	return out
}

// TestDocsCheckParsers pins what the docs check counts as an anchor, a
// link and a flag mention.
func TestDocsCheckParsers(t *testing.T) {
	anchorsTests := []struct{ heading, anchor string }{
		{"Over GraphQL (`/public-graphql`)", "over-graphql-public-graphql"},
		{"mockgql serve", "mockgql-serve"},
		{"From a page in the browser (CORS)", "from-a-page-in-the-browser-cors"},
		{"Faults and the request log", "faults-and-the-request-log"},
	}
	for _, tt := range anchorsTests {
		if got := anchorOf(tt.heading); got != tt.anchor {
			t.Errorf("anchorOf(%q) = %q, want %q", tt.heading, got, tt.anchor)
		}
	}
	linkTests := []struct {
		line  docLine
		links []string
	}{
		{docLine{text: "see [flags](reference/flags.md#mockgql-serve) and ![x](a.png)"}, []string{"reference/flags.md#mockgql-serve", "a.png"}},
		{docLine{text: "not a link: `[a](b.md)`"}, nil},
		{docLine{text: "[a](b.md)", fenced: true}, nil},
	}
	for _, tt := range linkTests {
		if got := links(tt.line); !slices.Equal(got, tt.links) {
			t.Errorf("links(%q) = %q, want %q", tt.line.text, got, tt.links)
		}
	}
	flagTests := []struct {
		line  docLine
		flags []string
	}{
		{docLine{text: "set `--ip-limit` (60) or --http"}, []string{"http", "ip-limit"}},
		{docLine{text: "git describe --tags", fenced: true}, nil},
		{docLine{text: "./bin/mockgql import --server $B --code x", fenced: true}, []string{"code", "server"}},
		{docLine{text: "a path a/--b and x--y"}, nil},
	}
	for _, tt := range flagTests {
		var got []string
		for f := range mentionedFlags([]docLine{tt.line}) {
			got = append(got, f)
		}
		sort.Strings(got)
		if !slices.Equal(got, tt.flags) {
			t.Errorf("mentionedFlags(%q) = %q, want %q", tt.line.text, got, tt.flags)
		}
	}
}

var (
	// docCommand is a mockgql command line in code: a code span or a
	// command that begins with mockgql (or bin/mockgql, go run ./cmd/mockgql).
	docCommand = regexp.MustCompile(`(?:^|[;&|(]\s*)(?:\./)?(?:bin/|go run \./cmd/)?mockgql ([a-z][a-z-]*)`)
	// docMake is a make target in code: `make bench`.
	docMake = regexp.MustCompile(`(?:^|[\s` + "`" + `(])make ([a-z][a-z-]*)`)
	// docBenchGroup is a benchmark group in code: `-only mix`.
	docBenchGroup = regexp.MustCompile(`-only ([a-z]+)`)
	usageCommand  = regexp.MustCompile(`(?m)^  ([a-z][a-z-]*) {2,}`)
	makeTarget    = regexp.MustCompile(`(?m)^([a-z][a-z-]*):`)
	benchGroup    = regexp.MustCompile(`runs\("([a-z]+)"\)`)
)

// codeOf returns what a line holds as code: the whole of a fenced line,
// the code spans of another.
func codeOf(l docLine) []string {
	if l.fenced {
		return []string{l.text}
	}
	var spans []string
	for _, s := range codeSpan.FindAllString(l.text, -1) {
		spans = append(spans, strings.Trim(s, "`"))
	}
	return spans
}

// TestDocsCommands: the commands the doc pages show in code still exist:
// `mockgql <command>` is a command of the binary, `make <target>` a target
// of the Makefile, `-only <group>` a group of cmd/benchmark.
func TestDocsCommands(t *testing.T) {
	var usageOut bytes.Buffer
	if code := run([]string{"help"}, &usageOut, io.Discard); code != 0 {
		t.Fatalf("mockgql help: exit %d", code)
	}
	commands := map[string]bool{}
	for _, m := range usageCommand.FindAllStringSubmatch(usageOut.String(), -1) {
		commands[m[1]] = true
	}
	if !commands["serve"] || !commands["import"] {
		t.Fatalf("read the commands %v from mockgql help:\n%s", commands, usageOut.String())
	}
	targets := sourceNames(t, makeTarget, "Makefile")
	groups := sourceNames(t, benchGroup, "cmd/benchmark/*.go")
	seen := map[string]int{}
	for _, page := range docPages(t) {
		for _, l := range readDoc(t, page) {
			for _, code := range codeOf(l) {
				check := func(re *regexp.Regexp, known map[string]bool, what string) {
					for _, m := range re.FindAllStringSubmatch(code, -1) {
						seen[what]++
						if !known[m[1]] {
							t.Errorf("%s:%d: %q: %q is no %s", page, l.num, strings.TrimSpace(code), m[1], what)
						}
					}
				}
				check(docCommand, commands, "mockgql command (mockgql help)")
				check(docMake, targets, "target of the Makefile")
				check(docBenchGroup, groups, "group of cmd/benchmark (its runs(\"…\") calls)")
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("the pages showed only these kinds of commands: %v", seen)
	}
}

// sourceNames returns the first submatches of re in the files glob names,
// relative to the root.
func sourceNames(t *testing.T, re *regexp.Regexp, glob string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, glob))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files %s: %v", glob, err)
	}
	names := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
	}
	if len(names) < 3 {
		t.Fatalf("found only %v in %s", names, glob)
	}
	return names
}
