// Command mockgql runs a node of the mockgql service (mockgql serve), talks
// to a running one (mockgql import) and compares GraphQL schemas offline
// (mockgql schema diff).
package main

import (
	"errors"
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
	case "schema":
		err = schemaCmd(args, os.Stdout)
	case "mcp":
		err = mcpCmd(args)
	case "help", "-h", "--help":
		fmt.Println("usage: mockgql serve [flags] | mockgql import --code CODE --format json|ndjson|csv [--variant-field V] FILE | mockgql schema diff OLD.graphql NEW.graphql | mockgql mcp --server URL")
		return
	default:
		err = fmt.Errorf("unknown command %q (serve, import, schema, mcp)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockgql:", err)
		var exit *exitError
		if errors.As(err, &exit) {
			os.Exit(exit.code)
		}
		os.Exit(1)
	}
}
