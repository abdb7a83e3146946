package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The docs check of the flags' defaults: the "default" column of
// docs/reference/flags.md says what each command's --help says.

var (
	// helpGoDefault is the "(default V)" flag.PrintDefaults appends to a
	// flag's usage when its default is not the zero value (V quoted for
	// a string flag).
	helpGoDefault = regexp.MustCompile(`\(default ("(?:[^"\\]|\\.)*"|[^()]*)\)$`)
	// helpOwnDefault is the "(default: …)" a usage writes itself for a
	// default that is worked out at start (--base-url: from --http).
	helpOwnDefault = regexp.MustCompile(`\(default: ([^()]*)\)`)
	flagsRow       = regexp.MustCompile("^\\| `--([a-z][a-z0-9-]*)` \\| ([^|]*) \\|")
)

// helpDefaults returns the flags of `mockgql <command> --help`, each with
// its default as the help writes it: Go's "(default V)", else the usage's
// own "(default: D)", else "" (the zero value: none, false, 0).
func helpDefaults(help string) map[string]string {
	usage := map[string]string{}
	name := ""
	for _, line := range strings.Split(help, "\n") {
		if m := helpFlag.FindStringSubmatch(line); m != nil {
			name = m[1]
			usage[name] = ""
			continue
		}
		if name != "" && strings.HasPrefix(line, "    \t") {
			usage[name] = strings.TrimSpace(usage[name] + " " + strings.TrimSpace(line))
		}
	}
	out := map[string]string{}
	for f, u := range usage {
		switch m, own := helpGoDefault.FindStringSubmatch(u), helpOwnDefault.FindStringSubmatch(u); {
		case m != nil:
			v := m[1]
			if s, err := strconv.Unquote(v); err == nil {
				v = s
			}
			out[f] = v
		case own != nil:
			out[f] = own[1]
		default:
			out[f] = ""
		}
	}
	return out
}

// docDefaults returns the "default" cells of a section of flags.md.
func docDefaults(t *testing.T) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	section := ""
	for _, l := range readDoc(t, "docs/reference/flags.md") {
		if m := heading.FindStringSubmatch(l.text); m != nil && !l.fenced {
			section = strings.TrimPrefix(m[1], "mockgql ")
			continue
		}
		if m := flagsRow.FindStringSubmatch(l.text); m != nil {
			if out[section] == nil {
				out[section] = map[string]string{}
			}
			out[section][m[1]] = m[2]
		}
	}
	return out
}

// sameDefault reports whether a documented default says what the help's
// does. The page may add a unit in brackets ("33554432 (32 MiB)"), quote
// code in backticks, and write a duration shorter (15m for 15m0s); an
// empty default is documented as "(none)", false or 0; the host name
// --node defaults to as "the host name".
func sameDefault(help, doc, hostname string) bool {
	doc = strings.ReplaceAll(strings.TrimSpace(doc), "`", "")
	if i := strings.Index(doc, " ("); i > 0 && strings.HasSuffix(doc, ")") {
		doc = doc[:i]
	}
	if hostname != "" && help == hostname {
		help = "the host name"
	}
	if help == "" {
		return doc == "(none)" || doc == "false" || doc == "0"
	}
	if h, err := time.ParseDuration(help); err == nil {
		d, err := time.ParseDuration(doc)
		return err == nil && d == h
	}
	return doc == help
}

// TestDocsFlagDefaults: every flag's default in docs/reference/flags.md is
// the one its command's --help shows, and every flag of a --help has a
// documented default.
func TestDocsFlagDefaults(t *testing.T) {
	hostname, _ := os.Hostname()
	parserTests := []struct {
		help, doc string
		same      bool
	}{
		{"15m0s", "15m", true},
		{"15m0s", "16m", false},
		{"33554432", "33554432 (32 MiB)", true},
		{"33554432", "32 MiB", false},
		{"./data", "`./data`", true},
		{"", "(none)", true},
		{"", "false", true},
		{"", "60", false},
		{"from --http", "from `--http`", true},
		{"600", "60", false},
	}
	for _, tt := range parserTests {
		if got := sameDefault(tt.help, tt.doc, "host"); got != tt.same {
			t.Errorf("sameDefault(%q, %q) = %v, want %v", tt.help, tt.doc, got, tt.same)
		}
	}
	parsed := helpDefaults("  -a duration\n    \tx (default 15m0s)\n  -b string\n    \ty (default: from --http)\n  -c string\n    \tz (default \"./d\")\n  -no-d\n    \tw\n")
	if want := map[string]string{"a": "15m0s", "b": "from --http", "c": "./d", "no-d": ""}; len(parsed) != len(want) ||
		parsed["a"] != want["a"] || parsed["b"] != want["b"] || parsed["c"] != want["c"] || parsed["no-d"] != "" {
		t.Errorf("helpDefaults = %q, want %q", parsed, want)
	}

	documented := docDefaults(t)
	compared := 0
	for _, c := range []string{"serve", "import", "import-schema", "check-upstream", "mcp"} {
		help := helpDefaults(helpText(t, c))
		doc := documented[c]
		for f, h := range help {
			d, ok := doc[f]
			if !ok {
				t.Errorf("docs/reference/flags.md, section \"mockgql %s\": --%s has no row (its default is %q)", c, f, h)
				continue
			}
			compared++
			if !sameDefault(h, d, hostname) {
				t.Errorf("docs/reference/flags.md, section \"mockgql %s\": --%s defaults to %q, but `mockgql %s --help` says %q", c, f, strings.TrimSpace(d), c, h)
			}
		}
		for f := range doc {
			if _, ok := help[f]; !ok {
				t.Errorf("docs/reference/flags.md, section \"mockgql %s\": --%s is documented but `mockgql %s --help` has no such flag", c, f, c)
			}
		}
	}
	if compared < 60 {
		t.Errorf("compared only %d defaults; the help or the page parser is wrong", compared)
	}
}
