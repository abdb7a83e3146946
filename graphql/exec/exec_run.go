package exec

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// ctxCheckEvery is how many list items execution completes between two
// looks at the context.
const ctxCheckEvery = 256

// run is the state of one execution. It writes the data JSON straight into
// buf; a non-null violation unwinds to the nearest nullable position, which
// truncates buf back to where its value began and writes null there.
type run struct {
	ctx     context.Context
	p       *Prepared
	buf     []byte
	errs    []*gqlerror.Error
	path    []pathStep
	field   Field // handed to resolvers, one call at a time
	coercer inputCoercer
	items   int   // list items completed, for context checks and Bounds.MaxItems
	ctxErr  error // set once ctx has ended or a bound was passed: everything unwinds
	bound   int   // len(buf) past which overBound must look (exec_bounds.go)
	taken   int   // bytes taken from the Budget, given back by release

	omitted     int        // field errors left out (Bounds.MaxErrors)
	omittedCode model.Code // the code of the first one left out

	faults FieldFaults // injected field errors (exec_faults.go); nil for none
	names  []string    // the field names down to the current field, kept only with faults

	pathBuf [16]pathStep // backs path for the usual depths

	rowBufs [][]int32 // Writer.RowBuf's buffers given back, reused within the request
}

// pathStep is one step of the response path: a key, or an index when key
// is empty.
type pathStep struct {
	key   string
	index int
}

// Execute runs the operation with root as the Parent of root fields and
// returns its result, whose Errors hold field errors. Root fields run in
// document order, one after the other (strictly in order for mutations).
// If ctx ends first, Execute stops early and returns ctx.Err(). Execute is
// safe for concurrent use; no panic escapes it (a resolver's becomes an INTERNAL field error).
func (p *Prepared) Execute(ctx context.Context, root any) (res *Result, err error) {
	return p.ExecuteTo(ctx, root, nil)
}

// ExecuteTo is Execute writing the data into buf's storage (from buf[:0],
// growing it if need be): the Result's Data then belongs to the caller's
// buffer, which it may reuse once it is done with the Result.
func (p *Prepared) ExecuteTo(ctx context.Context, root any, buf []byte) (res *Result, err error) {
	return p.execute(ctx, root, buf, false)
}

// ExecuteHeld is ExecuteTo for an answer written to a client after it
// returns: the bytes its data took from the Budget stay taken, in the
// Result's Held, and the caller gives them back (Budget.Give) once the
// answer has been written or its connection is gone, so answers waiting
// on slow readers count against the Budget too. Without a Budget, or on
// an error, nothing is held.
func (p *Prepared) ExecuteHeld(ctx context.Context, root any, buf []byte) (res *Result, err error) {
	return p.execute(ctx, root, buf, true)
}

// Executor returns the Executor that prepared p: a surface that keeps its
// own Executor checks with it that p is one of its own.
func (p *Prepared) Executor() *Executor { return p.ex }

func (p *Prepared) execute(ctx context.Context, root any, buf []byte, hold bool) (res *Result, err error) {
	r := newRun(ctx, p, buf)
	defer r.release()
	defer func() {
		if v := recover(); v != nil {
			res, err = internalFailure(v), nil
		}
	}()
	ok := r.rootObject(root)
	if r.ctxErr != nil {
		return nil, r.ctxErr
	}
	if !ok {
		r.buf = append(r.buf[:0], "null"...)
	}
	p.noteSize(len(r.buf))
	if r.omitted > 0 {
		r.errs = append(r.errs, omittedError(r.omitted, r.omittedCode, p.ex.Bounds.MaxErrors))
	}
	res = &Result{Data: r.buf, Errors: r.errs}
	if hold {
		res.Held, r.taken = int64(r.taken), 0
	}
	return res, nil
}

// runPool recycles the state of executions; see newRun and release.
var runPool = sync.Pool{New: func() any { return new(run) }}

