package http

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// The test-only fake of Upstreams and the cases that call the drift
// check's fields (golden files in testdata/surface/management).

func (f *fakeManagement) CheckUpstream(_ context.Context, p Principal, projectID, url string, headers []model.UpstreamHeader) (*model.UpstreamCheck, error) {
	if err := f.record("CheckUpstream", p, projectID, url, headers); err != nil {
		return nil, err
	}
	return &model.UpstreamCheck{URL: url, Breaking: 1, Changes: []model.SchemaChange{
		{Type: "FIELD_REMOVED", Criticality: model.ChangeBreaking, Path: "Book.isbn", Message: "Field Book.isbn was removed (or renamed); operations that select it fail."}}}, nil
}

func (f *fakeManagement) CheckOperations(_ context.Context, p Principal, projectID string, documents []string, url string, headers []model.UpstreamHeader) ([]model.OperationCheck, error) {
	if err := f.record("CheckOperations", p, projectID, documents, url, headers); err != nil {
		return nil, err
	}
	out := make([]model.OperationCheck, len(documents))
	for i := range documents {
		out[i] = model.OperationCheck{Name: "document", MockErrors: nil, UpstreamErrors: []string{`Cannot query field "isbn" on type "Book". (line 1, column 10)`}, Differs: url != ""}
	}
	return out, nil
}

func init() {
	managementCases = append(managementCases,
		surfaceCase{name: "checkUpstream", query: `{ checkUpstream(projectId: "prj_1", url: "https://api.example.com/graphql", headers: [{name: "Authorization", value: "Bearer x"}]) {
			url breaking changes { type criticality path message } } }`},
		surfaceCase{name: "checkUpstream_unreachable", query: `{ checkUpstream(projectId: "prj_1", url: "http://10.0.0.1/graphql") { breaking } }`,
			fail: map[string]error{"CheckUpstream": model.Errorf(model.CodeBadUserInput, "the url resolves to 10.0.0.1, a private address")}},
		surfaceCase{name: "checkOperations", query: `{ checkOperations(projectId: "prj_1", documents: ["{ books { isbn } }"], url: "https://api.example.com/graphql") {
			name mockErrors upstreamErrors differs } }`})
}
