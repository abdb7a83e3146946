package exec

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// document is a query text parsed and validated against the executor's
// schema. It is shared by every request with the same text and is
// read-only, except for its plans, which fill in as operations run.
type document struct {
	query   string
	doc     *ast.QueryDocument // nil when refused
	refused *Result            // parse or validation failure
	plans   sync.Map           // *ast.OperationDefinition -> *opPlan, for plans that depend on no variable
	size    atomic.Int64       // size of the last data written, to size the next buffer
	shape   *shape             // set for a shape's document (shape.go), whose query is the shape's key
}

// opPlan is the plan of an operation's root selection, shared by every
// request of the document when it depends on no variable.
type opPlan struct {
	plan       *selectionPlan
	rootFields []string
	// prepared serves every request when the operation declares no
	// variables: they all prepare alike.
	prepared *Prepared
}

// Prepared is a parsed, validated operation with its variables coerced,
// ready to execute. It is immutable; Execute may be called more than once
// and from several goroutines. Requests that prepare alike (the same
// document and an operation without variables) may share one Prepared.
type Prepared struct {
	ex         *Executor
	doc        *document
	op         *ast.OperationDefinition
	vars       map[string]any
	plan       *selectionPlan
	rootType   *objectType
	rootFields []string
	src        *shapeSource // the request's own text when doc is a shape's
}

// Prepare parses and validates req.Query (documents are cached by query
// text, and by shape: a new text of a known shape runs on the shape's
// document, shape.go), selects the operation (req.OperationName, or the only one when
// empty) and coerces req.Variables (a missing variable takes its declared
// default). On failure it returns nil and a refused *Result whose Code is
// model.CodeParseFailed or model.CodeValidateFailed; an unknown operation, a
// query over the depth or field-count limits, a subscription on a schema
// without a Subscription type, and variables
// that do not coerce are validation failures. The refused Result may be
// shared; the caller must not modify it. Prepare is safe for concurrent use.
//
// Documents are bounded before validation (Bounds.DocumentBounds); a
// document over a bound is a validation failure too.
func (e *Executor) Prepare(req Request) (*Prepared, *Result) {
	return e.PrepareContext(context.Background(), req)
}

// PrepareContext is Prepare within ctx: parsing and validating a document
// the cache does not hold waits for one of a few slots of the process and
// stops once ctx is done, giving a refused Result with Code
// model.CodeQueryTimeout (never cached).
func (e *Executor) PrepareContext(ctx context.Context, req Request) (*Prepared, *Result) {
	d := e.cache.get(req.Query)
	if d == nil {
		var p *Prepared
		if p, d = e.prepareShaped(ctx, req); p != nil {
			return p, nil
		}
	}
	if d.refused != nil {
		return nil, d.refused
	}
	op, gerr := selectOperation(d.doc, req.OperationName)
	if gerr != nil {
		return nil, refuse(model.CodeValidateFailed, gerr)
	}
	if cached, ok := d.plans.Load(op); ok && cached.(*opPlan).prepared != nil {
		return cached.(*opPlan).prepared, nil
	}
	rootType := e.rootType(op.Operation)
	if rootType == nil {
		return nil, refuse(model.CodeValidateFailed, limitError(op, "operation type "+string(op.Operation)+" is not supported"))
	}
	vars, gerr := coerceVariables(e.Schema, op, req.Variables)
	if gerr != nil {
		return nil, refuse(model.CodeValidateFailed, gerr)
	}
	p := &Prepared{ex: e, doc: d, op: op, vars: vars, rootType: rootType}
	o := e.planFor(d, op, vars, p.rootType)
	p.plan, p.rootFields = o.plan, o.rootFields
	return p, nil
}

