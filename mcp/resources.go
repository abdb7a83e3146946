package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// Resource URIs. A project's SDL is reached through the session handle, as
// everything of a session is (SEP-2567: no protocol session to hang it on).
const (
	uriDataSources     = "mockgql://data-sources"
	uriDataSourcePre   = "mockgql://data-sources/"
	uriSessionSDLPre   = "mockgql://sessions/"
	uriSessionSDLSuf   = "/sdl"
	templateDataSource = "mockgql://data-sources/{importCode}"
	templateSessionSDL = "mockgql://sessions/{session}/sdl"
)

func (s *Server) addResources() {
	s.mcp.AddResource(&sdk.Resource{URI: uriDataSources, Name: "data-sources", Title: "The data pool", MIMEType: "application/json",
		Description: "Every dataset tables can be bound to: importCode, field paths, record count, variants, two sample documents each."},
		s.readDataSources)
	s.mcp.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: templateDataSource, Name: "data-source", Title: "One dataset", MIMEType: "application/json",
		Description: "One dataset of the data pool with five sample documents."}, s.readDataSources)
	s.mcp.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: templateSessionSDL, Name: "project-sdl", Title: "The project's GraphQL schema", MIMEType: "application/graphql",
		Description: "The runtime GraphQL schema (SDL) of the session's project; {session} is the handle create_session_project returned."}, s.readSDL)
}

// readDataSources serves the data pool, or one dataset of it.
func (s *Server) readDataSources(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	in := dataSourcesIn{}
	if code, ok := strings.CutPrefix(uri, uriDataSourcePre); ok {
		five := 5
		in = dataSourcesIn{ImportCode: code, Samples: &five}
	} else if uri != uriDataSources {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	out, _, err := s.listDataSources(ctx, in)
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, s.toolError("resources/read", err)
	}
	var v any = out.DataSources
	if in.ImportCode != "" {
		v = out.DataSources[0]
	}
	return s.jsonResource(uri, v)
}

// readSDL serves the SDL of a session's project.
func (s *Server) readSDL(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, hasPrefix := strings.CutPrefix(uri, uriSessionSDLPre)
	handle, hasSuffix := strings.CutSuffix(rest, uriSessionSDLSuf)
	if !hasPrefix || !hasSuffix {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	p, pr, err := s.project(ctx, handle)
	if err != nil {
		return nil, s.toolError("resources/read", err)
	}
	sdl, err := s.cfg.Backend.SDL(ctx, p, pr.ID)
	if err != nil {
		return nil, s.toolError("resources/read", err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/graphql", Text: sdl}}}, nil
}

func (s *Server) jsonResource(uri string, v any) (*sdk.ReadResourceResult, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, s.toolError("resources/read", err)
	}
	if len(b) > s.cfg.MaxResultBytes {
		return nil, fmt.Errorf("LIMIT_REACHED: the resource is %d bytes, over the %d-byte limit; read one dataset, %s{importCode}", len(b), s.cfg.MaxResultBytes, uriDataSourcePre)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// promptBuild is the prompt that walks an assistant through the flow.
const promptBuild = "build_mock_backend"

func (s *Server) addPrompts() {
	s.mcp.AddPrompt(&sdk.Prompt{Name: promptBuild, Title: "Build a mock backend for …",
		Description: "Walks through building a mock GraphQL backend over real sample data for what the person describes, and handing it over.",
		Arguments: []*sdk.PromptArgument{{Name: "description", Required: true,
			Description: "what the backend is for, e.g. \"a shop with products, categories and orders\""}}},
		s.buildPrompt)
}

func (s *Server) buildPrompt(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	desc := strings.TrimSpace(req.Params.Arguments["description"])
	if desc == "" {
		return nil, fmt.Errorf("BAD_USER_INPUT: the description argument says what the backend is for")
	}
	l := s.cfg.Limits
	text := fmt.Sprintf(`Build a mock GraphQL backend for: %s

Use the mockgql tools, in this order:
1. create_session_project with a short name. Keep the "session" it returns and pass it to every other tool.
2. list_data_sources. Pick the datasets whose field paths fit each entity; note importCode, fieldPaths, variants.
3. create_table for each entity (PascalCase singular name, importCode, and a variant if only one subset fits). At most %d tables.
4. add_attributes once per table with all its fields: mapping SOURCE with a path from fieldPaths; CONSTANT or GENERATED for what the data lacks. At most %d a table; include the foreign keys (e.g. categoryId).
5. create_relation for each link: in a ONE_TO_MANY the target table holds the foreign key; give fieldName and inverseFieldName.
6. generate_operations, then update_operation to add filter parameters to list operations the app needs (e.g. minPrice: price gte).
7. generate_views.
8. run_query on each list operation and check rows come back (each call counts against %d a day); fix what describe_project reports as not ready.
9. get_adoption_link and give the person the adoptionUrl (one use, valid %s) and the runtimeUrl. The project is deleted after %s unless they sign up from the board.`,
		desc, l.Tables, l.Attributes, l.DailyCalls, span(l.AdoptionTTL), span(l.ProjectTTL))
	return &sdk.GetPromptResult{Description: "Build a mock backend for " + clip(desc, 80),
		Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}}, nil
}
