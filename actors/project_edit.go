package actors

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// edit applies one model edit to a copy of the project, checks the plan's
// limits, checkpoints the copy and only then makes it current.
func (p *projectGrain) edit(g *grain, req grainRequest, a Access) (result, error) {
	next := p.st.Project.Clone()
	res, err := applyEditAt(next, req, g.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	if err := p.checkLimits(g, next, a); err != nil {
		return nil, err
	}
	st := *p.st // the session, adoption tokens and call count stay
	st.Project = next
	b, err := p.encodeWithin(g, &st, a)
	if err != nil {
		return nil, err
	}
	if err := commit(g, encoded(b), func(encoded) { p.st = &st }); err != nil {
		return nil, err
	}
	p.publish(g)
	return res, nil
}

// encodeWithin encodes the state an edit would store and refuses it when
// the record would be larger than the project's bound (ModelLimits) and
// larger than it is now: a project stored before the bound existed can
// still shrink. The record is encoded once, here; commit stores these bytes.
func (p *projectGrain) encodeWithin(g *grain, st *projectState, a Access) ([]byte, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("checkpoint project %s: %w", st.Project.ID, err)
	}
	limit := g.env.Config.Limits.Model.ProjectBytesFor(st.Project.Kind, a.Plan)
	if limit <= 0 || int64(len(b)) <= limit {
		return b, nil
	}
	if old, err := json.Marshal(p.st); err == nil && len(old) >= len(b) {
		return b, nil
	}
	return nil, model.ProjectTooLarge(st.Project.Kind, int64(len(b)), limit)
}

// applyEditAt runs one edit on p at now: a contract edit, or else any
// other edit that a contract project allows (project_contract.go).
func applyEditAt(p *model.Project, req grainRequest, now time.Time) (result, error) {
	if res, ok, err := applyContractEdit(p, req, now); ok || err != nil {
		return res, err
	}
	return applyEdit(p, req)
}

// applyEdit runs one edit on p and returns what the API answers.
func applyEdit(p *model.Project, req grainRequest) (result, error) {
	pid := p.ID
	switch e := req.(type) {
	case *pb.EditUpdateProject:
		return updateProject(p, e)
	case *pb.EditSetPreviewSharing:
		return projectReply{p}, setPreviewSharing(p, e.ShareToken)
	case *pb.EditCreateTable:
		src, err := decodeOptional[model.TableSource](e.Source.GetJson())
		if err != nil {
			return nil, err
		}
		t := &model.Table{ID: ids.NewChildID(pid, 't'), Name: e.Name, Source: src}
		return tableReply{t}, p.AddTable(t)
	case *pb.EditUpdateTable:
		src, err := decodeOptional[model.TableSource](e.Source.GetJson())
		if err != nil {
			return nil, err
		}
		return tableOf(p.UpdateTable(e.TableId, model.TablePatch{Name: e.Name, Source: src}))
	case *pb.EditDeleteTable:
		return doneReply(true), p.RemoveTable(e.TableId)
	case *pb.EditCreateAttribute:
		in, err := decodeOptional[model.Attribute](e.Attribute.GetJson())
		if err != nil {
			return nil, err
		}
		return createAttribute(p, in)
	case *pb.EditUpdateAttribute:
		patch, err := decodeOptional[model.AttributePatch](e.Patch.GetJson())
		if err != nil {
			return nil, err
		}
		return updateAttribute(p, e.AttributeId, patch)
	case *pb.EditDeleteAttribute:
		return doneReply(true), p.RemoveAttribute(e.AttributeId)
	case *pb.EditCreateRelation:
		r, err := decodeOptional[model.Relation](e.Relation.GetJson())
		if err != nil || r == nil {
			return nil, errOr(err, model.Errorf(model.CodeBadUserInput, "relation missing"))
		}
		r.ID = ids.NewChildID(pid, 'r')
		return relationReply{r}, p.AddRelation(r)
	case *pb.EditDeleteRelation:
		return doneReply(true), p.RemoveRelation(e.RelationId)
	}
	return applyOperationEdit(p, req)
}

