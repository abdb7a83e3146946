package http

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"time"

	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// ProjectFields is what a shaped project's lazy fields ask (sdl,
// requestLog, myRole); both GraphQL surfaces serve them.
type ProjectFields interface {
	// SDL is the project's runtime schema as GraphQL SDL.
	SDL(ctx context.Context, p Principal, projectID string) (string, error)
	// RequestLog returns the newest limit runtime requests of the
	// project, newest first (VIEWER and above).
	RequestLog(ctx context.Context, p Principal, projectID string, limit int) ([]model.RequestLogEntry, error)
	// ProjectRole is the caller's role on the project (Project.myRole),
	// with the error Project gives a caller who may not read it.
	ProjectRole(ctx context.Context, p Principal, projectID string) (model.Role, error)
	// PoolCodes is the set of import codes in the data pool the project
	// reads, and its kind (Table.ready: a table bound to a dataset the
	// project cannot read is not ready).
	PoolCodes(ctx context.Context, p Principal, projectID string) (map[string]bool, model.ProjectKind, error)
}

// lazy is a field value the executor calls only when the field is
// selected, with the field's coerced arguments.
type lazy = func(ctx context.Context, args map[string]any) (any, error)

// shaper turns model values into the GraphQL values of the static
// surfaces: maps keyed by field name, read by the executor's default
// resolver. Fields that cost a backend call or walk a list are lazy. Each
// method returns nil for a nil pointer, so that the executor sees null.
type shaper struct {
	// schemas answers a project's lazy fields.
	schemas ProjectFields
	// principal is whom lazy fields ask the backend for.
	principal       Principal
	baseURL, appURL string
}

// dateTimeLayout is the DateTime scalar: RFC 3339, UTC, milliseconds.
const dateTimeLayout = "2006-01-02T15:04:05.000Z"

// dateTime formats t as a DateTime.
func dateTime(t time.Time) string { return t.UTC().Format(dateTimeLayout) }

// optDateTime formats t as a DateTime, or nil when t is zero.
func optDateTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return dateTime(t)
}