// newRun returns the state of one execution of p, writing into buf (a
// fresh buffer when buf has too little room).
func newRun(ctx context.Context, p *Prepared, buf []byte) *run {
	r := runPool.Get().(*run)
	*r = run{ctx: ctx, p: p, coercer: inputCoercer{schema: p.ex.Schema, vars: p.vars}}
	r.bound = min(freeBytes, p.ex.Bounds.MaxResponseBytes)
	if p.ex.Bounds.Budget == nil {
		r.bound = p.ex.Bounds.MaxResponseBytes
	}
	if hint := p.sizeHint(); cap(buf) < hint {
		buf = make([]byte, 0, hint)
	}
	r.buf = buf[:0]
	r.path = r.pathBuf[:0]
	r.field.run = r
	r.faults = fieldFaultsOf(ctx)
	return r
}

// release returns r to the pool once its execution is over, and what it
// took from the Budget (and did not hand to its Result's Held) to the
// Budget. The buffer and errors belong to the
// Result by then; nothing else keeps r, since resolvers must not keep
// their Field.
func (r *run) release() {
	r.giveBack()
	*r = run{}
	runPool.Put(r)
}

// rootObject writes the root selection, looking at ctx before each field.
// A DirectRoot writes the fields it covers itself.
func (r *run) rootObject(root any) bool {
	sp := r.p.plan
	direct, _ := root.(DirectRoot)
	if sp.direct == nil || r.faults != nil {
		direct = nil
	}
	r.buf = append(r.buf, '{')
	for i, pf := range sp.fields {
		if err := r.ctx.Err(); err != nil {
			r.ctxErr = err
			return false
		}
		if len(r.buf) > r.bound && !r.overBound() {
			return false
		}
		if i > 0 {
			r.buf = append(r.buf, ',')
		}
		r.buf = append(r.buf, pf.keyJSON...)
		if direct != nil {
			if ok, handled := direct.WriteRootField((*Writer)(r), sp, i); handled {
				if !ok {
					return false
				}
				continue
			}
		}
		if !r.writeField(pf, r.p.rootType, root) {
			return false
		}
	}
	r.buf = append(r.buf, '}')
	// The bound is looked at before each field and item; the value written
	// last has nothing after it to look, so the whole is looked at here.
	return len(r.buf) <= r.bound || r.overBound()
}

// object writes the selection plan sp of obj for the value v. A
// DirectObject with a compiled plan writes itself. The members
// of a map that hold common scalar values are written inline: that is most
// of the fields of the mock runtime, whose rows are maps. The inline path
// appends to a local slice, which spares a GC write barrier per field.
func (r *run) object(sp *selectionPlan, obj *objectType, v any) bool {
	if d, ok := v.(DirectObject); ok && sp.direct != nil && r.faults == nil {
		if ok, handled := d.WriteDirect((*Writer)(r), sp, obj); handled {
			return ok
		}
	}
	m, isMap := v.(map[string]any)
	isMap = isMap && r.faults == nil // every field must pass the faults
	buf := append(r.buf, '{')
	for i, pf := range sp.fields {
		if len(buf) > r.bound {
			if r.buf = buf; !r.overBound() {
				return false
			}
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, pf.keyJSON...)
		if isMap && pf.mapLeaf {
			if out, ok := appendCommonLeaf(buf, pf.info.out.kind, m[pf.ast.Name]); ok {
				buf = out
				continue
			}
		}
		r.buf = buf
		if !r.writeField(pf, obj, v) {
			return false
		}
		buf = r.buf
	}
	r.buf = append(buf, '}')
	return true
}

