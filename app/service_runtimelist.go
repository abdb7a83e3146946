package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/model"
)

// RuntimeList runs one page of a LIST operation of the caller's project
// through the mock runtime, as a client would, and returns the rows with
// every scalar field. It counts against the project's runtime quota; a
// used-up quota is LIMIT_REACHED.
func (s sessionProjects) RuntimeList(ctx context.Context, p model.Principal, projectID string, in model.RuntimeList) (model.RuntimeListResult, error) {
	pr, err := s.readProject(ctx, p, projectID, "")
	if err != nil {
		return model.RuntimeListResult{}, err
	}
	body, err := runtimeListRequest(pr, in)
	if err != nil {
		return model.RuntimeListResult{}, err
	}
	res, err := s.serveRuntime(ctx, model.RuntimeRequest{Slug: pr.Slug, Body: body, Internal: true, ProjectID: pr.ID})
	if e := model.AsError(err); e != nil && e.Code == model.CodeTooManyRequests {
		// A GraphQL answer names a used-up limit LIMIT_REACHED (docs/reference/errors.md);
		// the message says which and RetryAfter when it resets.
		return model.RuntimeListResult{}, &model.Error{Code: model.CodeLimitReached, Message: e.Message, RetryAfter: e.RetryAfter}
	}
	if err != nil {
		return model.RuntimeListResult{}, err
	}
	return decodeRuntimeList(res)
}

// runtimeListRequest builds the GraphQL request of a runtimeList call.
func runtimeListRequest(pr *model.Project, in model.RuntimeList) ([]byte, error) {
	op := listOperation(pr, in.Operation)
	if op == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "no enabled LIST operation %q; this project's are: %s", in.Operation, strings.Join(listOperationNames(pr), ", "))
	}
	fields := listFields(pr.Table(op.TableID))
	decls, args := []string{}, []string{}
	vars := map[string]any{}
	add := func(name, typ string, v any) {
		decls = append(decls, fmt.Sprintf("$%s: %s", name, typ))
		args = append(args, fmt.Sprintf("%s: $%s", name, name))
		vars[name] = v
	}
	if in.Page != nil {
		add("page", "Int", *in.Page)
	}
	if in.PageSize != nil {
		add("pageSize", "Int", *in.PageSize)
	}
	if in.SortField != nil {
		add("sortField", "String", *in.SortField)
	}
	if in.SortDirection != nil {
		d := strings.ToUpper(*in.SortDirection)
		if d != "ASC" && d != "DESC" {
			return nil, model.Errorf(model.CodeBadUserInput, "sortDirection is ASC or DESC, not %q", *in.SortDirection)
		}
		add("sortDirection", "SortDirection", d)
	}
	for name, v := range in.Args {
		if !model.ValidName(name) {
			return nil, model.Errorf(model.CodeBadUserInput, "argument %q is not a GraphQL name", name)
		}
		if _, taken := vars[name]; taken {
			continue
		}
		typ := "FilterValue"
		if _, isList := v.([]any); isList {
			typ = "[FilterValue!]"
		}
		add(name, typ, v)
	}
	q := fmt.Sprintf("query runtimeList%s { result: %s%s { total page pageSize items { %s } } }",
		wrap(decls), op.Name, wrap(args), strings.Join(fields, " "))
	return json.Marshal(map[string]any{"query": q, "variables": vars})
}

// listFields are the fields of t's type a list reads: id and every
// attribute in the schema (COMPUTED ones are not).
func listFields(t *model.Table) []string {
	fields := []string{"id"}
	for _, a := range t.Attributes {
		if a.Mapping != model.MappingComputed && a.Name != "id" {
			fields = append(fields, a.Name)
		}
	}
	return fields
}

func wrap(parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func listOperation(pr *model.Project, name string) *model.Operation {
	for _, o := range pr.Operations {
		if o.Name == name && o.Kind == model.OpList && o.Enabled {
			return o
		}
	}
	return nil
}

func listOperationNames(pr *model.Project) []string {
	var out []string
	for _, o := range pr.Operations {
		if o.Kind == model.OpList && o.Enabled {
			out = append(out, o.Name)
		}
	}
	if len(out) == 0 {
		return []string{"(none: call generateDefaultGqlOperations)"}
	}
	return out
}

// decodeRuntimeList shapes the runtime's answer.
func decodeRuntimeList(res *model.RuntimeResult) (model.RuntimeListResult, error) {
	var r struct {
		Data struct {
			Result *struct {
				Items    []json.RawMessage `json:"items"`
				Total    int               `json:"total"`
				Page     int               `json:"page"`
				PageSize int               `json:"pageSize"`
			} `json:"result"`
		} `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(res.Body, &r); err != nil {
		return model.RuntimeListResult{}, fmt.Errorf("runtimeList: %w", err)
	}
	out := model.RuntimeListResult{Items: []json.RawMessage{}, Errors: r.Errors}
	if out.Errors == nil {
		out.Errors = []json.RawMessage{}
	}
	if res.Status == 400 {
		return out, model.Errorf(model.CodeBadUserInput, "the runtime refused the request: %s", firstMessage(r.Errors))
	}
	if d := r.Data.Result; d != nil {
		out.Items, out.Total, out.Page, out.PageSize = d.Items, d.Total, d.Page, d.PageSize
	}
	return out, nil
}

func firstMessage(errs []json.RawMessage) string {
	for _, e := range errs {
		var m struct{ Message string }
		if json.Unmarshal(e, &m) == nil && m.Message != "" {
			return m.Message
		}
	}
	return "unknown error"
}