// updateProject renames the project, moves its slug or sets its
// allowedOrigins.
func updateProject(p *model.Project, e *pb.EditUpdateProject) (result, error) {
	if e.Name != nil {
		p.Name = *e.Name
	}
	if e.Slug != nil && *e.Slug != p.Slug {
		if e.ExpectSlug != nil && *e.ExpectSlug != p.Slug {
			return nil, model.Errorf(model.CodeConflict, "the project moved to slug %q meanwhile; read it again and retry", p.Slug)
		}
		p.Slug = *e.Slug
	}
	if e.Origins != nil {
		o, err := model.CheckAllowedOrigins(p.Kind, e.Origins.Origins)
		if err != nil {
			return nil, err
		}
		p.AllowedOrigins = o
	}
	p.Version++
	return projectReply{p}, nil
}

func applyOperationEdit(p *model.Project, req grainRequest) (result, error) {
	pid := p.ID
	switch e := req.(type) {
	case *pb.EditGenerateOperations:
		return operationsOf(p.GenerateDefaultOperations(e.TableId, func() string { return ids.NewChildID(pid, 'o') }))
	case *pb.EditCreateOperation:
		o, err := decodeOptional[model.Operation](e.Operation.GetJson())
		if err != nil || o == nil {
			return nil, errOr(err, model.Errorf(model.CodeBadUserInput, "operation missing"))
		}
		o.ID, o.Enabled = ids.NewChildID(pid, 'o'), true
		return operationReply{o}, p.AddOperation(o)
	case *pb.EditUpdateOperation:
		patch, err := decodeDoc[model.OperationPatch](e.Patch.GetJson())
		if err != nil {
			return nil, err
		}
		return operationOf(p.UpdateOperation(e.OperationId, *patch))
	case *pb.EditDeleteOperation:
		return doneReply(true), p.RemoveOperation(e.OperationId)
	case *pb.EditGenerateViews:
		return viewsReply(p.GenerateMissingViews(func() string { return ids.NewChildID(pid, 'v') })), nil
	case *pb.EditSetFaults:
		return setFaults(p, e.OperationId, faultSettingsOf(e.Faults))
	case *pb.EditImportTables, *pb.EditSetBaseline:
		return applyVersioningEdit(p, req)
	}
	return nil, fmt.Errorf("unknown model edit %s", requestName(req))
}

// decodeOptional decodes a document that may be absent (nil).
func decodeOptional[T any](b []byte) (*T, error) {
	if len(b) == 0 {
		return nil, nil
	}
	return decodeDoc[T](b)
}

// errOr is err, or else missing.
func errOr(err, missing error) error {
	if err != nil {
		return err
	}
	return missing
}

// setPreviewSharing gives an account project the preview share token, or
// takes it away when token is empty. A guest or session project keeps its
// token: it is its runtime credential. The token is not part of the
// runtime schema, so the model version stays.
func setPreviewSharing(p *model.Project, token string) error {
	if p.Kind == model.KindAccount {
		p.ShareToken = token
		return nil
	}
	if token == "" {
		return model.Errorf(model.CodeBadUserInput, "the share token of a %s project is its runtime credential and cannot be turned off; it goes when the project is adopted into an account", p.Kind)
	}
	return nil
}

func createAttribute(p *model.Project, in *model.Attribute) (result, error) {
	if in == nil {
		return nil, model.Errorf(model.CodeBadUserInput, "attribute missing")
	}
	a := *in
	a.ID = ids.NewChildID(p.ID, 'a')
	if a.Mapping == model.MappingGenerated && a.Generator != nil {
		if err := graphql.CheckGenerator(a.Generator); err != nil {
			return nil, err
		}
	}
	return attributeReply{&a}, p.AddAttribute(&a)
}

