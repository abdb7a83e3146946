package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The test-only fake of DatasetAPI: it records each call and answers with
// fixed guesses and what the arguments name.

func (f *fakeModel) DatasetFields(_ context.Context, p Principal, projectID, importCode string) ([]model.FieldGuess, error) {
	if err := f.record("DatasetFields", p, projectID, importCode); err != nil {
		return nil, err
	}
	return []model.FieldGuess{{Path: "id", Name: "id", Type: model.TypeID, Samples: []string{"1"}},
		{Path: "author_id", Name: "authorId", Type: model.TypeInt, Samples: []string{"7"}}}, nil
}

func (f *fakeModel) CreateAPIFromDataset(_ context.Context, p Principal, in model.DatasetAPIInput) (*model.Table, []*model.Operation, error) {
	if err := f.record("CreateAPIFromDataset", p, in); err != nil {
		return nil, nil, err
	}
	t := &model.Table{ID: f.newID(), Name: in.Table, Source: &model.TableSource{ImportCode: in.ImportCode}}
	ops := []*model.Operation{{ID: f.newID(), TableID: t.ID, Name: "books", Kind: model.OpList, Enabled: true}}
	return t, ops, nil
}

func (f *fakeModel) CreateAttributesFromDataset(_ context.Context, p Principal, tableID string, fields []model.FieldChoice) ([]*model.Attribute, error) {
	if err := f.record("CreateAttributesFromDataset", p, tableID, fields); err != nil {
		return nil, err
	}
	out := []*model.Attribute{}
	for _, c := range fields {
		out = append(out, &model.Attribute{ID: f.newID(), TableID: tableID, Name: c.Name, Type: c.Type, Mapping: model.MappingSource, SourcePath: c.Path})
	}
	return out, nil
}

func (f *fakeModel) ValueCounts(_ context.Context, p Principal, tableID, attribute string) (model.ValueCounts, error) {
	if err := f.record("ValueCounts", p, tableID, attribute); err != nil {
		return model.ValueCounts{}, err
	}
	return model.ValueCounts{Rows: 4, Scanned: 4, Distinct: 3, Duplicates: 1}, nil
}

// datasetAPICases call the one-step modelling fields (golden files in
// testdata/surface/management).
var datasetAPICases = []surfaceCase{
	{name: "datasetFields", query: `{ datasetFields(importCode: "books", projectId: "prj_1") { path name type samples } }`},
	{name: "createApiFromDataset", query: withFragments(`mutation { createApiFromDataset(input: {projectId: "prj_1", importCode: "books", tableName: "Book",
		fields: [{path: "id"}, {path: "author_id", name: "writerId", type: STRING}]}) { table { ...T } operations { ...O } } }`)},
	{name: "createApiFromDataset_refused", query: `mutation { createApiFromDataset(input: {projectId: "prj_1", importCode: "books"}) { table { id } } }`,
		fail: map[string]error{"CreateAPIFromDataset": model.Errorf(model.CodeConflict, "table name \"Book\" is taken")}},
	{name: "createAttributesFromDataset", query: withFragments(`mutation { createAttributesFromDataset(tableId: "prj_1_t1", fields: [{path: "title", name: "title", type: STRING}]) { ...A } }`)},
}

func init() { managementCases = append(managementCases, datasetAPICases...) }
