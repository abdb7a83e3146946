package contractrt

import (
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// A contract project's rows are written directly too (graphql/runtime_direct.go):
// its entity types are tables whose fields are attributes and relations
// of the same names. Its compiled row plans differ in two ways: a
// relation field that takes arguments (where, orderBy, first, …) goes
// through its resolver, which applies them; a non-null attribute is
// written directly when the row has a value, else by its resolver, which
// generates one (StepAttrSome); and a list of rows no key holds (links.go)
// without arguments is written from its linked rows (StepLinkMany).

// contractDirect compiles the row plans of a contract project's entity
// types, its query root and its page wrappers (root.go); other
// types go through the resolvers.
func (rt *Runtime) contractDirect(obj *exec.ObjectType, sp *exec.Plan) any {
	t := rt.tables[obj.Name()]
	switch {
	case obj.Def() == rt.schema.Query:
		return rt.contractRoot(sp)
	case t == nil && rt.wrapperKind(obj.Name()) != "":
		switch k := rt.wrapperKind(obj.Name()); k {
		case "page", "connection", "pageInfo", "edge":
			return rt.compileWrap(obj, sp, k)
		}
		return nil
	case t == nil:
		return nil
	}
	rp := answer.CompileRowPlan(t, obj, sp)
	def := rt.schema.Types[t.Name]
	for i := range rp.Steps {
		s := &rp.Steps[i]
		if s.PF.Type() == nil {
			continue
		}
		fd := def.Fields.ForName(s.PF.Name())
		switch {
		case fd == nil:
		case (s.Kind == answer.StepRelOne || s.Kind == answer.StepRelMany) && len(fd.Arguments) > 0:
			s.Kind, s.Rel, s.Child = answer.StepGeneric, nil, nil
		case rt.isPartTotal(t, fd):
			// totals of a row's parts are summed by their resolver (parts.go)
		case s.Kind == answer.StepGeneric && t.ByName[fd.Name] != nil && !t.ByName[fd.Name].IsID:
			rt.directAttr(s, t.ByName[fd.Name], fd.Type.Name())
		case s.Kind == answer.StepGeneric && len(fd.Arguments) == 0 && rt.links[t.Name+"."+fd.Name] != nil:
			rt.directLink(s, t, rt.links[t.Name+"."+fd.Name])
		case s.Kind == answer.StepGeneric && len(fd.Arguments) == 0:
			directRelOne(s, t)
		}
	}
	return rp
}

// directAttr makes s write the non-null attribute a directly when the
// row has a value (an enum's value must be one of the enum's).
func (rt *Runtime) directAttr(s *answer.RowStep, a *engine.Attr, typ string) {
	out := s.PF.Type()
	switch {
	case !out.NonNull():
	case out.Kind() == exec.KindEnum && a.Type == model.TypeString:
		s.Enum = map[string]bool{}
		for _, v := range rt.schema.Types[typ].EnumValues {
			s.Enum[v.Name] = true
		}
		s.Kind, s.Attr = answer.StepAttrSome, a
	case out.Kind() == answer.AttrKind(a.Type) && out.Kind() != exec.KindCustom:
		s.Kind, s.Attr = answer.StepAttrSome, a
	}
}

// directLink makes s write the rows of the link l, a list of rows no key
// holds, taking no arguments (as entityFieldOf answers it: every linked
// row, in storage order), when the field is a list of l's rows and no
// relation, attribute or part of t answers it first.
func (rt *Runtime) directLink(s *answer.RowStep, t *engine.Table, l *ctLink) {
	name := s.PF.Name()
	if t.Field(name) != nil || rt.parts[t.Name+"."+name] != nil || s.PF.Child() == nil {
		return
	}
	for _, rf := range t.Rels {
		if rf.Name == name {
			return
		}
	}
	child, _ := s.PF.Child().Direct().(*answer.RowPlan)
	out := s.PF.Type()
	if child == nil || child.T != l.to || out.Kind() != exec.KindList || out.Elem().Kind() != exec.KindObject {
		return
	}
	s.Kind, s.Child = answer.StepLinkMany, child
	s.Linked = func(tv *engine.TableView, row int32, buf []int32) (*engine.TableView, []int32) {
		return rt.linked(l, tv, row, buf)
	}
}

// directRelOne makes s write a non-null to-one relation directly when
// the row has a related row.
func directRelOne(s *answer.RowStep, t *engine.Table) {
	for _, rf := range t.Rels {
		if rf.Name != s.PF.Name() || rf.List || s.PF.Child() == nil {
			continue
		}
		child, _ := s.PF.Child().Direct().(*answer.RowPlan)
		if out := s.PF.Type(); child != nil && child.T == rf.To && out.Kind() == exec.KindObject && out.NonNull() {
			s.Kind, s.Rel, s.Child = answer.StepRelOneSome, rf, child
		}
	}
}
