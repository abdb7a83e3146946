package graphql

import (
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// This file writes the opt-in query power of issue 14 into the runtime
// schema. Nothing is written unless an operation asks for it, so a
// project's schema only gains types and arguments (SAFE changes). Naming,
// for a table T and a LIST operation op:
//
//   - where: T -> input TWhere, with the shared input FilterOperators;
//   - orderBy: input TOrderBy { field: TOrderField!, direction }, enum
//     TOrderField of the attributes sortField accepts (SOURCE-mapped);
//   - relay: field opConnection -> TConnection { edges: [TEdge!]!, pageInfo:
//     PageInfo!, totalCount }, TEdge { cursor node };
//   - AGGREGATE operations: TAggregate, TNumbers (Float per Int or Float
//     attribute), TGroup, and enum TField for groupBy.

// powerNeed is what a schema needs of the power types, per table.
type powerNeed struct {
	where, orderBy, conn, agg map[*engine.Table]bool
}

func powerNeeds(ops []*operation) *powerNeed {
	pw := &powerNeed{where: map[*engine.Table]bool{}, orderBy: map[*engine.Table]bool{}, conn: map[*engine.Table]bool{}, agg: map[*engine.Table]bool{}}
	for _, o := range ops {
		switch o.kind {
		case model.OpList:
			pw.where[o.t] = pw.where[o.t] || o.where
			pw.orderBy[o.t] = pw.orderBy[o.t] || o.orderBy
			pw.conn[o.t] = pw.conn[o.t] || o.relay
		case model.OpAggregate:
			pw.where[o.t], pw.agg[o.t] = true, true
		}
	}
	return pw
}

func anyTrue(m map[*engine.Table]bool) bool {
	for _, v := range m {
		if v {
			return true
		}
	}
	return false
}

// shared writes the types all tables share.
func (pw *powerNeed) shared(w *sdlWriter) {
	if anyTrue(pw.where) {
		w.line(`%s input FilterOperators {`, gqlString("Conditions on one attribute, all of which must hold. Values compare with the stored value's own JSON type: a value of another type matches nothing."))
		for _, op := range []string{"eq", "neq", "gt", "gte", "lt", "lte", "like"} {
			w.line(`  %s %s: FilterValue`, gqlString(model.FilterOperatorDocs[op]), op)
		}
		w.line(`  %s in: [FilterValue!]`, gqlString(model.FilterOperatorDocs["in"]))
		w.line(`  %s nin: [FilterValue!]`, gqlString(model.FilterOperatorDocs["nin"]))
		w.line(`  %s isNull: Boolean`, gqlString(model.FilterOperatorDocs["isNull"]))
		w.line(`}`)
	}
	if anyTrue(pw.conn) {
		w.line(`%s type PageInfo {`, gqlString("Relay page information of a connection."))
		w.line(`  hasNextPage: Boolean!`)
		w.line(`  hasPreviousPage: Boolean!`)
		w.line(`  startCursor: String`)
		w.line(`  endCursor: String`)
		w.line(`}`)
	}
}

// types writes the power types of table t.
func (pw *powerNeed) types(w *sdlWriter, t *engine.Table) {
	if pw.where[t] {
		w.line(`%s input %sWhere {`, gqlString("A filter on "+t.Name+" rows: every given condition must hold."), t.Name)
		w.line(`  %s and: [%sWhere!]`, gqlString("All of these hold."), t.Name)
		w.line(`  %s or: [%sWhere!]`, gqlString("At least one of these holds (an empty list matches nothing)."), t.Name)
		w.line(`  %s not: %sWhere`, gqlString("This does not hold."), t.Name)
		for _, a := range whereAttrs(t) {
			w.line(`  %s: FilterOperators`, a.Name)
		}
		w.line(`}`)
	}
	if pw.orderBy[t] {
		w.line(`%s enum %sOrderField { %s }`, gqlString("Attributes "+t.Name+" rows sort by (SOURCE-mapped)."), t.Name, strings.Join(attrNames(sortable(t)), " "))
		w.line(`%s input %sOrderBy {`, gqlString("One sort key; rows equal on every key keep storage order."), t.Name)
		w.line(`  field: %sOrderField!`, t.Name)
		w.line(`  direction: SortDirection = ASC`)
		w.line(`}`)
	}
	if pw.conn[t] {
		w.line(`%s type %sConnection {`, gqlString("A Relay connection of "+t.Name+" rows."), t.Name)
		w.line(`  edges: [%sEdge!]!`, t.Name)
		w.line(`  pageInfo: PageInfo!`)
		w.line(`  %s totalCount: Int!`, gqlString("Number of matching rows before first/after/last/before."))
		w.line(`}`)
		w.line(`%s type %sEdge {`, gqlString("A "+t.Name+" row and its cursor."), t.Name)
		w.line(`  %s cursor: String!`, gqlString("Opaque; stays valid while other rows are added, changed or deleted."))
		w.line(`  node: %s!`, t.Name)
		w.line(`}`)
	}
	if pw.agg[t] {
		pw.aggTypes(w, t)
	}
}

func (pw *powerNeed) aggTypes(w *sdlWriter, t *engine.Table) {
	nums := numericAttrs(t)
	stats := ""
	if len(nums) > 0 {
		w.line(`%s type %sNumbers {`, gqlString("One statistic per numeric attribute of "+t.Name+"; null when no row has a number there."), t.Name)
		for _, a := range nums {
			w.line(`  %s: Float`, a.Name)
		}
		w.line(`}`)
		stats = fmt.Sprintf(" sum: %[1]sNumbers avg: %[1]sNumbers min: %[1]sNumbers max: %[1]sNumbers", t.Name)
	}
	w.line(`%s enum %sField { %s }`, gqlString("Attributes of "+t.Name+" to group by."), t.Name, strings.Join(attrNames(groupAttrs(t)), " "))
	w.line(`%s type %sGroup { %s key: JSON! count: Int!%s }`, gqlString("The rows sharing one groupBy key."), t.Name, gqlString("The groupBy attributes and their values."), stats)
	w.line(`%s type %sAggregate { count: Int!%s %s groups: [%sGroup!]! }`, gqlString("Statistics of the matching "+t.Name+" rows."), t.Name, stats,
		gqlString("Per groupBy key, in order of first row in storage order; empty without groupBy."), t.Name)
}

func attrNames(attrs []*engine.Attr) []string {
	out := make([]string, len(attrs))
	for i, a := range attrs {
		out[i] = a.Name
	}
	return out
}

// whereAttrs are the attributes a where filter names: the id field and
// every attribute of the schema.
func whereAttrs(t *engine.Table) []*engine.Attr {
	if t.IDField.Idx >= 0 {
		return t.Attrs
	}
	return append([]*engine.Attr{t.IDField}, t.Attrs...)
}

func groupAttrs(t *engine.Table) []*engine.Attr {
	var out []*engine.Attr
	for _, a := range whereAttrs(t) {
		if enumSafe(a.Name) {
			out = append(out, a)
		}
	}
	return out
}

func numericAttrs(t *engine.Table) []*engine.Attr {
	var out []*engine.Attr
	for _, a := range t.Attrs {
		if a.Type == model.TypeInt || a.Type == model.TypeFloat {
			out = append(out, a)
		}
	}
	return out
}

// powerArgs are the opt-in arguments of a LIST operation's fields.
func powerArgs(o *operation) []string {
	var args []string
	if o.where {
		args = append(args, "where: "+o.t.Name+"Where")
	}
	if o.orderBy {
		args = append(args, "orderBy: ["+o.t.Name+"OrderBy!]")
	}
	return args
}

// connectionField writes the Relay connection field of a LIST operation.
func (w *sdlWriter) connectionField(o *operation) {
	args := append([]string{"first: Int", "after: String", "last: Int", "before: String", "sortField: String", "sortDirection: SortDirection = ASC"}, paramArgs(o)...)
	doc := fmt.Sprintf("Relay connection over the rows of %s, with the same parameters and sort. first and last take at most %d rows (default %d). "+
		"A cursor names its row: it stays valid while other rows change; a cursor whose row is gone or filtered out is refused (BAD_USER_INPUT).", o.name, w.opt.MaxPageSize, 20)
	w.line(`  %s %s%s(%s): %sConnection!`, gqlString(doc), o.name, model.ConnectionSuffix, strings.Join(args, ", "), o.t.Name)
}

// aggregateField writes an AGGREGATE operation.
func (w *sdlWriter) aggregateField(o *operation) {
	doc := "count, sum, avg, min and max of the numeric attributes of the " + o.t.Name + " rows that match where, overall and per groupBy key. Values that are not numbers are left out of sum, avg, min and max."
	w.line(`  %s %s(where: %sWhere, groupBy: [%sField!]): %sAggregate!`, gqlString(doc), o.name, o.t.Name, o.t.Name, o.t.Name)
}
