package exec

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"
)

// Direct writing lets a surface that knows its values write them without
// resolvers: the mock runtime writes rows straight from dataset columns
// instead of boxing every field value into an any and shaping it through
// the generic path. The executor offers three hooks:
//
//   - Executor.DirectPlan compiles each selection plan once, when it is
//     planned, into the surface's own form, kept in Plan.Direct;
//   - a value that is a DirectObject writes a whole object of such a plan;
//   - a root value that is a DirectRoot writes root fields one by one.
//
// A direct writer must write exactly the bytes, errors and null
// propagation the generic path would; when it cannot (a case it does not
// cover, an error to report), it declines before writing anything and the
// generic path takes over.

// DirectObject is a value that can write the object of a selection plan
// itself. WriteDirect either declines (handled false, nothing written) or
// writes the object as the generic path would and returns its result: false
// unwinds the execution.
type DirectObject interface {
	WriteDirect(w *Writer, p *Plan, obj *ObjectType) (ok, handled bool)
}

// DirectRoot is a root value that can write root fields itself. The caller
// has checked the context and written the field's key; WriteRootField
// writes the value of field i of the root plan p as the generic path would,
// or declines (handled false, nothing written).
type DirectRoot interface {
	WriteRootField(w *Writer, p *Plan, i int) (ok, handled bool)
}

// DirectCompiler compiles the plan p of object type obj for a surface's
// direct writers; nil means it has no direct form. It runs once per plan,
// after the plans of its fields' selections, and must be safe for
// concurrent use. Its result is Plan.Direct.
type DirectCompiler func(obj *ObjectType, p *Plan) any

// The planned forms a direct writer reads. They are the executor's own
// types under exported names: immutable once planned, shared by concurrent
// executions, read through the methods below.
type (
	// Plan is a selection set planned for one object type: one
	// PlannedField per response key, in response order.
	Plan = selectionPlan
	// PlannedField is one response key of a Plan.
	PlannedField = plannedField
	// ObjectType is an object type of the schema.
	ObjectType = objectType
	// OutType is an output type reference: a named type or a list, nullable or not.
	OutType = outType
	// Kind is the shape of an OutType.
	Kind = outKind
)

// The kinds of OutType a direct writer tells apart.
const (
	KindCustom  = kindCustom // custom scalar: plain JSON
	KindInt     = kindInt
	KindFloat   = kindFloat
	KindString  = kindString
	KindBoolean = kindBoolean
	KindID      = kindID
	KindEnum    = kindEnum
	KindObject  = kindObject
	KindList    = kindList
)

// Fields returns the plan's fields in response order; the caller must not modify it.
func (sp *selectionPlan) Fields() []*PlannedField { return sp.fields }

// Direct returns what the Executor's DirectPlan compiled for the plan, or nil.
func (sp *selectionPlan) Direct() any { return sp.direct }

// Key returns the field's response key.
func (pf *plannedField) Key() string { return pf.key }

// KeyJSON returns the response key as a JSON object key with its colon: `"key":`.
func (pf *plannedField) KeyJSON() string { return pf.keyJSON }

// Name returns the schema name of the field; "" for __typename.
func (pf *plannedField) Name() string {
	if pf.info == nil {
		return ""
	}
	return pf.info.def.Name
}

// Type returns the field's output type; nil for __typename.
func (pf *plannedField) Type() *OutType {
	if pf.info == nil {
		return nil
	}
	return pf.info.out
}

// Child returns the plan of the field's selection when its type is an
// object type; nil otherwise.
func (pf *plannedField) Child() *Plan { return pf.child }

// Dynamic reports whether the field's arguments use variables: then they
// are coerced per request (Writer.Args), else once (ConstArgs).
func (pf *plannedField) Dynamic() bool { return pf.dynamic }

// ConstArgs returns the arguments coerced when the field was planned,
// unknown loose arguments in extra, and the error coercing them gave; only
// meaningful when the field is not Dynamic. The maps are shared: the
// caller must not modify them.
func (pf *plannedField) ConstArgs() (args, extra map[string]any, err error) {
	return pf.args, pf.extra, pf.argsErr
}

// Def returns the type's schema definition.
func (obj *objectType) Def() *ast.Definition { return obj.def }

// Name returns the type's name.
func (obj *objectType) Name() string { return obj.name }

// NameJSON returns the type's name as a JSON string, as __typename writes it.
func (obj *objectType) NameJSON() string { return obj.nameJSON }

// Kind returns the type's shape.
func (t *outType) Kind() Kind { return t.kind }

// NonNull reports whether the type is non-null.
func (t *outType) NonNull() bool { return t.nonNull }

// Elem returns the item type of a list; nil for other kinds.
func (t *outType) Elem() *OutType { return t.elem }

// Writer is one execution as a direct writer sees it: the response buffer,
// the path and the bounds. It is valid only during the WriteDirect or
// WriteRootField call it is given to, and not safe for concurrent use.
type Writer run

