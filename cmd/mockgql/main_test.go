package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCommandLine: help is asked for with exit 0 and the usage on stdout
// (--help used to exit 1 with "flag: help requested"); no command prints
// the usage and exits 2 (it used to start serving silently); an unknown
// command exits 2 naming it; a command's --help exits 0 (its flags go to the process's stderr).
func TestCommandLine(t *testing.T) {
	tests := []struct {
		args             []string
		code             int
		stdout, stderr   string
		notOut, notStder string
	}{
		{[]string{"--help"}, 0, "usage: mockgql <command>", "", "", "help requested"},
		{[]string{"-h"}, 0, "mockgql serve", "", "", ""},
		{[]string{"help"}, 0, "schema diff", "", "", ""},
		{nil, 2, "", "no command given", "usage", ""},
		{[]string{"--http", ":0"}, 2, "", `unknown command "--http"`, "", ""},
		// The flag sets print their flags to the process's stderr.
		{[]string{"serve", "--help"}, 0, "", "", "", "help requested"},
		{[]string{"import", "--help"}, 0, "", "", "", "help requested"},
		{[]string{"schema"}, 2, "", "schema diff", "", ""},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		if code != tt.code || !strings.Contains(out.String(), tt.stdout) || !strings.Contains(errb.String(), tt.stderr) ||
			tt.notOut != "" && strings.Contains(out.String(), tt.notOut) || tt.notStder != "" && strings.Contains(errb.String(), tt.notStder) {
			t.Errorf("mockgql %q: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tt.args, code, out.String(), errb.String(), tt.code, tt.stdout, tt.stderr)
		}
	}
}
