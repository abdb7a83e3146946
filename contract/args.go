package contract

import (
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// args gives each argument of f its role for the root field r.
func (in *interpreter) args(f *ast.FieldDefinition, r *RootField) []*Arg {
	var out []*Arg
	for _, a := range f.Arguments {
		out = append(out, in.arg(a, r))
	}
	return out
}

// pagination are the argument names of paging, by role and op.
var pagination = map[string]struct {
	role Role
	op   string
}{
	"first": {RoleRelay, "first"}, "after": {RoleRelay, "after"}, "last": {RoleRelay, "last"}, "before": {RoleRelay, "before"},
	"limit": {RoleOffset, "limit"}, "offset": {RoleOffset, "offset"}, "skip": {RoleOffset, "offset"}, "take": {RoleOffset, "limit"},
	"page": {RolePage, "page"}, "pagenumber": {RolePage, "page"}, "perpage": {RolePage, "size"}, "pagesize": {RolePage, "size"},
	"size": {RolePage, "size"}, "count": {RoleOffset, "limit"}, "top": {RoleOffset, "limit"},
}

// sortParts are the argument names of a sort given as two arguments, the
// field apart from the direction (a table project's sortField and
// sortDirection), by op.
var sortParts = map[string]string{
	"sortfield": "field", "orderfield": "field", "sortkey": "field", "sortcolumn": "field", "orderbyfield": "field",
	"sortdirection": "direction", "sortdir": "direction", "sortorder": "direction", "orderdirection": "direction",
	"direction": "direction", "orderbydirection": "direction",
}

// rangeAffixes are the prefixes and suffixes that make an argument a range
// over a field: minPrice, price_gte, priceFrom, createdAfter.
var rangePrefixes = []struct{ affix, op string }{{"min", "gte"}, {"max", "lte"}, {"from", "gte"}, {"to", "lte"}}
var rangeSuffixes = []struct{ affix, op string }{
	{"gte", "gte"}, {"gt", "gt"}, {"lte", "lte"}, {"lt", "lt"}, {"min", "gte"}, {"max", "lte"},
	{"from", "gte"}, {"to", "lte"}, {"after", "gt"}, {"before", "lt"}, {"since", "gte"}, {"until", "lte"},
	{"greaterthan", "gt"}, {"lessthan", "lt"}, {"atleast", "gte"}, {"atmost", "lte"},
}

// arg gives one argument its role: the key, paging, sorting, a filter
// input, equality or a range on a field of the table, a search, a
// mutation's input, or ignored.
func (in *interpreter) arg(a *ast.ArgumentDefinition, r *RootField) *Arg {
	out := &Arg{Name: a.Name, Role: RoleIgnored}
	n := norm(a.Name)
	d := in.def(a.Type)
	e := in.entities[r.Entity]
	switch {
	case (n == "id" || e != nil && (n == norm(e.Key) || n == norm(e.Type)+"id")) && !isList(a.Type) && r.Shape != ShapeCreate:
		out.Role, out.Field = RoleKey, keyName(e)
	case n == "ids" && isList(a.Type):
		out.Role, out.Field = RoleKeys, keyName(e)
	case pagination[n].role != "" && (d == nil || d.Kind == ast.Scalar) && !isList(a.Type) && r.Shape != ShapeLookup:
		p := pagination[n]
		out.Role, out.Op = p.role, p.op
	case sortParts[n] != "" && (d == nil || d.Kind != ast.InputObject) && !isList(a.Type):
		out.Role, out.Op = RoleSort, sortParts[n]
	case n == "orderby" || n == "sort" || n == "sortby" || n == "order" || n == "ordering":
		out.Role = RoleSort
	case d != nil && d.Kind == ast.InputObject && (n == "where" || n == "filter" || n == "filters" || n == "condition"):
		out.Role, out.Style = RoleFilter, in.filterStyle(d)
	case d != nil && d.Kind == ast.InputObject && (n == "pkcolumns" || n == "by"):
		out.Role, out.Field = RoleKey, keyName(e)
	case d != nil && d.Kind == ast.InputObject && (r.Shape == ShapeUpdate || r.Shape == ShapeUpsert) && n == "inc":
		out.Role, out.Op = RoleInput, "inc" // Hasura's _inc: numbers to add
	case d != nil && d.Kind == ast.InputObject && r.Shape != "" && isWrite(r.Shape):
		out.Role = RoleInput
	case strings.Contains(n, "search") || n == "q" || n == "query" || n == "term" || n == "text" || n == "keyword":
		out.Role = RoleSearch
	case isWrite(r.Shape) && r.Shape != ShapeDelete && e != nil && fieldOf(e, n) != "":
		out.Role, out.Field = RoleInput, fieldOf(e, n)
	case e != nil:
		in.fieldArg(out, e, n, isList(a.Type))
		if out.Role == RoleIgnored && (d == nil || d.Kind == ast.Scalar) {
			in.relationArg(out, e, n, isList(a.Type))
		}
	}
	return out
}

// relationArg makes out an equality (or an in, for a list) on the foreign
// key of a to-one relation of e when n names it: channelId or channel for
// Message.channel, channelIds for a list of them. The key column is the
// schema's own field (channelId) when it has one, else a hidden one.
func (in *interpreter) relationArg(out *Arg, e *Entity, n string, list bool) {
	for _, r := range in.rels {
		if r.From != e.Type || r.Many {
			continue
		}
		f := norm(r.FromField)
		if n == f+"id" || n == f || list && n == f+"ids" {
			out.Role, out.Field = RoleEq, r.Column()
			if list {
				out.Role = RoleIn
			}
			return
		}
	}
}

// fieldArg makes out an equality, an in or a range on a field of e when its
// folded name n names one.
func (in *interpreter) fieldArg(out *Arg, e *Entity, n string, list bool) {
	if f := fieldOf(e, n); f != "" {
		out.Role, out.Field = RoleEq, f
		if list {
			out.Role = RoleIn
		}
		return
	}
	for _, p := range rangePrefixes {
		if rest, ok := strings.CutPrefix(n, p.affix); ok {
			if f := fieldOf(e, rest); f != "" {
				out.Role, out.Field, out.Op = RoleRange, f, p.op
				return
			}
		}
	}
	for _, s := range rangeSuffixes {
		if rest, ok := strings.CutSuffix(n, s.affix); ok {
			if f := fieldOf(e, rest); f != "" {
				out.Role, out.Field, out.Op = RoleRange, f, s.op
				return
			}
		}
	}
	if rest, ok := strings.CutSuffix(n, "in"); ok && list {
		if f := fieldOf(e, rest); f != "" {
			out.Role, out.Field = RoleIn, f
			return
		}
	}
	if s := singular(n); list && s != n {
		if f := fieldOf(e, s); f != "" { // GitHub's issues(states: [OPEN])
			out.Role, out.Field = RoleIn, f
		}
	}
}

// fieldOf returns the field of e (scalar, enum or a relation's foreign key
// as authorId) whose folded name is n, or "".
func fieldOf(e *Entity, n string) string {
	for _, f := range e.Fields {
		if norm(f.Name) == n || singular(n) == norm(f.Name) && f.List {
			return f.Name
		}
	}
	return ""
}

func keyName(e *Entity) string {
	if e == nil || e.Key == "" {
		return "id"
	}
	return e.Key
}

func isWrite(s Shape) bool {
	return s == ShapeCreate || s == ShapeUpdate || s == ShapeUpsert || s == ShapeDelete
}

// filterStyle names the dialect of a filter input: hasura (_and, _eq),
// prisma (AND, equals, contains) or plain (fields compared for equality).
func (in *interpreter) filterStyle(d *ast.Definition) string {
	for _, f := range d.Fields {
		switch f.Name {
		case "_and", "_or", "_not":
			return "hasura"
		case "AND", "OR", "NOT":
			return "prisma"
		}
		if c := in.def(f.Type); c != nil && c.Kind == ast.InputObject {
			if c.Fields.ForName("_eq") != nil {
				return "hasura"
			}
			if c.Fields.ForName("equals") != nil {
				return "prisma"
			}
		}
	}
	return "plain"
}
