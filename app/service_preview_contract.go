package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// The preview of a contract project (docs/using/contract.md): it has no
// LIST operations, so each table's sample is read through a query root
// field of the imported schema that lists the table's rows — a plain list,
// a Relay connection or a page wrapper — with its first previewPageSize
// rows and the type's scalar fields.

// contractSamples runs the sample queries of the contract project pr, as
// previewSamples does for table projects.
func (s *Service) contractSamples(ctx context.Context, pr *model.Project) (map[string]model.PreviewSample, error) {
	batches, samples, err := contractPreviewBatches(pr)
	if err != nil {
		return nil, err
	}
	out := make(map[string]model.PreviewSample, len(pr.Tables))
	for _, b := range batches {
		res, err := s.Runtime(ctx, model.RuntimeRequest{Slug: pr.Slug, Body: b.body, Internal: true, QueryOnly: true, ProjectID: pr.ID})
		if err != nil {
			return nil, err
		}
		if err := decodeContractBatch(res.Body, samples, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// contractSample is how one table's sample is read: the root field under
// an alias, and the fields from its result down to the rows.
type contractSample struct {
	tableID, field string
	path           []string
}

// contractPreviewBatches builds the sample queries of the contract project
// pr, grouped within previewFieldBudget like previewBatches.
func contractPreviewBatches(pr *model.Project) ([]previewBatch, map[string]contractSample, error) {
	sc, err := contract.Parse([]byte(pr.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("preview of project %s: %w", pr.ID, err)
	}
	plan := contract.Interpret(sc)
	samples := map[string]contractSample{}
	var out []previewBatch
	var parts []string
	fields := 0
	flush := func() error {
		if len(parts) == 0 {
			return nil
		}
		b, err := json.Marshal(map[string]string{"query": "query preview { " + strings.Join(parts, " ") + " }"})
		out = append(out, previewBatch{body: b})
		parts, fields = nil, 0
		return err
	}
	for i, t := range pr.Tables {
		part, smp, cost := contractSampleQuery(sc.AST, plan, t)
		if part == "" {
			continue
		}
		if fields > 0 && fields+cost > previewFieldBudget {
			if err := flush(); err != nil {
				return nil, nil, err
			}
		}
		alias := fmt.Sprintf("t%d", i)
		parts, fields = append(parts, alias+": "+part), fields+cost
		samples[alias] = smp
	}
	return out, samples, flush()
}

// contractSampleQuery is the selection that reads the first rows of table
// t (its entity's scalar fields), or "" when no query root field lists
// them without a required argument; cost counts its fields.
func contractSampleQuery(s *ast.Schema, plan *contract.Plan, t *model.Table) (string, contractSample, int) {
	for _, rf := range plan.Queries {
		fd := s.Query.Fields.ForName(rf.Name)
		if rf.Entity != t.Name || fd == nil || requiredArgs(fd) || !listing(rf.Shape) {
			continue
		}
		path, ok := pathToRows(s, fd.Type.Name(), t.Name, 2)
		scalars := scalarFields(s, s.Types[t.Name])
		if !ok || len(scalars) == 0 {
			continue
		}
		sel := "{ " + strings.Join(scalars, " ") + " }"
		for i := len(path) - 1; i >= 0; i-- {
			sel = "{ " + path[i] + " " + sel + " }"
		}
		return rf.Name + sizeArgs(rf) + " " + sel, contractSample{tableID: t.ID, field: rf.Name, path: path}, 2 + len(path) + len(scalars)
	}
	return "", contractSample{}, 0
}

// listing reports whether a root field of the shape lists rows.
func listing(sh contract.Shape) bool {
	return sh == contract.ShapeList || sh == contract.ShapeConnection || sh == contract.ShapePage
}

// requiredArgs reports whether fd has an argument a query must give.
func requiredArgs(fd *ast.FieldDefinition) bool {
	for _, a := range fd.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			return true
		}
	}
	return false
}

// sizeArgs asks rf for previewPageSize rows through its first, limit or
// page-size argument, if it has one.
func sizeArgs(rf *contract.RootField) string {
	for _, a := range rf.Args {
		if (a.Role == contract.RoleRelay && a.Op == "first") || (a.Role == contract.RoleOffset && a.Op == "limit") || (a.Role == contract.RolePage && a.Op == "size") {
			return fmt.Sprintf("(%s: %d)", a.Name, previewPageSize)
		}
	}
	return ""
}

// pathToRows finds the fields from the type typ down to objects of the
// type entity, at most depth fields deep: none for a list of entity,
// [items] for a page, [edges node] for a connection.
func pathToRows(s *ast.Schema, typ, entity string, depth int) ([]string, bool) {
	if typ == entity {
		return nil, true
	}
	d := s.Types[typ]
	if depth == 0 || d == nil || d.Kind != ast.Object {
		return nil, false
	}
	for _, f := range d.Fields {
		if strings.HasPrefix(f.Name, "__") || requiredArgs(f) {
			continue
		}
		if rest, ok := pathToRows(s, f.Type.Name(), entity, depth-1); ok {
			return append([]string{f.Name}, rest...), true
		}
	}
	return nil, false
}

// scalarFields are the fields of d that hold a scalar or an enum and take
// no required argument.
func scalarFields(s *ast.Schema, d *ast.Definition) []string {
	var out []string
	if d == nil {
		return nil
	}
	for _, f := range d.Fields {
		t := s.Types[f.Type.Name()]
		if t != nil && (t.Kind == ast.Scalar || t.Kind == ast.Enum) && !requiredArgs(f) && !strings.HasPrefix(f.Name, "__") {
			out = append(out, f.Name)
		}
	}
	return out
}

// decodeContractBatch adds the samples of one sample query's answer to
// out: the rows found along each sample's path, at most previewPageSize.
func decodeContractBatch(body []byte, samples map[string]contractSample, out map[string]model.PreviewSample) error {
	var r struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []json.RawMessage          `json:"errors"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("preview: runtime answer: %w", err)
	}
	for alias, smp := range samples {
		raw, ok := r.Data[alias]
		if !ok {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("preview: runtime answer: %w", err)
		}
		ps := model.PreviewSample{Operation: smp.field, Items: []json.RawMessage{}, Errors: errorsAt(r.Errors, alias)}
		for _, row := range rowsAlong(v, smp.path) {
			if len(ps.Items) < previewPageSize {
				b, _ := json.Marshal(row)
				ps.Items = append(ps.Items, b)
			}
		}
		ps.Total = len(ps.Items)
		out[smp.tableID] = ps
	}
	return nil
}

// rowsAlong collects the objects reached from v along path, through lists.
func rowsAlong(v any, path []string) []any {
	switch x := v.(type) {
	case []any:
		var out []any
		for _, item := range x {
			out = append(out, rowsAlong(item, path)...)
		}
		return out
	case map[string]any:
		if len(path) == 0 {
			return []any{x}
		}
		return rowsAlong(x[path[0]], path[1:])
	}
	return nil
}

// errorsAt returns the errors whose path starts at alias.
func errorsAt(errs []json.RawMessage, alias string) []json.RawMessage {
	out := []json.RawMessage{}
	for _, e := range errs {
		var at struct {
			Path []any `json:"path"`
		}
		if json.Unmarshal(e, &at) == nil && len(at.Path) > 0 && at.Path[0] == alias {
			out = append(out, e)
		}
	}
	return out
}
