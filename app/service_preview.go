package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// The preview: a project's read-only page behind its share link, and the
// board's query box. Both run their queries through Runtime as the
// project's own calls (Internal), so they count against the project's
// quota like a client's request (docs/reference/bounds.md: preview
// requests count), while neither hands out the runtime of an account project.

const (
	// previewPageSize is the rows of each table the preview shows.
	previewPageSize = 10
	// previewFieldBudget bounds the fields of one sample query, well under
	// the validator's limit (1,000); a bigger model takes several queries.
	previewFieldBudget = 500
)

// SetPreviewSharing turns a project's preview link on or off (EDITOR and
// above, like other project edits). On, an account project gets a fresh
// share token that replaces any earlier one, so old links stop working;
// off, it has none. The token opens only the preview page: the runtime of
// an account project still answers only to an API key. Guest and session
// projects keep the token they have, their runtime credential; turning
// it off is BAD_USER_INPUT.
func (s *Management) SetPreviewSharing(ctx context.Context, p model.Principal, projectID string, enabled bool) (*model.Project, error) {
	token := ""
	if enabled {
		token = "shr_" + ids.RandomString(24)
	}
	c, err := s.edit(ctx, p, projectID)
	if err != nil {
		return nil, err
	}
	return c.SetShareToken(ctx, token)
}

// Preview answers the preview page: the project the slug names, provided
// token is its share token, with its runtime schema and the first page of
// each table's list operation. The pages are read as query-only Internal
// runtime calls, one call per previewFieldBudget fields (one for any
// usual model), each counted against the project's quota; past it the
// refusal is the runtime's 429 TOO_MANY_REQUESTS. An unknown slug is
// PROJECT_NOT_FOUND; a missing or wrong token, and any token of an account
// project whose sharing is off, UNAUTHENTICATED.
func (s *Preview) Preview(ctx context.Context, slug, token string) (*model.Preview, error) {
	pr, err := s.previewProject(ctx, slug, token)
	if err != nil {
		return nil, err
	}
	sdl, err := s.schemaSDL(ctx, model.Principal{System: true}, pr.ID)
	if err != nil {
		return nil, err
	}
	samples, err := s.previewSamples(ctx, pr)
	if err != nil {
		return nil, err
	}
	metas, err := s.pool.Readable(pr.AccountID)
	if err != nil {
		return nil, err
	}
	pool := make(map[string]bool, len(metas))
	for _, m := range metas {
		pool[m.ImportCode] = true
	}
	return &model.Preview{Project: pr, SDL: sdl, Samples: samples, Pool: pr.AddGenerated(pool)}, nil
}

// previewProject returns the project the slug names when token is its
// share token.
func (s *core) previewProject(ctx context.Context, slug, token string) (*model.Project, error) {
	if !model.ValidSlug(slug) {
		return nil, model.Errorf(model.CodeProjectNotFound, "no project has the slug %q", slug)
	}
	pr, err := s.readProject(ctx, model.Principal{System: true}, "", slug)
	if model.ErrorCode(err) == model.CodeNotFound {
		return nil, model.Errorf(model.CodeProjectNotFound, "no project has the slug %q", slug)
	}
	if err != nil {
		return nil, err
	}
	if token == "" || pr.ShareToken == "" || !ids.EqualSecret(token, pr.ShareToken) {
		return nil, model.Errorf(model.CodeUnauthenticated, "missing or wrong share token, or the project's preview link was turned off: ask its owner for the current link")
	}
	return pr, nil
}

