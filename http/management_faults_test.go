package http

import (
	"context"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// faultsCases call the fault and request-log fields of the management API.
var faultsCases = []surfaceCase{
	{name: "setFaults_project", query: `mutation { setFaults(projectId: "prj_1", faults: {latencyMinMs: 100, latencyMaxMs: 300, errorRate: 0.25, errorCode: "INTERNAL", seed: 7}) { id faults { latencyMinMs latencyMaxMs errorRate errorCode httpStatus seed } } }`},
	{name: "setFaults_operation_status", query: `mutation { setFaults(projectId: "prj_1", operationId: "prj_1.o1", faults: {errorRate: 1, httpStatus: 503}) { operations { id faults { errorRate httpStatus errorCode } } } }`},
	{name: "setFaults_clear", query: `mutation { setFaults(projectId: "prj_1", faults: null) { faults { seed } } }`},
	{name: "setFaults_refused", query: `mutation { setFaults(projectId: "prj_1", faults: {latencyMinMs: 500, latencyMaxMs: 100}) { id } }`,
		fail: map[string]error{"SetFaults": model.Errorf(model.CodeBadUserInput, "faults.latencyMinMs must not be above faults.latencyMaxMs")}},
	{name: "requestLog", query: `{ project(id: "prj_1") { requestLog(limit: 5) { id at operationName rootFields query variables status durationMs errorCode fault } } }`},
	{name: "clearRequestLog", query: `mutation { clearRequestLog(projectId: "prj_1") { id } }`},
}

func init() { managementCases = append(managementCases, faultsCases...) }

// The fakes' fault methods: RequestLog is a lazy field of both surfaces (fakeModel), the mutations management's.

func (f *fakeManagement) SetFaults(_ context.Context, p Principal, projectID, operationID string, fs *model.FaultSettings) (*model.Project, error) {
	if err := f.record("SetFaults", p, projectID, operationID, fs); err != nil {
		return nil, err
	}
	pr := fixtureProject()
	if operationID == "" {
		pr.Faults = fs
		return pr, nil
	}
	for _, o := range pr.Operations {
		if o.ID == operationID {
			o.Faults = fs
		}
	}
	return pr, nil
}

func (f *fakeModel) RequestLog(_ context.Context, p Principal, projectID string, limit int) ([]model.RequestLogEntry, error) {
	if err := f.record("RequestLog", p, projectID, limit); err != nil {
		return nil, err
	}
	at := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	return []model.RequestLogEntry{
		{ID: "l2", At: at.Add(time.Second), Query: "{ products { total } }", RootFields: []string{"products"}, Status: 503,
			DurationMs: 801.5, Code: model.CodeUnavailable, Fault: "latency=800ms;status=503"},
		{ID: "l1", At: at, OperationName: "Q", Query: "query Q($n: Int) { products(pageSize: $n) { total } }", RootFields: []string{"products"},
			Variables: []byte(`{"n":3}`), Status: 200, DurationMs: 1.25},
		{ID: "l0", At: at, Code: model.CodeUnauthenticated, DurationMs: 0.5}, // a refusal: its status follows from the code
	}[:min(limit, 3)], nil
}

func (f *fakeManagement) ClearRequestLog(_ context.Context, p Principal, projectID string) (*model.Project, error) {
	return fixtureProject(), f.record("ClearRequestLog", p, projectID)
}

// TestFaultSettingsInput checks how setFaults reads its input: absent
// members are 0 or null, and null faults clear.
func TestFaultSettingsInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   input
		want model.FaultSettings
	}{
		{name: "empty", in: input{}, want: model.FaultSettings{}},
		{name: "all", in: input{"latencyMinMs": 1, "latencyMaxMs": 2, "errorRate": 0.5, "errorCode": "INTERNAL", "httpStatus": nil, "seed": 9},
			want: model.FaultSettings{LatencyMinMs: 1, LatencyMaxMs: 2, ErrorRate: 0.5, ErrorCode: "INTERNAL", Seed: 9}},
		{name: "status", in: input{"errorRate": 1.0, "httpStatus": 429}, want: model.FaultSettings{ErrorRate: 1, HTTPStatus: 429}},
		{name: "field rules", in: input{"fieldRules": []any{
			map[string]any{"path": "Product.price", "code": "NOT_FOUND", "rate": 0.5, "extensions": map[string]any{"a": 1}},
			map[string]any{"path": "*.reviews", "message": "m", "code": "INTERNAL", "count": 2, "sandbox": "s1", "extensions": nil},
		}}, want: model.FaultSettings{FieldRules: []model.FieldRule{
			{Path: "Product.price", Code: "NOT_FOUND", Rate: 0.5, Extensions: []byte(`{"a":1}`)},
			{Path: "*.reviews", Message: "m", Code: "INTERNAL", Count: 2, Sandbox: "s1"},
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := faultSettingsOf(tc.in)
			if err != nil || !got.Equal(tc.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
