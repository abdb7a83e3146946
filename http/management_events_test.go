package http

import (
	"context"
	"fmt"
)

// eventsCases call the event mutations of the management API.
var eventsCases = []surfaceCase{
	{name: "sendEvent", query: `mutation { sendEvent(projectId: "prj_1", tableId: "prj_1.tbl_p", kind: UPDATED, id: "7") }`},
	{name: "startEventStream", query: `mutation { startEventStream(projectId: "prj_1", tableId: "prj_1.tbl_p", kind: CREATED, everySeconds: 2) }`},
	{name: "startEventStream_zero", query: `mutation { startEventStream(projectId: "prj_1", tableId: "prj_1.tbl_p", kind: CREATED, everySeconds: 0) }`},
	{name: "stopEventStream", query: `mutation { stopEventStream(projectId: "prj_1", tableId: "prj_1.tbl_p", kind: CREATED) }`},
}

func init() { managementCases = append(managementCases, eventsCases...) }

// The fake's side of the event mutations (management_fake_test.go).

func (f *fakeManagement) SendEvent(_ context.Context, p Principal, projectID, tableID, kind, rowID string) error {
	return f.record("SendEvent", p, projectID+" "+tableID+" "+kind+" "+rowID)
}

func (f *fakeManagement) SetEventStream(_ context.Context, p Principal, projectID, tableID, kind string, every int) error {
	return f.record("SetEventStream", p, fmt.Sprint(projectID, " ", tableID, " ", kind, " ", every))
}
