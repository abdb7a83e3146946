// Command mockgql runs a node of the mockgql service (mockgql serve) and
// talks to a running one (mockgql import).
package main

import (
	"fmt"
	"os"
)

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "import":
		err = importCmd(args)
	case "help", "-h", "--help":
		fmt.Println("usage: mockgql serve [flags] | mockgql import --code CODE --format json|ndjson|csv [--variant-field V] FILE")
		return
	default:
		err = fmt.Errorf("unknown command %q (serve, import)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockgql:", err)
		os.Exit(1)
	}
}