// appendCommonLeaf appends v as a value of the scalar kind k when v has
// the Go type that kind usually comes in, and reports whether it did;
// anything else (nil included) takes the general path.
func appendCommonLeaf(buf []byte, k outKind, v any) ([]byte, bool) {
	switch x := v.(type) {
	case string:
		if k == kindString || k == kindID {
			return appendString(buf, x), true
		}
	case float64:
		if k == kindFloat && !math.IsNaN(x) && !math.IsInf(x, 0) {
			return appendFloat(buf, x), true
		}
	case bool:
		if k == kindBoolean {
			return strconv.AppendBool(buf, x), true
		}
	case int:
		if (k == kindInt && x >= math.MinInt32 && x <= math.MaxInt32) || k == kindFloat {
			return strconv.AppendInt(buf, int64(x), 10), true
		}
	case json.Number:
		if k == kindInt {
			if i, err := strconv.ParseInt(string(x), 10, 32); err == nil {
				return strconv.AppendInt(buf, i, 10), true
			}
		}
	}
	return buf, false
}

// writeField writes the value of one response key of obj, whose key the
// caller has written.
func (r *run) writeField(pf *plannedField, obj *objectType, parent any) bool {
	if pf.info == nil {
		r.buf = append(r.buf, obj.nameJSON...)
		return true
	}
	n := len(r.path)
	r.path = append(r.path, pathStep{key: pf.key})
	var ok bool
	if r.faults == nil {
		ok = r.fieldValue(pf, parent)
	} else {
		names := len(r.names)
		if f := r.injectedFault(pf, obj); f != nil {
			ok = r.faultField(pf, f)
		} else {
			ok = r.fieldValue(pf, parent)
		}
		r.names = r.names[:names]
	}
	r.path = r.path[:n]
	return ok
}

// fieldValue resolves pf on parent and writes its value.
func (r *run) fieldValue(pf *plannedField, parent any) bool {
	v, err := r.resolve(pf, parent)
	if err != nil {
		r.fieldError(err, pf.ast)
		return r.null(pf.info.out)
	}
	return r.complete(pf.info.out, v, pf)
}

// null writes null for a position of type t that has no value; false
// when t is non-null (the caller then unwinds).
func (r *run) null(t *outType) bool {
	if t.nonNull || r.ctxErr != nil {
		return false
	}
	r.buf = append(r.buf, "null"...)
	return true
}

// fieldError records err at the current path, located at f. A refusal
// that says when to retry (a quota, for example) carries its seconds as
// extensions.retryAfter, as the HTTP error body carries retryAfter.
//
// A response carries at most Bounds.MaxErrors errors, messages clipped to
// MaxMessageBytes: the errors past the limit are summed up in one last
// error (see fieldErrorRoom). It returns the error recorded, nil when it
// was left out.
func (r *run) fieldError(err error, f *ast.Field) *gqlerror.Error {
	code := model.ErrorCode(err)
	if !r.fieldErrorRoom(code) {
		return nil
	}
	e := &gqlerror.Error{
		Err:        err,
		Message:    model.Clip(model.ErrorMessage(err), MaxMessageBytes),
		Path:       r.astPath(),
		Extensions: map[string]any{"code": code},
	}
	var me *model.Error
	if errors.As(err, &me) && me.RetryAfter > 0 {
		e.Extensions["retryAfter"] = me.RetryAfter
	}
	if f != nil && f.Position != nil {
		e.Locations = []gqlerror.Location{r.p.location(f.Position)}
	}
	r.errs = append(r.errs, e)
	return e
}

// astPath returns a copy of the current response path.
func (r *run) astPath() ast.Path {
	path := make(ast.Path, len(r.path))
	for i, s := range r.path {
		if s.key != "" {
			path[i] = ast.PathName(s.key)
		} else {
			path[i] = ast.PathIndex(s.index)
		}
	}
	return path
}

// internalFailure is the result of an execution that panicked outside a
// resolver: no data and one INTERNAL error.
func internalFailure(v any) *Result {
	return &Result{
		Data: []byte("null"),
		Errors: []*gqlerror.Error{{
			Message:    "internal error",
			Extensions: map[string]any{"code": model.CodeInternal},
			Err:        panicError{v},
		}},
	}
}