// prepareShaped prepares req, whose text the text cache does not hold, on
// its shape's document when the shape cache holds that shape and the
// text's literals fit it; otherwise it returns the text's own document,
// learning its shape when the text validates.
func (e *Executor) prepareShaped(ctx context.Context, req Request) (*Prepared, *document) {
	if e.shapes == nil || len(req.Query) > maxCachedQuery {
		return nil, e.document(ctx, req.Query)
	}
	text := strings.Clone(req.Query) // the literals' values share its memory, not the request body's
	s := scanShape(text, e.Bounds.MaxTokens)
	if s == nil {
		return nil, e.document(ctx, req.Query)
	}
	defer s.release()
	sd := e.shapes.getKey(s.key)
	if sd != nil {
		if p := e.onShape(sd, s, text, req); p != nil {
			return p, nil
		}
	}
	d := e.document(ctx, text)
	if sd == nil && d.doc != nil && acquireSlot(ctx) {
		// Learning parses and walks the text again: a slot, as parsing
		// and validating take one.
		e.learnShape(text, s)
		releaseSlot()
	}
	return nil, d
}

// onShape prepares req, scanned as s, on the shape's document sd, or
// returns nil when the text must take the usual path: a literal that does
// not fit, or anything else that would be refused (its error then locates
// the text's own tokens).
func (e *Executor) onShape(sd *document, s *shapeScan, text string, req Request) *Prepared {
	op, gerr := selectOperation(sd.doc, req.OperationName)
	if gerr != nil {
		return nil
	}
	rootType := e.rootType(op.Operation)
	if rootType == nil {
		return nil
	}
	vars, ok := sd.shape.vars(s, len(op.VariableDefinitions))
	if !ok {
		return nil
	}
	own, gerr := coerceVariables(e.Schema, op, req.Variables)
	if gerr != nil {
		return nil
	}
	for k, v := range own {
		vars[k] = v
	}
	p := &Prepared{ex: e, doc: sd, op: op, vars: vars, rootType: rootType, src: &shapeSource{text: text}}
	o := e.planFor(sd, op, vars, rootType)
	p.plan, p.rootFields = o.plan, o.rootFields
	return p
}

// rootType returns the root type of operations of kind op, or nil when the
// schema has none.
func (e *Executor) rootType(op ast.Operation) *objectType {
	var def *ast.Definition
	switch op {
	case ast.Query:
		def = e.Schema.Query
	case ast.Mutation:
		def = e.Schema.Mutation
	case ast.Subscription:
		def = e.Schema.Subscription
	}
	if def == nil {
		return nil
	}
	return e.types[def.Name]
}

// document returns the cached document for query, parsing and validating
// it on a miss: the tokens are bounded while parsing, fragments, spreads,
// depth and fields in linear passes, and only then does the validator
// run, under a step limit and ctx. The cost budget (checkCost, linear
// too) applies to valid documents, so that an invalid one gets its
// validation errors.
func (e *Executor) document(ctx context.Context, query string) *document {
	if d := e.cache.get(query); d != nil {
		return d
	}
	if !acquireSlot(ctx) {
		return &document{query: query, refused: timedOut()}
	}
	defer releaseSlot()
	// The cache keeps its own copy of the text: query may share memory
	// with a whole request body (see DecodeRequest).
	query = strings.Clone(query)
	d := &document{query: query}
	doc, refused := e.Bounds.parseBounded(query)
	switch {
	case refused != nil:
		d.refused = refused
	default:
		if lerr := e.checkDocument(doc); lerr != nil {
			d.refused = refuse(model.CodeValidateFailed, lerr)
		} else if errs, canceled := e.validate(ctx, doc); canceled {
			return &document{query: query, refused: timedOut()}
		} else if len(errs) > 0 {
			d.refused = refuse(model.CodeValidateFailed, errs...)
		} else if cerr := e.checkCost(doc); cerr != nil {
			d.refused = refuse(model.CodeValidateFailed, cerr)
		} else {
			d.doc = doc
		}
	}
	return e.cache.put(d)
}

// checkDocument runs the checks before validation: the document's
// fragments and spreads, then the depth, field, walk and same-key limits.
func (e *Executor) checkDocument(doc *ast.QueryDocument) *gqlerror.Error {
	if err := e.Bounds.checkDocument(doc); err != nil {
		return err
	}
	if err := e.checkLimits(doc); err != nil {
		return err
	}
	return e.Bounds.checkSameKeys(doc)
}

