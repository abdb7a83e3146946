package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// importSchemaUsage is the usage of `mockgql import-schema`.
const importSchemaUsage = "usage: mockgql import-schema --server URL --token JWT (--project ID | --new NAME) FILE"

// importSchemaCmd is `mockgql import-schema`: it sends a GraphQL schema
// (SDL or an introspection result) to a running node's management API,
// into a project (importGraphQLSchema: a first import or a new version)
// or into a new project (createProject with sdl), and prints how each
// root field is served, what is not interpreted and what changed
// (docs/using/contract.md).
func importSchemaCmd(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("import-schema", flag.ContinueOnError)
	server := fs.String("server", defaultServer(), "server base URL")
	token := fs.String("token", "", "JWT or FULL/MANAGEMENT API key")
	project := fs.String("project", "", "ID of the project to import into (a new version when it serves a schema already)")
	newName := fs.String("new", "", "name of a new project to make from the schema (instead of --project)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || (*project == "") == (*newName == "") {
		return &exitError{code: 2, msg: importSchemaUsage}
	}
	doc, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	if max := schemaBound(doc); len(doc) > max {
		return &exitError{code: 2, msg: fmt.Sprintf("%s is %d bytes; a schema is at most %d (PAYLOAD_TOO_LARGE)", fs.Arg(0), len(doc), max)}
	}
	c := managementClient{server: strings.TrimRight(*server, "/"), token: *token}
	if *newName != "" {
		return c.createFromSchema(out, *newName, string(doc))
	}
	return c.importSchema(out, *project, string(doc))
}

// managementClient calls a node's /graphql.
type managementClient struct{ server, token string }

// reportFields selects a GraphQLSchemaImport's report.
const reportFields = `report { root name description } unsupported changes { criticality type path message }`

// importSchema runs importGraphQLSchema and prints its answer.
func (c managementClient) importSchema(out io.Writer, projectID, sdl string) error {
	var data struct {
		Import schemaImport `json:"importGraphQLSchema"`
	}
	q := `mutation($p: ID!, $s: String!) { importGraphQLSchema(projectId: $p, sdl: $s) { project { id slug runtimeUrl contract { version } } ` + reportFields + ` } }`
	if err := c.do(q, map[string]any{"p": projectID, "s": sdl}, &data); err != nil {
		return err
	}
	data.Import.print(out)
	return nil
}

// createFromSchema runs createProject with sdl and prints the new project's report.
func (c managementClient) createFromSchema(out io.Writer, name, sdl string) error {
	var data struct {
		Project schemaProject `json:"createProject"`
	}
	q := `mutation($n: String!, $s: String!) { createProject(name: $n, sdl: $s) { id slug runtimeUrl contract { version report { root name description } } } }`
	if err := c.do(q, map[string]any{"n": name, "s": sdl}, &data); err != nil {
		return err
	}
	in := schemaImport{Project: data.Project}
	if data.Project.Contract != nil {
		in.Report = data.Project.Contract.Report
	}
	in.print(out)
	return nil
}

// schemaProject is the part of a Project the command prints.
type schemaProject struct {
	ID, Slug, RuntimeURL string
	Contract             *struct {
		Version int
		Report  []model.ContractField
	}
}

// schemaImport is a GraphQLSchemaImport as the command reads it.
type schemaImport struct {
	Project     schemaProject
	Report      []model.ContractField
	Unsupported []string
	Changes     []model.SchemaChange
}

// print writes the project, the report, what is not interpreted and the
// changes.
func (in schemaImport) print(out io.Writer) {
	v := 0
	if in.Project.Contract != nil {
		v = in.Project.Contract.Version
	}
	fmt.Fprintf(out, "project %s (%s), schema version %d\nruntime: %s\n", in.Project.Slug, in.Project.ID, v, in.Project.RuntimeURL)
	for _, f := range in.Report {
		fmt.Fprintf(out, "  %-12s %s\n", strings.ToLower(f.Root), f.Description)
	}
	for _, u := range in.Unsupported {
		fmt.Fprintf(out, "  not interpreted: %s\n", u)
	}
	if len(in.Changes) > 0 {
		fmt.Fprintln(out, "changes from the previous version:")
		_ = printChanges(out, in.Changes) // an import is done: a BREAKING change is news, not a failure
	}
}

// do posts a GraphQL request and decodes its data into into; an error in
// errors[] (or an HTTP refusal) is returned with its code.
func (c managementClient) do(query string, vars map[string]any, into any) error {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, err := http.NewRequest(http.MethodPost, c.server+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	var res struct {
		Data   json.RawMessage
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
		Code, Detail string
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("%s: %.200s", resp.Status, raw)
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("%s: %s", res.Errors[0].Extensions.Code, res.Errors[0].Message)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s", resp.Status, res.Code, res.Detail)
	}
	return json.Unmarshal(res.Data, into)
}

// schemaBound is the largest doc the server takes: contract.MaxSDLBytes
// of SDL, contract.MaxDocumentBytes of introspection JSON.
func schemaBound(doc []byte) int {
	if t := bytes.TrimSpace(doc); len(t) > 0 && t[0] == '{' {
		return contract.MaxDocumentBytes
	}
	return contract.MaxSDLBytes
}
