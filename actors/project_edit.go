package actors

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// editArgs is the union of the arguments of model edits.
type editArgs struct {
	ProjectID   string                `json:"projectId,omitempty"`
	TableID     string                `json:"tableId,omitempty"`
	AttributeID string                `json:"attributeId,omitempty"`
	RelationID  string                `json:"relationId,omitempty"`
	OperationID string                `json:"operationId,omitempty"`
	Name        *string               `json:"name,omitempty"`
	Slug        *string               `json:"slug,omitempty"`
	Source      *model.TableSource    `json:"source,omitempty"`
	Attribute   *model.Attribute      `json:"attribute,omitempty"`
	AttrPatch   *model.AttributePatch `json:"attrPatch,omitempty"`
	Relation    *model.Relation       `json:"relation,omitempty"`
	Operation   *model.Operation      `json:"operation,omitempty"`
	OpPatch     *model.OperationPatch `json:"opPatch,omitempty"`
	// ShareToken is setPreviewSharing's new token; empty turns sharing off.
	ShareToken string `json:"shareToken,omitempty"`
	// Origins is updateProject's new allowedOrigins; nil keeps them.
	Origins *[]string `json:"origins,omitempty"`
	// Faults are setFaults' new settings; nil clears them.
	Faults *model.FaultSettings `json:"faults,omitempty"`
}

// edit applies one model edit to a copy of the project, checks the plan's
// limits, checkpoints the copy and only then makes it current.
func (p *projectGrain) edit(g *grain, a projectArgs) (any, error) {
	var e editArgs
	if len(a.Args) > 0 {
		if err := json.Unmarshal(a.Args, &e); err != nil {
			return nil, fmt.Errorf("edit %s: %w", a.Op, err)
		}
	}
	next := p.st.Project.Clone()
	res, err := applyEdit(next, a.Op, e)
	if err != nil {
		return nil, err
	}
	if err := p.checkLimits(g, next, a.Access); err != nil {
		return nil, err
	}
	st := *p.st // the session, adoption tokens and call count stay
	st.Project = next
	if err := commit(g, &st, func(v *projectState) { p.st = v }); err != nil {
		return nil, err
	}
	p.publish(g)
	return res, nil
}

// applyEdit runs one edit on p and returns what the API answers.
func applyEdit(p *model.Project, op string, e editArgs) (any, error) {
	pid := p.ID
	switch op {
	case "updateProject":
		if e.Name != nil {
			p.Name = *e.Name
		}
		if e.Slug != nil {
			p.Slug = *e.Slug
		}
		if e.Origins != nil {
			o, err := model.CheckAllowedOrigins(p.Kind, *e.Origins)
			if err != nil {
				return nil, err
			}
			p.AllowedOrigins = o
		}
		p.Version++
		return p, nil
	case "setPreviewSharing":
		return p, setPreviewSharing(p, e.ShareToken)
	case "createTable":
		t := &model.Table{ID: newChildID(pid, 't'), Name: deref(e.Name), Source: e.Source}
		return t, p.AddTable(t)
	case "updateTable":
		return p.UpdateTable(e.TableID, model.TablePatch{Name: e.Name, Source: e.Source})
	case "deleteTable":
		return true, p.RemoveTable(e.TableID)
	case "createAttribute":
		return createAttribute(p, e.Attribute)
	case "updateAttribute":
		return updateAttribute(p, e.AttributeID, e.AttrPatch)
	case "deleteAttribute":
		return true, p.RemoveAttribute(e.AttributeID)
	case "createRelation":
		if e.Relation == nil {
			return nil, model.Errorf(model.ErrBadUserInput, "relation missing")
		}
		r := *e.Relation
		r.ID = newChildID(pid, 'r')
		return &r, p.AddRelation(&r)
	case "deleteRelation":
		return true, p.RemoveRelation(e.RelationID)
	}
	return applyOperationEdit(p, op, e)
}

func applyOperationEdit(p *model.Project, op string, e editArgs) (any, error) {
	pid := p.ID
	switch op {
	case "generateOperations":
		return p.GenerateDefaultOperations(e.TableID, func() string { return newChildID(pid, 'o') })
	case "createOperation":
		if e.Operation == nil {
			return nil, model.Errorf(model.ErrBadUserInput, "operation missing")
		}
		o := *e.Operation
		o.ID, o.Enabled = newChildID(pid, 'o'), true
		return &o, p.AddOperation(&o)
	case "updateOperation":
		patch := model.OperationPatch{}
		if e.OpPatch != nil {
			patch = *e.OpPatch
		}
		return p.UpdateOperation(e.OperationID, patch)
	case "deleteOperation":
		return true, p.RemoveOperation(e.OperationID)
	case "generateViews":
		return p.GenerateMissingViews(func() string { return newChildID(pid, 'v') }), nil
	case "importTables", "setBaseline":
		return applyVersioningEdit(p, op, e)
	case "setFaults":
		return setFaults(p, e.OperationID, e.Faults)
	}
	return nil, fmt.Errorf("unknown model edit %q", op)
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
		return model.Errorf(model.ErrBadUserInput, "the share token of a %s project is its runtime credential and cannot be turned off; it goes when the project is adopted into an account", p.Kind)
	}
	return nil
}

func createAttribute(p *model.Project, in *model.Attribute) (any, error) {
	if in == nil {
		return nil, model.Errorf(model.ErrBadUserInput, "attribute missing")
	}
	a := *in
	a.ID = newChildID(p.ID, 'a')
	if a.Mapping == model.MappingGenerated && a.Generator != nil {
		if err := graphql.CheckGenerator(a.Generator); err != nil {
			return nil, err
		}
	}
	return &a, p.AddAttribute(&a)
}

func updateAttribute(p *model.Project, id string, patch *model.AttributePatch) (any, error) {
	if patch == nil {
		patch = &model.AttributePatch{}
	}
	if patch.Generator != nil {
		if err := graphql.CheckGenerator(patch.Generator); err != nil {
			return nil, err
		}
	}
	return p.UpdateAttribute(id, *patch)
}

// checkLimits enforces the plan's table limit (guest and session projects:
// the session limits) and the session projects' attribute limit.
func (p *projectGrain) checkLimits(g *grain, next *model.Project, a access) error {
	l := g.env.Config.Limits
	maxTables, maxAttrs := l.TableLimit(a.Plan), 0
	if next.Kind != model.KindAccount {
		maxTables, maxAttrs = l.SessionTables, l.SessionAttributes
	} else if a.Plan == "" { // system or key callers: the account's plan is not known here
		maxTables = l.TeamTables
	}
	if len(next.Tables) > len(p.st.Project.Tables) && len(next.Tables) > maxTables {
		if next.Kind != model.KindAccount {
			return model.Errorf(model.ErrLimitReached, "a %s project may have %s", strings.ToLower(string(next.Kind)), plural(maxTables, "table"))
		}
		return model.Errorf(model.ErrLimitReached, "a project may have %s on this plan", plural(maxTables, "table"))
	}
	if maxAttrs > 0 {
		for _, t := range next.Tables {
			if old := p.st.Project.Table(t.ID); len(t.Attributes) > maxAttrs && (old == nil || len(old.Attributes) < len(t.Attributes)) {
				return model.Errorf(model.ErrLimitReached, "table %s may have %s in a %s project", t.Name, plural(maxAttrs, "attribute"), strings.ToLower(string(next.Kind)))
			}
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
