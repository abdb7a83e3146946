package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// sessionArg is the argument every tool on a project takes.
type sessionArg struct {
	Session string `json:"session" jsonschema:"the session handle create_session_project returned (mcs_…), unchanged"`
}

// principal opens a session handle into the principal the use cases check.
func (s *Server) principal(handle string) (model.Principal, error) {
	id, err := s.seal.open(handle)
	return model.Principal{SessionID: id}, err
}

// project is the session's live session project.
func (s *Server) project(ctx context.Context, handle string) (model.Principal, *model.Project, error) {
	p, err := s.principal(handle)
	if err != nil {
		return p, nil, err
	}
	pr, err := s.cfg.Backend.SessionProject(ctx, p)
	if err == nil && pr == nil {
		err = model.Errorf(model.CodeNotFound, "this session has no live project: it expired (%s after creation) or moved into an account when the person signed up; call create_session_project with this session to start another", span(s.cfg.Limits.ProjectTTL))
	}
	return p, pr, err
}

type createSessionIn struct {
	Name    string `json:"name,omitempty" jsonschema:"a name for the project, e.g. \"Shop for Ann\""`
	Session string `json:"session,omitempty" jsonschema:"leave out to start a new session; pass an earlier session handle to make a new project in it once its previous one expired"`
}

type sessionOut struct {
	Session           string `json:"session" jsonschema:"pass this to every other tool"`
	ProjectID         string `json:"projectId"`
	Slug              string `json:"slug"`
	RuntimeURL        string `json:"runtimeUrl" jsonschema:"the mock GraphQL endpoint, share token included: any client may POST queries to it"`
	PreviewURL        string `json:"previewUrl" jsonschema:"a read-only page showing the model and sample rows"`
	AdoptionURL       string `json:"adoptionUrl" jsonschema:"one-time link that opens the project on the board for the person"`
	AdoptionExpiresAt string `json:"adoptionExpiresAt"`
	ExpiresAt         string `json:"expiresAt" jsonschema:"when the project is deleted unless the person signs up"`
}

func (s *Server) createSessionProject(ctx context.Context, in createSessionIn) (sessionOut, outcome, error) {
	p := model.Principal{}
	if in.Session != "" {
		var err error
		if p, err = s.principal(in.Session); err != nil {
			return sessionOut{}, outcome{}, err
		}
	}
	if s.cfg.CheckCreate != nil { // counted per IP like /public-graphql's, with or without a handle
		if err := s.cfg.CheckCreate(ctx, model.ClientIP(ctx)); err != nil {
			return sessionOut{}, outcome{}, err
		}
	}
	sp, sessionID, err := s.cfg.Backend.CreateSessionProject(ctx, p, in.Name)
	if e := model.AsError(err); e != nil && e.Code == model.CodeLimitReached {
		err = model.Errorf(e.Code, "%s (describe_project shows the session's project)", e.Message)
	}
	if err != nil {
		return sessionOut{}, outcome{}, err
	}
	out := s.sessionOut(sp, s.seal.seal(sessionID))
	if in.Session != "" {
		out.Session = in.Session
	}
	text := fmt.Sprintf("Created session project %q (projectId %s), live until %s. Pass session %q to every other tool. Next: list_data_sources, then create_table.",
		sp.Project.Name, sp.Project.ID, out.ExpiresAt, out.Session)
	return out, outcome{text: text}, nil
}

func (s *Server) sessionOut(sp model.SessionProject, handle string) sessionOut {
	p := sp.Project
	return sessionOut{Session: handle, ProjectID: p.ID, Slug: p.Slug, RuntimeURL: s.runtimeURL(p), PreviewURL: s.previewURL(p),
		AdoptionURL: s.adoptionURL(sp.AdoptionToken), AdoptionExpiresAt: stamp(sp.AdoptionExpiresAt), ExpiresAt: stamp(p.ExpiresAt)}
}

type adoptionOut struct {
	ProjectID   string `json:"projectId"`
	AdoptionURL string `json:"adoptionUrl" jsonschema:"give this to the person: one use, it opens the project on the board; signing up there keeps the project"`
	ExpiresAt   string `json:"expiresAt" jsonschema:"the link's expiry"`
}

func (s *Server) getAdoptionLink(ctx context.Context, in sessionArg) (adoptionOut, outcome, error) {
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return adoptionOut{}, outcome{}, err
	}
	sp, err := s.cfg.Backend.CreateAdoptionLink(ctx, p, pr.ID)
	if err != nil {
		return adoptionOut{}, outcome{}, err
	}
	out := adoptionOut{ProjectID: pr.ID, AdoptionURL: s.adoptionURL(sp.AdoptionToken), ExpiresAt: stamp(sp.AdoptionExpiresAt)}
	return out, outcome{text: fmt.Sprintf("Give the person this link (one use, until %s): %s", out.ExpiresAt, out.AdoptionURL)}, nil
}