// previewSamples runs the sample queries of pr.
func (s *core) previewSamples(ctx context.Context, pr *model.Project) (map[string]model.PreviewSample, error) {
	if pr.Contract != nil {
		return s.contractSamples(ctx, pr)
	}
	batches, err := previewBatches(pr)
	if err != nil {
		return nil, err
	}
	out := make(map[string]model.PreviewSample, len(pr.Tables))
	for _, b := range batches {
		res, err := s.serveRuntime(ctx, model.RuntimeRequest{Slug: pr.Slug, Body: b.body, Internal: true, QueryOnly: true, ProjectID: pr.ID})
		if err != nil {
			return nil, err
		}
		if err := decodePreviewBatch(res.Body, b.tables, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// previewTable is a table a sample query reads, under an alias.
type previewTable struct{ tableID, operation string }

// previewBatch is one sample query and the tables it reads, by alias.
type previewBatch struct {
	body   []byte
	tables map[string]previewTable
}

// previewBatches builds the sample queries of pr: for each table with an
// enabled LIST operation, its first page with every scalar field, under
// the alias t<index>; tables are grouped so that each query selects at
// most previewFieldBudget fields (a bigger table goes alone).
func previewBatches(pr *model.Project) ([]previewBatch, error) {
	var out []previewBatch
	var parts []string
	cur, fields := previewBatch{tables: map[string]previewTable{}}, 0
	flush := func() error {
		if len(parts) == 0 {
			return nil
		}
		b, err := json.Marshal(map[string]string{"query": "query preview { " + strings.Join(parts, " ") + " }"})
		if err != nil {
			return err
		}
		cur.body = b
		out = append(out, cur)
		parts, cur, fields = nil, previewBatch{tables: map[string]previewTable{}}, 0
		return nil
	}
	for i, t := range pr.Tables {
		op := previewOperation(pr, t.ID)
		if op == nil {
			continue
		}
		names := listFields(t)
		cost := 3 + len(names) // the alias, total, items and the fields
		if fields > 0 && fields+cost > previewFieldBudget {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		alias := fmt.Sprintf("t%d", i)
		parts = append(parts, fmt.Sprintf("%s: %s(page: 1, pageSize: %d) { total items { %s } }", alias, op.Name, previewPageSize, strings.Join(names, " ")))
		cur.tables[alias] = previewTable{tableID: t.ID, operation: op.Name}
		fields += cost
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// previewOperation is the enabled LIST operation of the table the preview
// reads: the first without parameters, else the first; nil when none.
func previewOperation(pr *model.Project, tableID string) *model.Operation {
	var first *model.Operation
	for _, o := range pr.Operations {
		if o.TableID != tableID || o.Kind != model.OpList || !o.Enabled {
			continue
		}
		if len(o.Parameters) == 0 {
			return o
		}
		if first == nil {
			first = o
		}
	}
	return first
}

// decodePreviewBatch adds the samples of one sample query's answer to out.
// An error whose path starts at a table's alias is that table's; one
// without (the whole document refused) goes to every table of the batch.
func decodePreviewBatch(body []byte, tables map[string]previewTable, out map[string]model.PreviewSample) error {
	var r struct {
		Data map[string]*struct {
			Total int               `json:"total"`
			Items []json.RawMessage `json:"items"`
		} `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("preview: runtime answer: %w", err)
	}
	for alias, t := range tables {
		smp := model.PreviewSample{Operation: t.operation, Items: []json.RawMessage{}, Errors: []json.RawMessage{}}
		if d := r.Data[alias]; d != nil && d.Items != nil {
			smp.Total, smp.Items = d.Total, d.Items
		}
		out[t.tableID] = smp
	}
	for _, e := range r.Errors {
		var at struct {
			Path []any `json:"path"`
		}
		_ = json.Unmarshal(e, &at)
		alias := ""
		if len(at.Path) > 0 {
			alias, _ = at.Path[0].(string)
		}
		for a, t := range tables {
			if alias == "" || alias == a {
				smp := out[t.tableID]
				smp.Errors = append(smp.Errors, e)
				out[t.tableID] = smp
			}
		}
	}
	return nil
}

// PreviewQuery runs a runtime request body (query, variables,
// operationName) against a project the principal may read, without an
// API key: the board's query box. It runs as the project's own call
// (Internal), counted against the project's quota like a client's
// request; a mutation changes the project's mock data as on the runtime
// and needs the right to edit the project (FORBIDDEN for a VIEWER).
// sandbox, when set, runs it in that sandbox (X-Mock-Sandbox).
func (s *Management) PreviewQuery(ctx context.Context, p model.Principal, projectID, sandbox string, body []byte) (*model.RuntimeResult, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return nil, err
	}
	if req, err := exec.DecodeRequest(body); err == nil && exec.IsMutation(req) {
		if err := s.mayEdit(ctx, p, pr); err != nil {
			return nil, err
		}
	}
	return s.serveRuntime(ctx, model.RuntimeRequest{Slug: pr.Slug, Body: body, Internal: true, ProjectID: pr.ID, Sandbox: sandbox})
}

// mayEdit refuses a member of pr's account whose role reads but does not
// edit; p may read pr already. It is the project grain's rule for writes
// (projectGrain.authorize): other callers that may read may also write.
func (s *core) mayEdit(ctx context.Context, p model.Principal, pr *model.Project) error {
	if pr.AccountID == "" || p.System {
		return nil
	}
	a, err := s.access(ctx, p)
	if err != nil {
		return err
	}
	if a.AccountID == pr.AccountID && !a.Role.AtLeast(model.RoleEditor) {
		return model.Errorf(model.CodeForbidden, "this needs role %s or higher; you are %s", model.RoleEditor, a.Role)
	}
	return nil
}
