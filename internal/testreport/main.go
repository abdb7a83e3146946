// Command testreport reads `go test -json` on stdin, prints what go test
// prints without -json (the ok and FAIL lines of each package, and the
// output of each failing test, exactly as go test writes them), then the
// slowest tests. It exits 1 when a test, a package or a build failed, or
// when stdin held no test events at all, so `make test` fails as go test
// would:
//
//	go test -json ./... | go run ./internal/testreport -top 20
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	top := flag.Int("top", 20, "how many of the slowest tests to list")
	flag.Parse()
	r := newReport(os.Stdout)
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	r.slowest(os.Stdout, *top)
	if r.failed || r.events == 0 {
		if r.events == 0 {
			fmt.Println("testreport: no test events on stdin")
		}
		os.Exit(1)
	}
}
