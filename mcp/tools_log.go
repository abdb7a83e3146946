package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mockgql/mockgql/model"
)

// maxLogEntries bounds get_request_log's answer: 20 entries of at most
// about 9 KB (query and variables are clipped to 4 KiB each).
const maxLogEntries = 20

type requestLogIn struct {
	sessionArg
	Limit int `json:"limit,omitempty" jsonschema:"entries to return, newest first, 1 to 20 (default 10)"`
}

type logEntryOut struct {
	At            string          `json:"at"`
	OperationName string          `json:"operationName,omitempty"`
	RootFields    []string        `json:"rootFields"`
	Query         string          `json:"query" jsonschema:"clipped to 4 KiB"`
	Variables     json.RawMessage `json:"variables,omitempty" jsonschema:"clipped to 4 KiB"`
	Status        int             `json:"status" jsonschema:"the HTTP status answered; 0 for a refusal whose status follows from errorCode"`
	DurationMs    float64         `json:"durationMs"`
	ErrorCode     string          `json:"errorCode,omitempty"`
	Fault         string          `json:"fault,omitempty" jsonschema:"what was injected, e.g. latency=800ms, or field=Product.price for a field rule that fired"`
}

type requestLogOut struct {
	Entries []logEntryOut `json:"entries"`
}

// requestLog is get_request_log: the newest runtime requests that reached
// the session's project at its runtimeUrl, to see what an app sent and got.
// run_query's own calls are not in it.
func (s *Server) requestLog(ctx context.Context, in requestLogIn) (requestLogOut, outcome, error) {
	if in.Limit < 0 || in.Limit > maxLogEntries {
		return requestLogOut{}, outcome{}, model.Errorf(model.CodeBadUserInput, "limit is 1 to %d, not %d", maxLogEntries, in.Limit)
	}
	if in.Limit == 0 {
		in.Limit = 10
	}
	p, pr, err := s.project(ctx, in.Session)
	if err != nil {
		return requestLogOut{}, outcome{}, err
	}
	entries, err := s.cfg.Backend.RequestLog(ctx, p, pr.ID, in.Limit)
	if err != nil {
		return requestLogOut{}, outcome{}, err
	}
	out := requestLogOut{Entries: make([]logEntryOut, 0, len(entries))}
	failed := 0
	for _, e := range entries {
		if e.Code != "" {
			failed++
		}
		roots := e.RootFields
		if roots == nil {
			roots = []string{}
		}
		out.Entries = append(out.Entries, logEntryOut{At: e.At.UTC().Format(time.RFC3339Nano), OperationName: e.OperationName, RootFields: roots,
			Query: e.Query, Variables: e.Variables, Status: e.Status, DurationMs: e.DurationMs, ErrorCode: string(e.Code), Fault: e.Fault})
	}
	text := fmt.Sprintf("%d runtime requests, newest first; %d with an error code.", len(entries), failed)
	return out, outcome{text: text}, nil
}

func (s *Server) addLogTools() {
	addTool(s, &sdk.Tool{Name: "get_request_log", Title: "Read the runtime's request log", Annotations: readOnly(),
		Description: "The newest runtime requests that reached the session's project at its runtimeUrl (at most 20 a call; the project keeps 200): time, operation name, root fields, query and variables (clipped), HTTP status, duration, error code and any injected fault. run_query's own calls are not logged."},
		s.requestLog)
}