// optString returns s, or nil when s is empty.
func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// optJSON returns raw as a JSON value, or nil when it is empty.
func optJSON(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// shapeList shapes each element of xs with f, lazily.
func shapeList[T any](xs []T, f func(T) any) lazy {
	return func(context.Context, map[string]any) (any, error) { return shapeAll(xs, f), nil }
}

// shapeAll shapes each element of xs with f.
func shapeAll[T any](xs []T, f func(T) any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// user shapes a User.
func (sh shaper) user(u model.User) any {
	return map[string]any{"id": u.ID, "email": u.Email, "name": optString(u.Name)}
}

// member shapes a Member.
func (sh shaper) member(m model.Member) any {
	return map[string]any{"user": sh.user(m.User), "role": string(m.Role), "state": "ACTIVE", "invitation": nil}
}

// account shapes an Account whose usage field is usage: a shaped Usage,
// or a lazy field that reads it (accountResolvers.shapeAccount).
func (sh shaper) account(a *model.Account, usage any) any {
	if a == nil {
		return nil
	}
	return map[string]any{
		"id": a.ID, "name": a.Name, "plan": string(a.Plan),
		"members": shapeList(a.Members, sh.member), "usage": usage,
		"myRole": sh.memberRole(a),
	}
}

// memberRole is Account.myRole: the role in a of the user sh's principal
// names (the new user's, in an AuthPayload), or FORBIDDEN for a caller who
// is no member (an API key).
func (sh shaper) memberRole(a *model.Account) lazy {
	return func(context.Context, map[string]any) (any, error) {
		if m := a.Member(sh.principal.UserID); m != nil && sh.principal.UserID != "" {
			return string(m.Role), nil
		}
		return nil, model.Errorf(model.CodeForbidden, "only a member of the account has a role in it")
	}
}

// usage shapes a Usage.
func (sh shaper) usage(u model.Usage) any {
	return map[string]any{"requests": u.Requests, "quota": u.Quota, "period": u.Period, "resetsAt": dateTime(u.ResetsAt),
		"projects": u.Projects, "projectLimit": u.ProjectLimit, "datasets": u.Datasets, "datasetLimit": u.DatasetLimit,
		"datasetBytes": float64(u.DatasetBytes), "datasetBytesLimit": float64(u.BytesLimit), "keysPerProjectLimit": u.KeysPerProjectLimit}
}

// project shapes a Project. Its sdl, requestLog and myRole are asked of
// sh.schemas when selected.
func (sh shaper) project(p *model.Project) any {
	if p == nil {
		return nil
	}
	id := p.ID
	return map[string]any{
		"id": p.ID, "slug": p.Slug, "name": p.Name, "kind": string(p.Kind),
		"accountId":      optString(p.AccountID),
		"shareToken":     optString(shareToken(p)),
		"previewUrl":     sh.previewURL(p),
		"previewSharing": p.ShareToken != "",
		"runtimeUrl":     sh.runtimeURL(p),
		"allowedOrigins": nonNil(p.AllowedOrigins),
		"expiresAt":      optDateTime(p.ExpiresAt),
		"createdAt":      dateTime(p.CreatedAt),
		"tables":         shapeList(p.Tables, sh.tableIn(sh.poolOf(id))),
		"relations":      shapeList(p.Relations, sh.relation),
		"operations":     shapeList(p.Operations, sh.operation),
		"views":          shapeList(p.Views, sh.view),
		"sdl": lazy(func(ctx context.Context, _ map[string]any) (any, error) {
			return sh.schemas.SDL(ctx, sh.principal, id)
		}),
		"faults":     shapeFaults(p.Faults),
		"contract":   sh.contract(p),
		"requestLog": sh.requestLog(id),
		"myRole": lazy(func(ctx context.Context, _ map[string]any) (any, error) {
			r, err := sh.schemas.ProjectRole(ctx, sh.principal, id)
			return string(r), err
		}),
	}
}

// shareToken returns p's share token when it is p's runtime credential
// (guest and session projects), else "".
func shareToken(p *model.Project) string {
	if p.Kind == model.KindGuest || p.Kind == model.KindSession {
		return p.ShareToken
	}
	return ""
}

// runtimeURL is p's mock runtime address, with the share token for guest
// and session projects.
func (sh shaper) runtimeURL(p *model.Project) string {
	return model.RuntimeURL(sh.baseURL, p.Slug, shareToken(p))
}

// previewURL is p's preview page when p has a share token (guest and
// session projects always, account projects while preview sharing is on),
// else its page on the board.
func (sh shaper) previewURL(p *model.Project) string {
	if p.ShareToken == "" {
		return sh.appURL + "/board/projects/" + url.PathEscape(p.ID)
	}
	return model.PreviewURL(sh.appURL, p.Slug, p.ShareToken)
}

// guestProject shapes the GuestProject of the public API.
func (sh shaper) guestProject(p *model.Project) any {
	if p == nil {
		return nil
	}
	return map[string]any{"projectId": p.ID, "slug": p.Slug, "shareToken": p.ShareToken, "runtimeUrl": sh.runtimeURL(p)}
}

// pool answers the data pool a project reads, asked once however many
// tables' readiness is selected.
type pool func(ctx context.Context) (map[string]bool, model.ProjectKind, error)

// poolOf is the pool of project projectID, asked of sh.schemas when first needed.
func (sh shaper) poolOf(projectID string) pool {
	var (
		mu    sync.Mutex
		done  bool
		codes map[string]bool
		kind  model.ProjectKind
		err   error
	)
	return func(ctx context.Context) (map[string]bool, model.ProjectKind, error) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			codes, kind, err = sh.schemas.PoolCodes(ctx, sh.principal, projectID)
			done = err == nil
		}
		return codes, kind, err
	}
}

// table shapes a Table on its own (a mutation's answer).
func (sh shaper) table(t *model.Table) any {
	if t == nil {
		return nil
	}
	return sh.tableIn(sh.poolOf(ids.ProjectOf(t.ID)))(t)
}

// tableIn shapes the Tables of a project that reads pool: ready and
// notReadyReason ask it when the table is bound, so that a table bound to
// a dataset the project cannot read is not called ready.
func (sh shaper) tableIn(pool pool) func(t *model.Table) any {
	return func(t *model.Table) any {
		if t == nil {
			return nil
		}
		reason := func(ctx context.Context) (string, error) {
			if t.NotReadyReason() != "" {
				return t.NotReadyReason(), nil
			}
			codes, kind, err := pool(ctx)
			if err != nil {
				return "", err
			}
			return t.NotReadyIn(codes, kind), nil
		}
		m := map[string]any{
			"id": t.ID, "name": t.Name, "source": nil,
			"ready": lazy(func(ctx context.Context, _ map[string]any) (any, error) {
				r, err := reason(ctx)
				return r == "", err
			}),
			"notReadyReason": lazy(func(ctx context.Context, _ map[string]any) (any, error) {
				r, err := reason(ctx)
				return optString(r), err
			}),
			"attributes": shapeList(t.Attributes, sh.attribute),
		}
		if t.Source != nil {
			var variant any
			if t.Source.Variant != nil {
				variant = *t.Source.Variant
			}
			m["source"] = map[string]any{"importCode": t.Source.ImportCode, "variant": variant}
		}
		return m
	}
}

