package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tool of SDL-first projects (docs/using/contract.md): the session's
// project serves a GraphQL schema the person already has.

type importSchemaIn struct {
	sessionArg
	SDL  string  `json:"sdl" jsonschema:"the GraphQL schema to serve exactly: SDL, or an introspection result ({\"data\":{\"__schema\":…}} or {\"__schema\":…}); up to 4 MB of SDL or 16 MB of introspection JSON"`
	Seed *string `json:"seed,omitempty" jsonschema:"seeds the generated rows: every project importing the same schema with the same seed serves the same rows; absent keeps the last seed, empty goes back to the project's own"`
}

type importSchemaOut struct {
	ProjectID   string         `json:"projectId"`
	Version     int            `json:"version" jsonschema:"1 for the first import, one more for each new version"`
	RuntimeURL  string         `json:"runtimeUrl" jsonschema:"the mock GraphQL endpoint, share token included: it answers the schema's own queries and mutations"`
	Tables      []string       `json:"tables" jsonschema:"the object types served as tables of generated, related rows"`
	Report      []string       `json:"report" jsonschema:"how each root field is served, one line each"`
	Unsupported []string       `json:"unsupported" jsonschema:"what is accepted but not interpreted (generated values, ignored arguments)"`
	Changes     []schemaChange `json:"changes" jsonschema:"the changes from the previous version, BREAKING first; empty on the first import"`
}

type schemaChange struct {
	Criticality string `json:"criticality" jsonschema:"BREAKING, DANGEROUS or SAFE"`
	Path        string `json:"path"`
	Message     string `json:"message"`
}

// importSchema makes the session's project serve in.SDL.
func (s *Server) importSchema(ctx context.Context, in importSchemaIn) (importSchemaOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return importSchemaOut{}, outcome{}, err
	}
	res, err := s.cfg.Backend.ImportGraphQLSchema(ctx, p, pr.ID, in.SDL, in.Seed)
	if err != nil {
		return importSchemaOut{}, outcome{}, err
	}
	out := importSchemaOut{ProjectID: pr.ID, Tables: res.Tables, Report: []string{}, Unsupported: res.Unsupported, Changes: []schemaChange{}}
	if res.Project != nil {
		out.RuntimeURL = s.runtimeURL(res.Project)
		if res.Project.Contract != nil {
			out.Version = res.Project.Contract.Version
		}
	}
	for _, f := range res.Report {
		out.Report = append(out.Report, strings.ToLower(f.Root)+" "+f.Description)
	}
	for _, c := range res.Changes {
		out.Changes = append(out.Changes, schemaChange{Criticality: c.Criticality, Path: c.Path, Message: c.Message})
	}
	text := fmt.Sprintf("The project now serves the schema (version %d): %s, %s. Query it at runtimeUrl with the schema's own queries; describe_project shows the SDL.",
		out.Version, plural(len(out.Tables), "table"), plural(len(out.Report), "root field"))
	if len(out.Changes) > 0 {
		text += fmt.Sprintf(" %s from the previous version.", plural(len(out.Changes), "change"))
	}
	return out, outcome{text: text}, nil
}

// addContractTools registers import_graphql_schema.
func (s *Server) addContractTools() {
	addTool(s, &sdk.Tool{Name: "import_graphql_schema", Title: "Serve a GraphQL schema",
		Description: fmt.Sprintf("Makes the session's project serve a GraphQL schema the person already has (SDL or an introspection result), exactly: its types, fields and arguments, with deterministic related rows per object type and mutations that persist. Replaces the project's tables; a second call is a new version and lists the changes. Up to %d tables.", s.cfg.Limits.Tables)},
		s.importSchema)
}
