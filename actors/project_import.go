package actors

import (
	"fmt"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// The model edits of OpenAPI import and schema versioning. They run in the
// project grain like every edit (applyOperationEdit hands them here), so
// the plan's limits are checked on the result and a refusal leaves the
// project as it was.
//
//	EditImportTables  the tables (model.Table documents whose attributes
//	                  carry no IDs). All are added, or none.
//	EditSetBaseline   saves the current runtime schema as the baseline.

// applyVersioningEdit runs an EditImportTables or EditSetBaseline on p.
func applyVersioningEdit(p *model.Project, req grainRequest) (result, error) {
	switch e := req.(type) {
	case *pb.EditImportTables:
		tables := make([]*model.Table, 0, len(e.Tables))
		for _, d := range e.Tables {
			t, err := decodeDoc[model.Table](d.GetJson())
			if err != nil {
				return nil, fmt.Errorf("importTables: %w", err)
			}
			tables = append(tables, t)
		}
		return tablesOf(importTables(p, tables))
	case *pb.EditSetBaseline:
		return doneReply(true), setBaseline(p)
	}
	return nil, fmt.Errorf("unknown model edit %s", requestName(req))
}

// importTables adds unbound tables with their attributes to p, stopping at
// the first the model refuses (the caller then drops p). It returns the
// tables as added.
func importTables(p *model.Project, in []*model.Table) ([]*model.Table, error) {
	if len(in) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "no tables to import")
	}
	out := make([]*model.Table, 0, len(in))
	for _, src := range in {
		t := &model.Table{ID: ids.NewChildID(p.ID, 't'), Name: src.Name}
		if err := p.AddTable(t); err != nil {
			return nil, err
		}
		for _, a := range src.Attributes {
			attr := *a
			attr.ID, attr.TableID, attr.Mapping = ids.NewChildID(p.ID, 'a'), t.ID, model.MappingNone
			if err := p.AddAttribute(&attr); err != nil {
				return nil, err
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// setBaseline saves p's runtime schema as its baseline. The baseline is not
// part of the schema, so p.Version stays and the compiled runtime with it.
func setBaseline(p *model.Project) error {
	rt, err := graphql.Compile(p, graphql.Options{})
	if err != nil {
		return fmt.Errorf("baseline of project %s: %w", p.ID, err)
	}
	p.Baseline = rt.SDL()
	return nil
}