// attribute shapes an Attribute.
func (sh shaper) attribute(a *model.Attribute) any {
	if a == nil {
		return nil
	}
	m := map[string]any{
		"id": a.ID, "tableId": a.TableID, "name": a.Name, "type": string(a.Type),
		"sortable": a.Sortable, "filterable": a.Filterable, "required": a.Required,
		"mappingType":        string(a.Mapping),
		"sourceMapping":      nil,
		"constantValue":      optJSON(a.Constant),
		"computedExpression": optString(a.Computed),
		"generator":          nil,
	}
	if a.SourcePath != "" {
		m["sourceMapping"] = map[string]any{"path": a.SourcePath}
	}
	if a.Generator != nil {
		m["generator"] = map[string]any{"kind": a.Generator.Kind, "options": optJSON(a.Generator.Options)}
	}
	return m
}

// relation shapes a Relation.
func (sh shaper) relation(r *model.Relation) any {
	if r == nil {
		return nil
	}
	return map[string]any{
		"id": r.ID, "sourceTableId": r.SourceTableID, "targetTableId": r.TargetTableID,
		"direction": string(r.Direction), "cardinality": string(r.Cardinality),
		"sourceAttribute": r.SourceAttribute, "targetAttribute": r.TargetAttribute,
		"fieldName": r.FieldName, "inverseFieldName": optString(r.InverseFieldName),
	}
}

// operation shapes an Operation.
func (sh shaper) operation(o *model.Operation) any {
	if o == nil {
		return nil
	}
	return map[string]any{
		"id": o.ID, "tableId": o.TableID, "name": o.Name, "kind": string(o.Kind), "enabled": o.Enabled,
		"parameters": shapeAll(o.Parameters, sh.parameter),
		"options":    shapeOptions(o.Options),
		"faults":     shapeFaults(o.Faults),
	}
}

// shapeOptions shapes OperationOptions; nil is all false.
func shapeOptions(o *model.OperationOptions) any {
	var v model.OperationOptions
	if o != nil {
		v = *o
	}
	return map[string]any{"relay": v.Relay, "where": v.Where, "orderBy": v.OrderBy, "subscriptions": v.Subscriptions}
}

// parameter shapes a Parameter.
func (sh shaper) parameter(p model.Parameter) any {
	return map[string]any{"name": p.Name, "attribute": p.Attribute, "operator": string(p.Operator)}
}

// view shapes a View.
func (sh shaper) view(v *model.View) any {
	if v == nil {
		return nil
	}
	return map[string]any{"id": v.ID, "tableId": v.TableID, "kind": v.Kind, "name": v.Name}
}

// maxSamples is the largest sampleDocuments limit.
const maxSamples = 50

// dataSource shapes a DataSource; its sampleDocuments are read when
// selected, limit clamped to 0..maxSamples.
func (sh shaper) dataSource(d DataSource) any {
	samples := d.Samples
	return map[string]any{
		"importCode": d.ImportCode, "name": d.Name, "recordCount": d.RecordCount,
		"fieldPaths": d.FieldPaths, "owned": d.Owned,
		"variants": shapeAll(d.Variants, sh.variant),
		"sampleDocuments": lazy(func(_ context.Context, args map[string]any) (any, error) {
			limit, ok := input(args).integer("limit")
			if !ok {
				limit = 3
			}
			limit = min(max(limit, 0), maxSamples)
			if samples == nil || limit == 0 {
				return []json.RawMessage{}, nil
			}
			docs := samples.Sample(limit)
			return docs[:min(len(docs), limit)], nil
		}),
	}
}

// variant shapes a Variant.
func (sh shaper) variant(v Variant) any {
	return map[string]any{"name": v.Name, "recordCount": v.RecordCount}
}

// apiKey shapes an ApiKey; its hash never leaves the server.
func (sh shaper) apiKey(k model.APIKey) any {
	return map[string]any{
		"id": k.ID, "name": k.Name, "projectId": k.ProjectID, "scope": string(k.Scope), "prefix": k.Prefix,
		"expiresAt": optDateTime(k.ExpiresAt), "revoked": k.Revoked, "maxActors": k.MaxActors,
		"createdAt": dateTime(k.CreatedAt), "lastUsedAt": optDateTime(k.LastUsedAt), "activeActors": k.ActiveActors,
		"createdBy": sh.keyCreator(k.CreatedBy),
	}
}

// keyCreator is ApiKey.createdBy: the member who made the key, as they
// were then; null for keys made before it was kept. Only members of the
// account list keys, so the user's ID reaches no one else.
func (sh shaper) keyCreator(u *model.User) any {
	if u == nil {
		return nil
	}
	return sh.user(*u)
}

// createdKey shapes a CreatedApiKey.
func (sh shaper) createdKey(k CreatedKey) any {
	return map[string]any{"key": sh.apiKey(k.Key), "value": k.Value}
}

// nonNil is list, or an empty list for nil ([String!]! fields).
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