type dataSourcesIn struct {
	ImportCode string `json:"importCode,omitempty" jsonschema:"only this dataset (leave out for all)"`
	Samples    *int   `json:"samples,omitempty" jsonschema:"sample documents per dataset, 0 to 5 (default 2); 0 lists many datasets compactly"`
}

type dataSourceOut struct {
	ImportCode  string            `json:"importCode" jsonschema:"what create_table's importCode takes"`
	Name        string            `json:"name"`
	FieldPaths  []string          `json:"fieldPaths" jsonschema:"dot paths into a document, what add_attributes' path takes"`
	RecordCount int               `json:"recordCount"`
	Variants    []variantOut      `json:"variants" jsonschema:"named subsets; create_table's variant picks one"`
	Samples     []json.RawMessage `json:"samples"`
}

type variantOut struct {
	Name        string `json:"name"`
	RecordCount int    `json:"recordCount"`
}

type dataSourcesOut struct {
	DataSources []dataSourceOut `json:"dataSources"`
}

func (s *Server) listDataSources(ctx context.Context, in dataSourcesIn) (dataSourcesOut, outcome, error) {
	samples := 2
	if in.Samples != nil {
		samples = *in.Samples
	}
	if samples < 0 || samples > 5 {
		return dataSourcesOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "samples is 0 to 5, not %d", samples)
	}
	all, err := s.cfg.Backend.DataSources(ctx)
	if err != nil {
		return dataSourcesOut{}, outcome{}, err
	}
	out := dataSourcesOut{DataSources: []dataSourceOut{}}
	for _, d := range all {
		if in.ImportCode == "" || d.ImportCode == in.ImportCode {
			out.DataSources = append(out.DataSources, shapeDataSource(d, samples))
		}
	}
	if in.ImportCode != "" && len(out.DataSources) == 0 {
		return out, outcome{}, model.Errorf(model.CodeNotFound, "no dataset has importCode %q; leave importCode out to list them all", in.ImportCode)
	}
	text := fmt.Sprintf("%d datasets.", len(out.DataSources))
	for _, d := range out.DataSources {
		text += fmt.Sprintf(" %s (%d records, %d field paths);", d.ImportCode, d.RecordCount, len(d.FieldPaths))
	}
	return out, outcome{text: text + " Bind a table with create_table(importCode), then its attributes to fieldPaths with add_attributes."}, nil
}

func shapeDataSource(d model.DataSource, samples int) dataSourceOut {
	o := dataSourceOut{ImportCode: d.ImportCode, Name: d.Name, FieldPaths: d.FieldPaths, RecordCount: d.RecordCount,
		Variants: []variantOut{}, Samples: []json.RawMessage{}}
	if o.FieldPaths == nil {
		o.FieldPaths = []string{}
	}
	for _, v := range d.Variants {
		o.Variants = append(o.Variants, variantOut{Name: v.Name, RecordCount: v.RecordCount})
	}
	if d.Samples != nil && samples > 0 {
		o.Samples = append(o.Samples, d.Samples.Sample(samples)...)
	}
	return o
}

func (s *Server) addSessionTools() {
	l := s.cfg.Limits
	addTool(s, &sdk.Tool{Name: "create_session_project", Title: "Create a session project",
		Description: fmt.Sprintf("Start here. Creates a temporary mock-backend project (no account needed; it lives %s, one at a time per session) and returns the session handle to pass to every other tool, the runtime URL and a one-time adoption link for the person.", span(l.ProjectTTL))},
		s.createSessionProject)
	addTool(s, &sdk.Tool{Name: "list_data_sources", Title: "List the data pool", Annotations: readOnly(),
		Description: "Lists the datasets tables can be bound to: importCode, field paths (what attributes bind to), record counts, variants and sample documents. Needs no session."},
		s.listDataSources)
	addTool(s, &sdk.Tool{Name: "get_adoption_link", Title: "Get an adoption link",
		Description: fmt.Sprintf("Issues a fresh one-time link (valid %s) that opens the session's project on the board in the person's browser; if they sign up there the project moves into their account and stops expiring.", span(l.AdoptionTTL))},
		s.getAdoptionLink)
}

func readOnly() *sdk.ToolAnnotations { return &sdk.ToolAnnotations{ReadOnlyHint: true} }

func (s *Server) runtimeURL(p *model.Project) string {
	return model.RuntimeURL(s.cfg.BaseURL(), p.Slug, p.ShareToken)
}

func (s *Server) previewURL(p *model.Project) string {
	return model.PreviewURL(s.cfg.AppURL(), p.Slug, p.ShareToken)
}

func (s *Server) adoptionURL(token string) string { return model.AdoptionURL(s.cfg.AppURL(), token) }

// stamp writes a time as RFC 3339 in UTC, or "" for the zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
