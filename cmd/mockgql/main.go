// Command mockgql runs a node of the mockgql service (mockgql serve), talks
// to a running one (mockgql import, mockgql import-schema) and compares GraphQL schemas offline
// (mockgql schema diff).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// usage is what `mockgql help` prints; each command's --help lists its flags.
const usage = `usage: mockgql <command> [flags]

commands:
  serve    run a node: mockgql serve [--http 127.0.0.1:8080] [--data ./data] [flags]
           (every flag also reads MGQ_<FLAG>; mockgql serve --help lists them)
  import   upload a dataset to a running node:
           mockgql import --server URL --token JWT --code CODE --format json|ndjson|csv [--variant-field V] FILE
  import-schema  make a project serve a GraphQL schema (SDL or introspection JSON):
           mockgql import-schema --server URL --token JWT (--project ID | --new NAME) FILE
  check-upstream  the drift check: how the real API differs from a project's schema, and
           which client documents fail on it (exit 1 when something breaks):
           mockgql check-upstream --server URL --token JWT --project ID --url UPSTREAM
             [--header 'Authorization: Bearer …'] [--documents 'src/**/*.graphql']
  schema   compare two schemas offline: mockgql schema diff OLD.graphql NEW.graphql
  mcp      an MCP server on stdin/stdout for assistants that launch a command,
           forwarding to a node's /mcp: mockgql mcp --server URL
  healthcheck  exit 0 if a node answers /readyz with 200 (the image's HEALTHCHECK):
           mockgql healthcheck [--url http://127.0.0.1:8080/readyz]
  help     print this text
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command line: it returns the process's exit code. With no
// command it prints the usage and exits 2 (it used to start serving
// silently); help, -h and --help print it and exit 0, as does a
// command's --help after its flags' usage.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nmockgql: no command given; to run a node: mockgql serve")
		return 2
	}
	cmd, args := args[0], args[1:]
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "import":
		err = importCmd(args)
	case "import-schema":
		err = importSchemaCmd(args, stdout)
	case "check-upstream":
		err = checkUpstreamCmd(args, stdout)
	case "schema":
		err = schemaCmd(args, stdout)
	case "mcp":
		err = mcpCmd(args)
	case "healthcheck":
		err = healthcheckCmd(args, stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "mockgql: unknown command %q (serve, import, import-schema, check-upstream, schema, mcp, healthcheck, help)\n\n%s", cmd, usage)
		return 2
	}
	var exit *exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp): // the flag set printed its usage
		return 0
	case errors.As(err, &exit):
		fmt.Fprintln(stderr, "mockgql:", err)
		return exit.code
	}
	fmt.Fprintln(stderr, "mockgql:", err)
	return 1
}
