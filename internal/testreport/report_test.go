package main

import (
	"bytes"
	"strings"
	"testing"
)

// stream is `go test -json` of two packages: p/a passes (one test skips),
// p/b has a failing subtest and one that panics the binary.
const stream = `{"Action":"start","Package":"p/a"}
{"Action":"run","Package":"p/a","Test":"TestFast"}
{"Action":"output","Package":"p/a","Test":"TestFast","Output":"=== RUN   TestFast\n"}
{"Action":"output","Package":"p/a","Test":"TestFast","Output":"--- PASS: TestFast (0.01s)\n"}
{"Action":"pass","Package":"p/a","Test":"TestFast","Elapsed":0.01}
{"Action":"output","Package":"p/a","Test":"TestSlow","Output":"--- PASS: TestSlow (3.50s)\n"}
{"Action":"pass","Package":"p/a","Test":"TestSlow","Elapsed":3.5}
{"Action":"output","Package":"p/a","Test":"TestSkip","Output":"--- SKIP: TestSkip (0.00s)\n"}
{"Action":"skip","Package":"p/a","Test":"TestSkip","Elapsed":0}
{"Action":"output","Package":"p/a","Output":"PASS\n"}
{"Action":"output","Package":"p/a","Output":"testing: warning: no tests to run\n"}
{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t3.6s\n"}
{"Action":"pass","Package":"p/a","Elapsed":3.6}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"p/b","Test":"TestBad/fine","Output":"    b_test.go:5: all well\n"}
{"Action":"output","Package":"p/b","Test":"TestBad/fine","Output":"--- PASS: TestBad/fine (0.00s)\n"}
{"Action":"pass","Package":"p/b","Test":"TestBad/fine","Elapsed":0}
{"Action":"output","Package":"p/b","Test":"TestBad/case","Output":"=== RUN   TestBad/case\n"}
{"Action":"output","Package":"p/b","Test":"TestBad/case","Output":"    b_test.go:9: want 1, got 2\n"}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"--- FAIL: TestBad (1.00s)\n"}
{"Action":"output","Package":"p/b","Test":"TestBad/case","Output":"    --- FAIL: TestBad/case (1.00s)\n"}
{"Action":"fail","Package":"p/b","Test":"TestBad/case","Elapsed":1}
{"Action":"fail","Package":"p/b","Test":"TestBad","Elapsed":1}
{"Action":"output","Package":"p/b","Test":"TestHang","Output":"=== RUN   TestHang\n"}
{"Action":"output","Package":"p/b","Test":"TestHang","Output":"panic: test timed out after 1m0s\n"}
{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t60.0s\n"}
{"Action":"fail","Package":"p/b","Elapsed":60}
`

// TestReport: the plain output keeps go test's ok and FAIL lines and the
// output of failing tests and subtests verbatim (a hung test's panic
// included), drops -v's progress lines and what passing subtests of a
// failing test wrote, ranks the slowest tests and records the failure.
func TestReport(t *testing.T) {
	tests := []struct {
		name, in         string
		want, notWant    []string
		failed, noEvents bool
	}{
		{"passing package", stream[:strings.Index(stream, `{"Action":"output","Package":"p/b"`)],
			[]string{"ok  \tp/a\t3.6s\n", "slowest 3 tests of 3:\n", "3.50s  pass  p/a  TestSlow\n"},
			[]string{"PASS\n", "=== RUN", "--- PASS", "warning"}, false, false},
		{"failing package", stream,
			[]string{"ok  \tp/a\t3.6s\n", "    b_test.go:9: want 1, got 2\n--- FAIL: TestBad (1.00s)\n    --- FAIL: TestBad/case (1.00s)\n",
				"panic: test timed out after 1m0s\nFAIL\tp/b\t60.0s\n", "1.00s  fail  p/b  TestBad\n"},
			[]string{"=== RUN", "all well", "--- PASS"}, true, false},
		{"not json", "# p/c\nc.go:1: syntax error\n", []string{"c.go:1: syntax error\n"}, nil, true, true},
		{"build failure", `{"ImportPath":"p/c","Action":"build-output","Output":"c.go:1: syntax error\n"}
{"ImportPath":"p/c","Action":"build-fail"}
{"Action":"output","Package":"p/c","Output":"FAIL\tp/c [build failed]\n"}
{"Action":"fail","Package":"p/c","Elapsed":0}
`, []string{"c.go:1: syntax error\nFAIL\tp/c [build failed]\n"}, nil, true, false},
		{"empty", "", nil, nil, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			r := newReport(&out)
			if err := r.read(strings.NewReader(tt.in)); err != nil {
				t.Fatal(err)
			}
			r.slowest(&out, 20)
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(strings.ReplaceAll(out.String(), "slowest", ""), w) {
					t.Errorf("output has %q:\n%s", w, out.String())
				}
			}
			if r.failed != tt.failed || (r.events == 0) != tt.noEvents {
				t.Errorf("failed %v, events %d; want failed %v, no events %v", r.failed, r.events, tt.failed, tt.noEvents)
			}
		})
	}
}
