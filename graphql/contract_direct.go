package graphql

import (
	"math"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// A contract project's rows are written directly too (runtime_direct.go):
// its entity types are tables whose fields are attributes and relations
// of the same names. Its compiled row plans differ in two ways: a
// relation field that takes arguments (where, orderBy, first, …) goes
// through its resolver, which applies them; and a non-null attribute is
// written directly when the row has a value, else by its resolver, which
// generates one (stepAttrSome).

// contractDirect compiles the row plans of a contract project's entity
// types, its query root and its page wrappers (contract_root.go); other
// types go through the resolvers.
func (rt *Runtime) contractDirect(obj *exec.ObjectType, sp *exec.Plan) any {
	t := rt.contract.tables[obj.Name()]
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
	rp := compileRowPlan(t, obj, sp)
	def := rt.schema.Types[t.Name]
	for i := range rp.steps {
		s := &rp.steps[i]
		if s.pf.Type() == nil {
			continue
		}
		fd := def.Fields.ForName(s.pf.Name())
		switch {
		case fd == nil:
		case (s.kind == stepRelOne || s.kind == stepRelMany) && len(fd.Arguments) > 0:
			s.kind, s.rel, s.child = stepGeneric, nil, nil
		case s.kind == stepGeneric && t.ByName[fd.Name] != nil && !t.ByName[fd.Name].IsID:
			rt.directAttr(s, t.ByName[fd.Name], fd.Type.Name())
		case s.kind == stepGeneric && len(fd.Arguments) == 0:
			directRelOne(s, t)
		}
	}
	return rp
}

// directAttr makes s write the non-null attribute a directly when the
// row has a value (an enum's value must be one of the enum's).
func (rt *Runtime) directAttr(s *rowStep, a *engine.Attr, typ string) {
	out := s.pf.Type()
	switch {
	case !out.NonNull():
	case out.Kind() == exec.KindEnum && a.Type == model.TypeString:
		s.enum = map[string]bool{}
		for _, v := range rt.schema.Types[typ].EnumValues {
			s.enum[v.Name] = true
		}
		s.kind, s.attr = stepAttrSome, a
	case out.Kind() == attrKind(a.Type) && out.Kind() != exec.KindCustom:
		s.kind, s.attr = stepAttrSome, a
	}
}

// directRelOne makes s write a non-null to-one relation directly when
// the row has a related row.
func directRelOne(s *rowStep, t *engine.Table) {
	for _, rf := range t.Rels {
		if rf.Name != s.pf.Name() || rf.List || s.pf.Child() == nil {
			continue
		}
		child, _ := s.pf.Child().Direct().(*rowPlan)
		if out := s.pf.Type(); child != nil && child.t == rf.To && out.Kind() == exec.KindObject && out.NonNull() {
			s.kind, s.rel, s.child = stepRelOneSome, rf, child
		}
	}
}

// attrSome returns the value of a non-null attribute for a direct write,
// and false when the row has none (the resolver then answers).
func (s *rowStep) attrSome(tv *engine.TableView, row int32) (dataset.Value, bool) {
	v := tv.Value(s.attr, row)
	if s.enum != nil {
		return v, v.Kind == dataset.String && s.enum[v.Str]
	}
	switch s.attr.Type {
	case model.TypeInt, model.TypeFloat: // output's checks, without boxing the value
		f, ok := engine.NumberOf(v)
		return v, ok && !math.IsInf(f, 0) && !math.IsNaN(f) && (s.attr.Type == model.TypeFloat ||
			f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32)
	case model.TypeBoolean:
		return v, v.Kind == dataset.Bool
	}
	return v, v.Kind == dataset.String || v.Kind == dataset.Number || v.Kind == dataset.Bool
}

// writeRelOneSome writes the related row, or lets the resolver answer
// when there is none.
func (s *rowStep) writeRelOneSome(w *exec.Writer, obj *exec.ObjectType, tv *engine.TableView, row int32) bool {
	target := tv.View.TableView(s.rel.To)
	to := tv.RelatedOne(s.rel, target, row)
	if to < 0 {
		return w.WriteField(s.pf, obj, &rowObj{tv: tv, row: row})
	}
	n := w.PushKey(s.pf.Key())
	start := len(w.Buf())
	ok := w.Settle(s.pf.Type(), start, s.child.write(w, target, to))
	w.PopKey(n)
	return ok
}
