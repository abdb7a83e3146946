package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// maxPageSize bounds run_query's pages (the runtime allows 1000): a tool
// result is read by a model, and MaxResultBytes bounds it anyway.
const maxPageSize = 50

type runQueryIn struct {
	sessionArg
	Operation     string          `json:"operation,omitempty" jsonschema:"a LIST operation's name, e.g. products: returns a page of rows with every field. Give this or query"`
	Page          int             `json:"page,omitempty" jsonschema:"1-based page (default 1)"`
	PageSize      int             `json:"pageSize,omitempty" jsonschema:"rows a page, 1 to 50 (default 10)"`
	SortField     string          `json:"sortField,omitempty" jsonschema:"an attribute name bound by SOURCE"`
	SortDirection sortDirection   `json:"sortDirection,omitempty"`
	Args          map[string]any  `json:"args,omitempty" jsonschema:"the operation's parameter values, e.g. {\"minPrice\": 10}; numbers unquoted, as stored"`
	Query         string          `json:"query,omitempty" jsonschema:"instead of operation: any GraphQL document against the project's runtime, e.g. { products(pageSize: 3) { items { id name category { name } } } }"`
	Variables     json.RawMessage `json:"variables,omitempty" jsonschema:"the query's variables, a JSON object"`
	Sandbox       string          `json:"sandbox,omitempty" jsonschema:"with query: run it in this sandbox of the project (as the header X-Mock-Sandbox does), e.g. test-1; test-1@cart-3 makes the sandbox from named state cart-3 on its first use"`
}

// runQueryOut is run_query's result, one shape per mode: an operation's
// page (items, total, page, pageSize) or a document's data, each with the
// GraphQL errors. A member of the other mode is absent, not zero, so that
// an assistant never reads "total: 0" beside a document's rows.
type runQueryOut struct {
	Items    *[]json.RawMessage `json:"items,omitempty" jsonschema:"operation mode: the page's rows"`
	Total    *int               `json:"total,omitempty" jsonschema:"operation mode: rows matching in all"`
	Page     *int               `json:"page,omitempty" jsonschema:"operation mode: the page"`
	PageSize *int               `json:"pageSize,omitempty" jsonschema:"operation mode: rows a page"`
	Data     json.RawMessage    `json:"data,omitempty" jsonschema:"query mode: the GraphQL data"`
	Errors   []json.RawMessage  `json:"errors" jsonschema:"GraphQL errors, e.g. NOT_READY when a table serves no rows yet"`
}

// runQuery runs the runtime for the session's project, counted against its
// daily calls like runtimeList: an operation's page through RuntimeList, or
// a GraphQL document through the runtime with the project's share token.
func (s *Server) runQuery(ctx context.Context, in runQueryIn) (runQueryOut, outcome, error) {
	if (in.Operation == "") == (in.Query == "") {
		return runQueryOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "give operation (a LIST operation's name) or query (a GraphQL document), not both or neither")
	}
	if in.PageSize < 0 || in.PageSize > maxPageSize {
		return runQueryOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "pageSize is 1 to %d, not %d", maxPageSize, in.PageSize)
	}
	if in.Sandbox != "" && in.Query == "" {
		return runQueryOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "sandbox goes with query, not operation")
	}
	if err := checkSandbox(in.Sandbox); err != nil {
		return runQueryOut{}, outcome{}, err
	}
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return runQueryOut{}, outcome{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.QueryTimeout)
	defer cancel()
	if in.Query != "" {
		return s.runDocument(ctx, pr, in)
	}
	list := model.RuntimeList{Operation: in.Operation, Args: in.Args, PageSize: &in.PageSize}
	if in.PageSize == 0 {
		list.PageSize = new(int)
		*list.PageSize = 10
	}
	if in.Page > 0 {
		list.Page = &in.Page
	}
	if in.SortField != "" {
		list.SortField = &in.SortField
	}
	if in.SortDirection != "" {
		d := string(in.SortDirection)
		list.SortDirection = &d
	}
	r, err := s.cfg.Backend.RuntimeList(ctx, p, pr.ID, list)
	if err != nil {
		return runQueryOut{}, outcome{}, err
	}
	items := r.Items
	if items == nil {
		items = []json.RawMessage{}
	}
	out := runQueryOut{Items: &items, Total: &r.Total, Page: &r.Page, PageSize: &r.PageSize, Errors: r.Errors}
	if out.Errors == nil {
		out.Errors = []json.RawMessage{}
	}
	text := fmt.Sprintf("%s: %d rows on page %d of %d in total.", in.Operation, len(r.Items), r.Page, r.Total)
	if len(r.Errors) > 0 {
		text += " Errors: " + string(r.Errors[0])
	}
	return out, outcome{text: text}, nil
}