// planFor returns the plan of op's root selection, from the document's
// cache when the plan does not depend on variables.
func (e *Executor) planFor(d *document, op *ast.OperationDefinition, vars map[string]any, root *objectType) *opPlan {
	if sp, ok := d.plans.Load(op); ok {
		return sp.(*opPlan)
	}
	pl := &planner{
		ex:      e,
		doc:     d.doc,
		coercer: &inputCoercer{schema: e.Schema, vars: vars},
		consts:  &inputCoercer{schema: e.Schema},
	}
	sp := pl.plan(root, []ast.SelectionSet{op.SelectionSet})
	o := &opPlan{plan: sp, rootFields: rootFieldNames(sp)}
	if pl.varDirs {
		return o
	}
	if len(op.VariableDefinitions) == 0 && d.shape == nil {
		o.prepared = &Prepared{ex: e, doc: d, op: op, rootType: root, plan: sp, rootFields: o.rootFields}
	}
	shared, _ := d.plans.LoadOrStore(op, o)
	return shared.(*opPlan)
}

// selectOperation returns the operation named name, or the only one.
func selectOperation(doc *ast.QueryDocument, name string) (*ast.OperationDefinition, *gqlerror.Error) {
	if name != "" {
		if op := doc.Operations.ForName(name); op != nil {
			return op, nil
		}
		return nil, gqlerror.Errorf("Unknown operation named %q.", name)
	}
	if len(doc.Operations) != 1 {
		return nil, gqlerror.Errorf("Must provide operation name if query contains multiple operations.")
	}
	return doc.Operations[0], nil
}

// rootFieldNames returns the distinct field names of sp, in order.
func rootFieldNames(sp *selectionPlan) []string {
	names := make([]string, 0, len(sp.fields))
	seen := make(map[string]bool, len(sp.fields))
	for _, pf := range sp.fields {
		if !seen[pf.ast.Name] {
			seen[pf.ast.Name] = true
			names = append(names, pf.ast.Name)
		}
	}
	return names
}

// refuse returns a refused Result with errs, each given extensions.code.
func refuse(code model.Code, errs ...*gqlerror.Error) *Result {
	for _, err := range errs {
		err.Extensions = map[string]any{"code": code}
	}
	return &Result{Errors: errs, Refused: true, Code: code}
}

// asGQLError returns err as a *gqlerror.Error.
func asGQLError(err error) *gqlerror.Error {
	if gerr, ok := err.(*gqlerror.Error); ok {
		return gerr
	}
	return gqlerror.Wrap(err)
}

// Mutation reports whether the operation is a mutation.
func (p *Prepared) Mutation() bool { return p.op.Operation == ast.Mutation }

// Subscription reports whether the operation is a subscription: its root
// object is whatever the caller's Subscription resolvers read an event
// from, and it runs once per event (docs/using/realtime.md).
func (p *Prepared) Subscription() bool { return p.op.Operation == ast.Subscription }

// RootFields returns the distinct names (not aliases) of the top-level
// fields the operation selects after fragments, @skip and @include, in
// document order. The caller must not modify the slice.
func (p *Prepared) RootFields() []string { return p.rootFields }

// Source returns the query text the operation was parsed from. It is the
// document cache's own copy, shared by every request of that text, so
// holding it costs no copy (and keeps at most the text alive).
func (p *Prepared) Source() string {
	if p.src != nil {
		return p.src.text
	}
	return p.doc.query
}

// Shaped reports whether p runs on the document of its text's shape, its
// literals lifted into variables, rather than on its text's own (shape.go).
func (p *Prepared) Shaped() bool { return p.src != nil }

// OperationName returns the operation's name, "" for an anonymous one.
func (p *Prepared) OperationName() string { return p.op.Name }

// sizeHint returns the capacity to give the data buffer.
func (p *Prepared) sizeHint() int {
	return max(int(p.doc.size.Load())+64, 256)
}

// noteSize records the size of data written, for the next sizeHint.
func (p *Prepared) noteSize(n int) { p.doc.size.Store(int64(n)) }
