package answer

import (
	"math"
	"strconv"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// RowPlan is a selection of a table's object type compiled for writing rows
// directly: one step per response key. It is immutable and shared.
type RowPlan struct {
	T     *engine.Table
	Obj   *exec.ObjectType
	Steps []RowStep
}

// RowStep writes one response key of a row.
type RowStep struct {
	Kind    StepKind
	KeyJSON string
	PF      *exec.PlannedField
	Attr    *engine.Attr // StepAttr
	Rel     *engine.Rel  // StepRelOne, StepRelMany
	Child   *RowPlan     // StepRelOne, StepRelMany: the target rows' plan
	// Enum are the values of an Enum field, for StepAttrSome; nil for others.
	Enum map[string]bool
	// Linked lists the rows of a StepLinkMany for a row of the plan's
	// table: the target's view and its rows, in the order to write them,
	// appended to buf.
	Linked func(tv *engine.TableView, row int32, buf []int32) (*engine.TableView, []int32)
}

type StepKind uint8

const (
	StepGeneric    StepKind = iota // the field's resolver
	StepTypename                   // __typename
	StepID                         // the id field
	StepAttr                       // an attribute
	StepRelOne                     // a to-one relation
	StepRelMany                    // a to-many relation
	StepAttrSome                   // a non-null attribute of a contract project (contractrt/direct.go)
	StepRelOneSome                 // a non-null to-one relation of a contract project
	StepLinkMany                   // a list of rows no key holds, of a contract project (Linked)
)

// CompileRowPlan compiles sp, a selection of t's object type obj.
func CompileRowPlan(t *engine.Table, obj *exec.ObjectType, sp *exec.Plan) *RowPlan {
	rp := &RowPlan{T: t, Obj: obj, Steps: make([]RowStep, len(sp.Fields()))}
	for i, pf := range sp.Fields() {
		rp.Steps[i] = compileRowStep(t, pf)
	}
	return rp
}

// compileRowStep compiles the field pf of t's object type; StepGeneric
// when the field is not one the direct writer knows in the expected type.
func compileRowStep(t *engine.Table, pf *exec.PlannedField) RowStep {
	s := RowStep{KeyJSON: pf.KeyJSON(), PF: pf}
	if pf.Type() == nil {
		s.Kind = StepTypename
		return s
	}
	name, out := pf.Name(), pf.Type()
	if name == "id" {
		if out.Kind() == exec.KindID && out.NonNull() {
			s.Kind = StepID
		}
		return s
	}
	if a := t.ByName[name]; a != nil && !a.IsID {
		if out.Kind() == AttrKind(a.Type) && !out.NonNull() {
			s.Kind, s.Attr = StepAttr, a
		}
		return s
	}
	for _, rf := range t.Rels {
		if rf.Name == name {
			return relStep(s, rf, pf)
		}
	}
	return s
}

// relStep compiles a relation field: to-one as a nullable object, to-many
// as a non-null list of non-null objects, as compile_schema.go writes them.
func relStep(s RowStep, rf *engine.Rel, pf *exec.PlannedField) RowStep {
	if pf.Child() == nil {
		return s
	}
	child, _ := pf.Child().Direct().(*RowPlan)
	if child == nil || child.T != rf.To {
		return s
	}
	out := pf.Type()
	switch {
	case !rf.List && out.Kind() == exec.KindObject && !out.NonNull():
		s.Kind = StepRelOne
	case rf.List && out.Kind() == exec.KindList && out.Elem().Kind() == exec.KindObject:
		s.Kind = StepRelMany
	default:
		return s
	}
	s.Rel, s.Child = rf, child
	return s
}

// WriteDirect makes a row an exec.DirectObject: its plan's compiled form writes it.
func (ro *RowObj) WriteDirect(w *exec.Writer, sp *exec.Plan, _ *exec.ObjectType) (ok, handled bool) {
	rp, _ := sp.Direct().(*RowPlan)
	if rp == nil || rp.T != ro.TV.Table {
		return false, false
	}
	return rp.Write(w, ro.TV, ro.Row), true
}

// Write writes row of tv as the object of rp; false unwinds (see run.object in package exec).
// Steps that take the resolver get a *rowObj, made on first use.
func (rp *RowPlan) Write(w *exec.Writer, tv *engine.TableView, row int32) bool {
	var parent *RowObj
	buf := append(w.Buf(), '{')
	for i := range rp.Steps {
		s := &rp.Steps[i]
		if len(buf) > w.Bound() { // the response bounds (exec.Bounds)
			if w.SetBuf(buf); !w.OverBound() {
				return false
			}
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, s.KeyJSON...)
		switch s.Kind {
		case StepTypename:
			buf = append(buf, rp.Obj.NameJSON()...)
			continue
		case StepID:
			buf = AppendRowID(buf, tv, row)
			continue
		case StepAttr:
			buf = AppendOutput(buf, s.Attr.Type, tv.Value(s.Attr, row))
			continue
		case StepAttrSome:
			if v, ok := s.attrSome(tv, row); ok {
				buf = AppendOutput(buf, s.Attr.Type, v)
				continue
			}
		}
		w.SetBuf(buf)
		var ok bool
		switch s.Kind {
		case StepRelOne:
			ok = s.writeRelOne(w, tv, row)
		case StepRelMany:
			ok = s.writeRelMany(w, tv, row)
		case StepRelOneSome:
			ok = s.writeRelOneSome(w, rp.Obj, tv, row)
		case StepLinkMany:
			ok = s.writeLinkMany(w, tv, row)
		default:
			if parent == nil {
				parent = &RowObj{TV: tv, Row: row}
			}
			ok = w.WriteField(s.PF, rp.Obj, parent)
		}
		if !ok {
			return false
		}
		buf = w.Buf()
	}
	w.SetBuf(append(buf, '}'))
	return true
}

// writeRelOne writes a to-one relation of row: the first related row, or
// null (relResolver and exec's run.complete).
func (s *RowStep) writeRelOne(w *exec.Writer, tv *engine.TableView, row int32) bool {
	target := tv.View.TableView(s.Rel.To)
	to := tv.RelatedOne(s.Rel, target, row)
	if to < 0 {
		w.SetBuf(append(w.Buf(), "null"...))
		return true
	}
	n := w.PushKey(s.PF.Key())
	start := len(w.Buf())
	ok := w.Settle(s.PF.Type(), start, s.Child.Write(w, target, to))
	w.PopKey(n)
	return ok
}

// writeRelMany writes a to-many relation of row: the related rows.
func (s *RowStep) writeRelMany(w *exec.Writer, tv *engine.TableView, row int32) bool {
	target, rows := tv.RelatedRows(s.Rel, row)
	n := w.PushKey(s.PF.Key())
	start := len(w.Buf())
	ok := w.Settle(s.PF.Type(), start, s.Child.WriteRows(w, s.PF.Type(), target, engine.RowList{Rows: rows}, 0, len(rows)))
	w.PopKey(n)
	return ok
}

// writeLinkMany writes the rows s.Linked lists for row, listed in a
// buffer of the request's (Writer.RowBuf).
func (s *RowStep) writeLinkMany(w *exec.Writer, tv *engine.TableView, row int32) bool {
	target, rows := s.Linked(tv, row, w.RowBuf())
	n := w.PushKey(s.PF.Key())
	start := len(w.Buf())
	ok := w.Settle(s.PF.Type(), start, s.Child.WriteRows(w, s.PF.Type(), target, engine.RowList{Rows: rows}, 0, len(rows)))
	w.PopKey(n)
	w.PutRowBuf(rows)
	return ok
}

// WriteRows writes rows lo..hi-1 of l as the list type t of objects of rp
// (exec's run.list and run.complete of each item).
func (rp *RowPlan) WriteRows(w *exec.Writer, t *exec.OutType, tv *engine.TableView, l engine.RowList, lo, hi int) bool {
	return w.ListItems(hi-lo, func(i int) bool {
		start := len(w.Buf())
		return w.Settle(t.Elem(), start, rp.Write(w, tv, l.At(lo+i)))
	})
}

// AppendRowID appends tv.id(r) as a JSON string without allocating.
func AppendRowID(buf []byte, tv *engine.TableView, r int32) []byte {
	switch v, created := tv.StoredID(r); {
	case created:
		return exec.AppendString(buf, v.Str)
	case v.Kind == dataset.Null:
		return append(strconv.AppendInt(append(buf, '"'), int64(r)+1, 10), '"')
	case v.Kind == dataset.Number || v.Kind == dataset.Bool:
		return appendOutputString(buf, v)
	default:
		return exec.AppendString(buf, v.Str)
	}
}

// RowObj is one row as resolvers see it (exec.Field.Parent of the type's fields).
type RowObj struct {
	TV  *engine.TableView
	Row int32
}

// Objects returns rows lo..hi-1 of l as row Objects, with two allocations.
func Objects(tv *engine.TableView, l engine.RowList, lo, hi int) []any {
	objs := make([]RowObj, hi-lo)
	items := make([]any, hi-lo)
	for i := range objs {
		objs[i] = RowObj{TV: tv, Row: l.At(lo + i)}
		items[i] = &objs[i]
	}
	return items
}

// attrSome returns the value of a non-null attribute for a direct write,
// and false when the row has none (the resolver then answers).
func (s *RowStep) attrSome(tv *engine.TableView, row int32) (dataset.Value, bool) {
	v := tv.Value(s.Attr, row)
	if s.Enum != nil {
		return v, v.Kind == dataset.String && s.Enum[v.Str]
	}
	switch s.Attr.Type {
	case model.TypeInt, model.TypeFloat: // output's checks, without boxing the value
		f, ok := engine.NumberOf(v)
		return v, ok && !math.IsInf(f, 0) && !math.IsNaN(f) && (s.Attr.Type == model.TypeFloat ||
			f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32)
	case model.TypeBoolean:
		return v, v.Kind == dataset.Bool
	}
	return v, v.Kind == dataset.String || v.Kind == dataset.Number || v.Kind == dataset.Bool
}

// writeRelOneSome writes the related row, or lets the resolver answer
// when there is none.
func (s *RowStep) writeRelOneSome(w *exec.Writer, obj *exec.ObjectType, tv *engine.TableView, row int32) bool {
	target := tv.View.TableView(s.Rel.To)
	to := tv.RelatedOne(s.Rel, target, row)
	if to < 0 {
		return w.WriteField(s.PF, obj, &RowObj{TV: tv, Row: row})
	}
	n := w.PushKey(s.PF.Key())
	start := len(w.Buf())
	ok := w.Settle(s.PF.Type(), start, s.Child.Write(w, target, to))
	w.PopKey(n)
	return ok
}

// AttrKind is the output kind of the schema field of an attribute of type t.
func AttrKind(t model.ScalarType) exec.Kind {
	switch t {
	case model.TypeInt:
		return exec.KindInt
	case model.TypeFloat:
		return exec.KindFloat
	case model.TypeBoolean:
		return exec.KindBoolean
	case model.TypeID:
		return exec.KindID
	case model.TypeJSON:
		return exec.KindCustom
	}
	return exec.KindString
}

// viewer is the root value of a query: the view its root fields read.
type viewer interface{ View() *engine.View }

// RootView is the view a root field of a query reads.
func RootView(f *exec.Field) *engine.View { return f.Parent.(viewer).View() }

// GraphQLType names the object type of a row, for interfaces and unions
// (exec.Typer).
func (ro *RowObj) GraphQLType() string { return ro.TV.Table.Name }