// runDocument runs a GraphQL document as a client of runtimeUrl would.
func (s *Server) runDocument(ctx context.Context, pr *model.Project, in runQueryIn) (runQueryOut, outcome, error) {
	req := map[string]any{"query": in.Query}
	if len(in.Variables) > 0 {
		req["variables"] = in.Variables
	}
	body, err := json.Marshal(req)
	if err != nil {
		return runQueryOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "variables: %v", err)
	}
	res, err := s.cfg.Backend.Runtime(ctx, model.RuntimeRequest{Slug: pr.Slug, ShareToken: pr.ShareToken, Body: body, ProjectID: pr.ID, NoFaults: true, Sandbox: in.Sandbox})
	if e := model.AsError(err); e != nil && e.Code == model.CodeTooManyRequests {
		err = &model.Error{Code: model.CodeLimitReached, Message: e.Message, RetryAfter: e.RetryAfter} // as runtimeList names it
	}
	if err != nil {
		return runQueryOut{}, outcome{}, err
	}
	var g struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(res.Body, &g); err != nil {
		return runQueryOut{}, outcome{}, fmt.Errorf("mcp: the runtime's answer: %w", err)
	}
	out := runQueryOut{Data: g.Data, Errors: g.Errors}
	if out.Errors == nil {
		out.Errors = []json.RawMessage{}
	}
	if res.Status == 400 {
		return out, outcome{failed: true, text: "The runtime refused the query: " + string(firstOr(out.Errors))}, nil
	}
	text := fmt.Sprintf("%d bytes of data.", len(g.Data))
	if len(out.Errors) > 0 {
		text += " Errors: " + string(out.Errors[0])
	}
	return out, outcome{text: text}, nil
}

func firstOr(errs []json.RawMessage) json.RawMessage {
	if len(errs) == 0 {
		return json.RawMessage(`"(no detail)"`)
	}
	return errs[0]
}

type projectOut struct {
	ProjectID  string         `json:"projectId"`
	Name       string         `json:"name"`
	Slug       string         `json:"slug"`
	ExpiresAt  string         `json:"expiresAt"`
	RuntimeURL string         `json:"runtimeUrl"`
	PreviewURL string         `json:"previewUrl"`
	Ready      bool           `json:"ready" jsonschema:"every table serves rows and there is a list operation"`
	Problems   []string       `json:"problems" jsonschema:"what keeps the project from being ready, each with what to do"`
	Tables     []tableOut     `json:"tables"`
	Relations  []relationOut  `json:"relations"`
	Operations []operationOut `json:"operations"`
	Views      int            `json:"views"`
	SDL        string         `json:"sdl" jsonschema:"the runtime's GraphQL schema"`
}

func (s *Server) describeProject(ctx context.Context, in sessionArg) (projectOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return projectOut{}, outcome{}, err
	}
	sdl, err := s.cfg.Backend.SDL(ctx, p, pr.ID)
	if err != nil {
		return projectOut{}, outcome{}, err
	}
	pool, err := s.poolCodes(ctx)
	if err != nil {
		return projectOut{}, outcome{}, err
	}
	pool = pr.AddGenerated(pool)
	out := projectOut{ProjectID: pr.ID, Name: pr.Name, Slug: pr.Slug, ExpiresAt: stamp(pr.ExpiresAt), RuntimeURL: s.runtimeURL(pr),
		PreviewURL: s.previewURL(pr), Tables: []tableOut{}, Relations: []relationOut{}, Operations: []operationOut{},
		Views: len(pr.Views), SDL: sdl, Problems: problems(pr, pool)}
	for _, t := range pr.Tables {
		out.Tables = append(out.Tables, shapeTable(t, pool, pr.Kind))
	}
	for _, r := range pr.Relations {
		out.Relations = append(out.Relations, shapeRelation(r))
	}
	for _, o := range pr.Operations {
		out.Operations = append(out.Operations, shapeOperation(o))
	}
	out.Ready = len(out.Problems) == 0
	text := fmt.Sprintf("Project %q: %d tables, %d operations, live until %s.", pr.Name, len(pr.Tables), len(pr.Operations), out.ExpiresAt)
	if out.Ready {
		text += " Ready: runtimeUrl serves rows."
	} else {
		text += " Not ready: " + strings.Join(out.Problems, "; ")
	}
	return out, outcome{text: text}, nil
}

// problems lists what keeps pr from serving rows, with what to do.
func problems(pr *model.Project, pool map[string]bool) []string {
	out := []string{}
	if len(pr.Tables) == 0 {
		out = append(out, "no tables: create_table")
	}
	for _, t := range pr.Tables {
		if t.NotReadyIn(pool, pr.Kind) != "" {
			out = append(out, fmt.Sprintf("table %s (%s) %s", t.Name, t.ID, notReadyReason(t)))
		}
	}
	hasList := false
	for _, o := range pr.Operations {
		hasList = hasList || (o.Kind == model.OpList && o.Enabled)
	}
	if len(pr.Tables) > 0 && !hasList {
		out = append(out, "no enabled list operation: generate_operations")
	}
	return out
}

func (s *Server) addQueryTools() {
	addTool(s, &sdk.Tool{Name: "run_query", Title: "Query the mock runtime",
		Description: fmt.Sprintf("Runs the project's mock GraphQL runtime to check that data flows: a page of a LIST operation (operation) or any GraphQL document (query). Each call counts against the project's %d runtime calls a day.", s.cfg.Limits.DailyCalls)},
		s.runQuery)
	addTool(s, &sdk.Tool{Name: "describe_project", Title: "Describe the project", Annotations: readOnly(),
		Description: "The session's project: tables with their attributes and readiness (with the reason and the fix when not ready), relations, operations with their IDs and parameters, the GraphQL SDL, the runtime and preview URLs and the expiry."},
		s.describeProject)
}

func (s *Server) addTools() {
	s.addSessionTools()
	s.addModelTools()
	s.addContractTools()
	s.addQueryTools()
	s.addLogTools()
	s.addSandboxTools()
	s.addStateTools()
}