// Buf returns the response buffer; a writer appends to it and hands it back
// with SetBuf before calling any other method.
func (w *Writer) Buf() []byte { return w.buf }

// SetBuf sets the response buffer.
func (w *Writer) SetBuf(buf []byte) { w.buf = buf }

// Bound returns the buffer length past which the writer must call
// OverBound before writing more.
func (w *Writer) Bound() int { return w.bound }

// OverBound checks the response bounds once the buffer has passed Bound;
// false means the execution unwinds (a bound was passed).
func (w *Writer) OverBound() bool { return (*run)(w).overBound() }

// Context returns the request's context.
func (w *Writer) Context() context.Context { return w.ctx }

// Args returns the coerced arguments of pf for this request, as a
// resolver's Field.Args and Field.Extra would hold them.
func (w *Writer) Args(pf *PlannedField) (args, extra map[string]any, err error) {
	return (*run)(w).args(pf)
}

// WriteField writes the value of pf, whose parent object of type obj is
// parent, through its resolver, as the generic path does.
func (w *Writer) WriteField(pf *PlannedField, obj *ObjectType, parent any) bool {
	return (*run)(w).writeField(pf, obj, parent)
}

// PushKey appends the path step of response key key and returns the
// length to cut the path back to with PopKey.
func (w *Writer) PushKey(key string) int { return (*run)(w).pushKey(key) }

// PopKey cuts the path back to length n.
func (w *Writer) PopKey(n int) { w.path = w.path[:n] }

// Settle ends a value of type t written from buffer offset start: when ok
// is false and t is nullable, the value becomes null (unless the execution
// is unwinding).
func (w *Writer) Settle(t *OutType, start int, ok bool) bool {
	return (*run)(w).settle(t, start, ok)
}

// ListItems writes a list of n items, item writing item i, with the
// context checks, the item bound and one path step for the index.
func (w *Writer) ListItems(n int, item func(i int) bool) bool {
	return (*run)(w).listItems(n, item)
}

// RowBuf returns an empty buffer of rows for a direct writer to list rows
// in while it writes them; it gives it back with PutRowBuf, so that one
// request reuses a buffer per nesting level instead of one per row.
func (w *Writer) RowBuf() []int32 {
	if n := len(w.rowBufs); n > 0 {
		b := w.rowBufs[n-1]
		w.rowBufs = w.rowBufs[:n-1]
		return b[:0]
	}
	return nil
}

// PutRowBuf gives back a buffer RowBuf returned (possibly grown by
// append); the writer must not use it after.
func (w *Writer) PutRowBuf(b []int32) {
	if cap(b) > 0 {
		w.rowBufs = append(w.rowBufs, b)
	}
}

// AppendString appends s as a JSON string, as the executor writes strings.
func AppendString(buf []byte, s string) []byte { return appendString(buf, s) }

// AppendFloat appends f as a JSON number, as the executor writes a Float.
func AppendFloat(buf []byte, f float64) []byte { return appendFloat(buf, f) }

// pushKey appends the path step of response key key and returns the length
// to cut the path back to.
func (r *run) pushKey(key string) int {
	n := len(r.path)
	r.path = append(r.path, pathStep{key: key})
	return n
}

// settle ends a value of type t written from buffer offset start, as
// complete does: when ok is false and t is nullable, the value becomes null
// (unless the context ended, which unwinds everything).
func (r *run) settle(t *outType, start int, ok bool) bool {
	if ok || t.nonNull || r.ctxErr != nil {
		return ok
	}
	r.buf = append(r.buf[:start], "null"...)
	return true
}

// listItems writes a list of n items, item writing item i, looking at the
// context every ctxCheckEvery items and at the Bounds before each item. It
// keeps one path step for the index.
func (r *run) listItems(n int, item func(i int) bool) bool {
	r.buf = append(r.buf, '[')
	// One path step serves every item; updating its index in place keeps
	// the loop free of pointer writes.
	step := len(r.path)
	r.path = append(r.path, pathStep{})
	ok := true
	for i := 0; i < n && ok; i++ {
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		if r.items++; r.items%ctxCheckEvery == 0 && r.ctx.Err() != nil {
			r.ctxErr = r.ctx.Err()
			ok = false
			break
		}
		if r.items > r.p.ex.Bounds.MaxItems {
			ok = r.tooManyItems()
			break
		}
		if len(r.buf) > r.bound && !r.overBound() {
			ok = false
			break
		}
		r.path[step].index = i
		ok = item(i)
	}
	r.path = r.path[:step]
	r.buf = append(r.buf, ']')
	return ok
}

// AppendLeaf appends v, which is not nil, as a value of the scalar kind k,
// as the executor shapes a resolver's result; a direct writer's output
// must match it.
func AppendLeaf(buf []byte, k Kind, v any) ([]byte, error) {
	return appendLeaf(buf, &outType{kind: k}, v)
}
