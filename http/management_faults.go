package http

import (
	"context"
	"net/http"

	"github.com/mockgql/mockgql/model"
)

// The resolvers and shapes of latency and error injection and the request
// log (issue 14): Mutation.setFaults, Mutation.clearRequestLog,
// Project.faults, Project.requestLog and Operation.faults.

// Faults is what the fault mutations ask (Project.requestLog is a lazy
// field: ProjectFields).
type Faults interface {
	// SetFaults sets the latency and error injection of the project, or
	// of one operation when operationID is set (EDITOR and above; nil
	// clears; invalid settings are BAD_USER_INPUT naming the field).
	SetFaults(ctx context.Context, p Principal, projectID, operationID string, f *model.FaultSettings) (*model.Project, error)
	// ClearRequestLog empties the project's request log (EDITOR and above).
	ClearRequestLog(ctx context.Context, p Principal, projectID string) (*model.Project, error)
}

// faultsResolvers resolves the fault mutations through a Faults backend.
type faultsResolvers struct {
	*Surface
	b Faults
}

// roots returns the root fields of this file by "Type.field".
func (s faultsResolvers) roots() map[string]rootFunc {
	return map[string]rootFunc{
		"Mutation.setFaults":       s.setFaults,
		"Mutation.clearRequestLog": s.clearRequestLog,
	}
}

// setFaults resolves Mutation.setFaults; faults null or absent clears them.
func (s faultsResolvers) setFaults(ctx context.Context, c *Call, args input) (any, error) {
	var f *model.FaultSettings
	if in := args.object("faults"); in != nil {
		var err error
		if f, err = faultSettingsOf(in); err != nil {
			return nil, err
		}
	}
	p, err := s.b.SetFaults(ctx, c.Principal, args.str("projectId"), args.str("operationId"), f)
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// faultSettingsOf reads a FaultSettingsInput; absent members are 0 or null.
func faultSettingsOf(in input) (*model.FaultSettings, error) {
	var f model.FaultSettings
	f.LatencyMinMs, _ = in.integer("latencyMinMs")
	f.LatencyMaxMs, _ = in.integer("latencyMaxMs")
	f.ErrorRate, _ = in["errorRate"].(float64)
	f.ErrorCode = model.Code(in.str("errorCode"))
	f.HTTPStatus, _ = in.integer("httpStatus")
	seed, _ := in.integer("seed")
	f.Seed = int64(seed)
	rules, _ := in["fieldRules"].([]any)
	if len(rules) > model.MaxFieldRules {
		return nil, model.Errorf(model.CodeBadUserInput, "faults.fieldRules: at most %d rules", model.MaxFieldRules)
	}
	for _, v := range rules {
		r, err := fieldRuleOf(input(v.(map[string]any)))
		if err != nil {
			return nil, err
		}
		f.FieldRules = append(f.FieldRules, r)
	}
	return &f, nil
}

// fieldRuleOf reads a FieldRuleInput; model.FaultSettings.Check checks it.
func fieldRuleOf(in input) (model.FieldRule, error) {
	r := model.FieldRule{Path: in.str("path"), Message: in.str("message"), Code: model.Code(in.str("code")), Sandbox: in.str("sandbox")}
	r.Rate, _ = in["rate"].(float64)
	r.Count, _ = in.integer("count")
	if !in.null("extensions") {
		ext, err := in.json("extensions")
		if err != nil {
			return r, err
		}
		if len(ext) > model.MaxFieldRuleExtensions {
			return r, model.Errorf(model.CodeBadUserInput, "faults.fieldRules: extensions: at most %d bytes of JSON", model.MaxFieldRuleExtensions)
		}
		r.Extensions = ext
	}
	return r, nil
}

// clearRequestLog resolves Mutation.clearRequestLog.
func (s faultsResolvers) clearRequestLog(ctx context.Context, c *Call, args input) (any, error) {
	p, err := s.b.ClearRequestLog(ctx, c.Principal, args.str("projectId"))
	if err != nil {
		return nil, err
	}
	return s.shaper(c).project(p), nil
}

// faults shapes FaultSettings; nil is null.
func shapeFaults(f *model.FaultSettings) any {
	if f == nil {
		return nil
	}
	return map[string]any{
		"latencyMinMs": f.LatencyMinMs, "latencyMaxMs": f.LatencyMaxMs, "errorRate": f.ErrorRate,
		"errorCode": optString(string(f.ErrorCode)), "httpStatus": optInt(f.HTTPStatus), "seed": int(f.Seed),
		"fieldRules": shapeAll(f.FieldRules, shapeFieldRule),
	}
}

// shapeFieldRule shapes a FieldRule.
func shapeFieldRule(r model.FieldRule) any {
	return map[string]any{
		"path": r.Path, "message": optString(r.Message), "code": string(r.Code), "extensions": optJSON(r.Extensions),
		"rate": r.Rate, "count": r.Count, "sandbox": optString(r.Sandbox),
	}
}

// optInt returns n, or nil when it is 0.
func optInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

// requestLog is the lazy Project.requestLog of project id: limit clamped
// to 0..model.RequestLogSize, absent the whole log.
func (sh shaper) requestLog(id string) lazy {
	return func(ctx context.Context, args map[string]any) (any, error) {
		limit, ok := input(args).integer("limit")
		if !ok {
			limit = model.RequestLogSize
		}
		entries, err := sh.schemas.RequestLog(ctx, sh.principal, id, min(max(limit, 0), model.RequestLogSize))
		if err != nil {
			return nil, err
		}
		return shapeAll(entries, shapeLogEntry), nil
	}
}

// shapeLogEntry shapes a RequestLogEntry. A refusal's status follows from
// its code here, where errors become HTTP statuses.
func shapeLogEntry(e model.RequestLogEntry) any {
	status := e.Status
	if status == 0 {
		status = statusOf(e.Code)
		if e.Code == "" {
			status = http.StatusOK
		}
	}
	return map[string]any{
		"id": e.ID, "at": dateTime(e.At), "operationName": optString(e.OperationName),
		"rootFields": nonNil(e.RootFields), "query": e.Query, "variables": optJSON(e.Variables),
		"status": status, "durationMs": e.DurationMs, "errorCode": optString(string(e.Code)), "fault": optString(e.Fault),
		"subscription": optString(e.Subscription), "events": logEvents(e), "sandbox": optString(e.Sandbox),
	}
}

// logEvents is an END entry's event count; null on other entries.
func logEvents(e model.RequestLogEntry) any {
	if e.Subscription != model.SubscriptionEnd {
		return nil
	}
	return e.Events
}