func updateAttribute(p *model.Project, id string, patch *model.AttributePatch) (result, error) {
	if patch == nil {
		patch = &model.AttributePatch{}
	}
	if patch.Generator != nil {
		if err := graphql.CheckGenerator(patch.Generator); err != nil {
			return nil, err
		}
	}
	return attributeOf(p.UpdateAttribute(id, *patch))
}

// checkLimits enforces the plan's table limit (guest and session projects:
// the session limits) and the session projects' attribute limit.
func (p *projectGrain) checkLimits(g *grain, next *model.Project, a Access) error {
	l := g.env.Config.Limits
	maxTables, maxAttrs := l.TableLimit(a.Plan), 0
	if next.Kind != model.KindAccount {
		maxTables, maxAttrs = l.SessionTables, l.SessionAttributes
	} else if a.Plan == "" { // system or key callers: the account's plan is not known here
		maxTables = l.TeamTables
	}
	if n := len(next.Tables); n > len(p.st.Project.Tables) && n > maxTables {
		return tableLimitError(l, next.Kind, a.Plan, n, maxTables)
	}
	if next.Kind == model.KindAccount {
		maxAttrs = l.Model.Attributes
	}
	if maxAttrs > 0 {
		for _, t := range next.Tables {
			if old := p.st.Project.Table(t.ID); len(t.Attributes) > maxAttrs && (old == nil || len(old.Attributes) < len(t.Attributes)) {
				return model.Errorf(model.CodeLimitReached, "table %s may have %s in a %s project", t.Name, plural(maxAttrs, "attribute"), strings.ToLower(string(next.Kind)))
			}
		}
		if err := checkEmbeddedFields(p.st.Project, next, maxAttrs); err != nil {
			return err
		}
	}
	return p.checkValues(l.Model, next)
}

// tableLimitError refuses a model of n tables over the limit max of a
// project of kind on plan, naming what the model needs, what the plan
// allows and the cheapest plan whose account projects fit it, so a
// person knows what to change (a schema counts its types with rows).
func tableLimitError(l model.Limits, kind model.ProjectKind, plan model.Plan, n, max int) error {
	fits := ""
	for _, p := range []model.Plan{model.PlanStarter, model.PlanProfessional, model.PlanTeam} {
		if p.Rank() > plan.Rank() && l.TableLimit(p) >= n {
			fits = fmt.Sprintf("; the %s plan allows %d", p, l.TableLimit(p))
			break
		}
	}
	if kind != model.KindAccount {
		if fits != "" {
			fits += " in an account project"
		}
		return model.Errorf(model.CodeLimitReached, "a %s project may have %s; this model needs %d%s", strings.ToLower(string(kind)), plural(max, "table"), n, fits)
	}
	on := "on this plan"
	if plan != "" {
		on = "on the " + string(plan) + " plan"
	}
	return model.Errorf(model.CodeLimitReached, "a project may have %s %s; this model needs %d%s", plural(max, "table"), on, n, fits)
}

// checkValues applies ModelLimits.ValueBytes to every attribute the edit
// added or changed; values stored before the bound existed stay until
// they are changed.
func (p *projectGrain) checkValues(l model.ModelLimits, next *model.Project) error {
	if l.ValueBytes <= 0 {
		return nil
	}
	old := map[string]*model.Attribute{}
	for _, t := range p.st.Project.Tables {
		for _, a := range t.Attributes {
			old[a.ID] = a
		}
	}
	for _, t := range next.Tables {
		for _, a := range t.Attributes {
			if o := old[a.ID]; o != nil && sameValues(o, a) {
				continue
			}
			if err := l.CheckValues(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameValues reports whether a and b have the same free-form values.
func sameValues(a, b *model.Attribute) bool {
	if a.SourcePath != b.SourcePath || a.Computed != b.Computed || string(a.Constant) != string(b.Constant) {
		return false
	}
	if a.Generator == nil || b.Generator == nil {
		return a.Generator == b.Generator
	}
	return a.Generator.Kind == b.Generator.Kind && string(a.Generator.Options) == string(b.Generator.Options)
}
