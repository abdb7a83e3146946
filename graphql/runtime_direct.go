package graphql

import (
	"github.com/mockgql/mockgql/model"
)

// The runtime writes most of a query's response directly (exec_direct.go):
// rows straight from dataset columns, pages without building maps, list
// and single operations without resolver calls. This file compiles a
// selection plan into that form once, when the executor plans it; the
// writers are in runtime_row.go and runtime_root.go. Whatever a compiled
// plan does not cover (introspection, mutations, the placeholder field,
// arguments that do not coerce, tables that are not ready) goes through
// the resolvers of runtime_resolve.go, which define the behaviour; the
// direct writers must write the same bytes (runtime_direct_test.go).

// directTypes finds what an object type of the runtime schema serves.
type directTypes struct {
	rt    *Runtime
	rows  map[string]*table     // object type name -> table
	pages map[string]*table     // page type name -> table
	ops   map[string]*operation // Query field name -> LIST or SINGLE operation
}

func newDirectTypes(rt *Runtime) *directTypes {
	d := &directTypes{rt: rt, rows: map[string]*table{}, pages: map[string]*table{}, ops: map[string]*operation{}}
	for _, t := range rt.model.tables {
		d.rows[t.name] = t
	}
	for _, o := range rt.model.ops {
		switch o.kind {
		case model.OpList:
			d.ops[o.name] = o
			d.pages[o.t.name+"Page"] = o.t
		case model.OpSingle:
			d.ops[o.name] = o
		}
	}
	return d
}

// compile is the runtime's directCompiler: a *rowPlan for a table's
// object type, a *pagePlan for a page type, a *rootPlan for Query, or nil.
func (d *directTypes) compile(obj *objectType, sp *selectionPlan) any {
	switch {
	case d.rt.schema != nil && obj.def == d.rt.schema.Query:
		return d.rootPlan(sp)
	case d.rows[obj.name] != nil:
		return compileRowPlan(d.rows[obj.name], obj, sp)
	case d.pages[obj.name] != nil:
		return compilePagePlan(obj, sp)
	}
	return nil
}

// attrKind is the output kind of the schema field of an attribute of type t.
func attrKind(t model.ScalarType) outKind {
	switch t {
	case model.TypeInt:
		return kindInt
	case model.TypeFloat:
		return kindFloat
	case model.TypeBoolean:
		return kindBoolean
	case model.TypeID:
		return kindID
	case model.TypeJSON:
		return kindCustom
	}
	return kindString
}
