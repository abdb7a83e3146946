package graphql

import (
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// The runtime writes most of a query's response directly (graphql/exec/exec_direct.go):
// rows straight from dataset columns, pages without building maps, list
// and single operations without resolver calls. This file compiles a
// selection plan into that form once, when the executor plans it; the
// writers are answer.RowPlan (graphql/internal/answer) and runtime_root.go. Whatever a compiled
// plan does not cover (introspection, mutations, the placeholder field,
// arguments that do not coerce, tables that are not ready) goes through
// the resolvers of runtime_resolve.go, which define the behaviour; the
// direct writers must write the same bytes (runtime_direct_test.go).

// directTypes finds what an object type of the runtime schema serves.
type directTypes struct {
	rt    *Runtime
	rows  map[string]*engine.Table // object type name -> table
	pages map[string]*engine.Table // page type name -> table
	ops   map[string]*operation    // Query field name -> LIST or SINGLE operation
}

func newDirectTypes(rt *Runtime) *directTypes {
	d := &directTypes{rt: rt, rows: map[string]*engine.Table{}, pages: map[string]*engine.Table{}, ops: map[string]*operation{}}
	for _, t := range rt.model.tables {
		d.rows[t.Name] = t
	}
	for _, o := range rt.model.ops {
		switch o.kind {
		case model.OpList:
			d.ops[o.name] = o
			d.pages[o.t.Name+"Page"] = o.t
		case model.OpSingle:
			d.ops[o.name] = o
		}
	}
	return d
}

// compile is the runtime's directCompiler: an *answer.RowPlan for a table's
// object type, a *pagePlan for a page type, a *rootPlan for Query, or nil.
func (d *directTypes) compile(obj *exec.ObjectType, sp *exec.Plan) any {
	switch {
	case d.rt.schema != nil && obj.Def() == d.rt.schema.Query:
		return d.rootPlan(sp)
	case d.rows[obj.Name()] != nil:
		return answer.CompileRowPlan(d.rows[obj.Name()], obj, sp)
	case d.pages[obj.Name()] != nil:
		return compilePagePlan(obj, sp)
	}
	return nil
}
