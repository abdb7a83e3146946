package graphql

import (
	"fmt"
	"strings"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/gen"
	"github.com/mockgql/mockgql/model"
)

// This file writes the runtime schema of a compiled model as SDL (docs/using/
// runtime.md, "The schema a project gets"). Compile parses it with
// gqlparser, which also checks it.

// placeholderField is the Query field of a schema without enabled query
// operations: GraphQL needs a Query type with at least one field. It
// resolves to null.
const placeholderField = "_service"

// emptyInputField is the field of an input type whose table has no
// attributes that take input (GraphQL needs at least one). It is ignored.
const emptyInputField = "_empty"

type sdlWriter struct {
	b   strings.Builder
	opt Options
}

func buildSDL(c *compiled, opt Options) string {
	w := &sdlWriter{opt: opt}
	w.prelude()
	needPage, needInput := map[*engine.Table]bool{}, map[*engine.Table]bool{}
	for _, o := range c.ops {
		switch o.kind {
		case model.OpList:
			needPage[o.t] = true
		case model.OpCreate, model.OpUpdate:
			needInput[o.t] = true
		}
	}
	pw := powerNeeds(c.ops)
	pw.shared(w)
	for _, t := range c.tables {
		w.object(t)
		if needPage[t] {
			w.page(t)
		}
		if needInput[t] {
			w.input(t)
		}
		pw.types(w, t)
	}
	w.query(c.ops)
	w.mutation(c.ops)
	w.subscription(c.subs)
	return w.b.String()
}

func (w *sdlWriter) line(format string, args ...any) {
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

func (w *sdlWriter) prelude() {
	w.line(`%s scalar FilterValue`, gqlString("A parameter value: any JSON scalar. It is compared with the stored value's own JSON type, so \"10\" does not match a stored number 10."))
	w.line(`%s scalar JSON`, gqlString("Any JSON value."))
	w.line(`%s enum SortDirection { ASC DESC }`, gqlString("Sort order of a list. Rows with equal values keep storage order in both directions."))
}

func (w *sdlWriter) object(t *engine.Table) {
	w.line(`%s type %s {`, gqlString(fmt.Sprintf("A row of table %s.", t.Name)), t.Name)
	w.line(`  %s id: ID!`, gqlString(idDescription(t)))
	for _, a := range t.Attrs {
		if !a.IsID {
			w.line(`  %s %s: %s`, gqlString(attrDescription(a)), a.Name, a.Type.GraphQLName())
		}
	}
	for _, r := range t.Rels {
		w.line(`  %s %s: %s`, gqlString(relDescription(t, r)), r.Name, relType(r))
	}
	w.line(`}`)
}

func relType(r *engine.Rel) string {
	if r.List {
		return "[" + r.To.Name + "!]!"
	}
	return r.To.Name
}

func (w *sdlWriter) page(t *engine.Table) {
	w.line(`%s type %sPage {`, gqlString(fmt.Sprintf("One page of %s rows.", t.Name)), t.Name)
	w.line(`  %s items: [%s!]!`, gqlString("The rows of this page."), t.Name)
	w.line(`  %s total: Int!`, gqlString("Number of matching rows before paging."))
	w.line(`  %s page: Int!`, gqlString("The page served (1-based)."))
	w.line(`  %s pageSize: Int!`, gqlString("The page size served, after defaulting and clamping."))
	w.line(`}`)
}

func (w *sdlWriter) input(t *engine.Table) {
	w.line(`%s input %sInput {`, gqlString(fmt.Sprintf("Field values of %s rows. Omitted fields are left as they are (update) or get their mapped value (create); null clears a value.", t.Name)), t.Name)
	if len(t.Inputs) == 0 {
		w.line(`  %s %s: Boolean`, gqlString("Unused: this table has no attributes that take input."), emptyInputField)
	}
	for _, a := range t.Inputs {
		typ := a.Type.GraphQLName()
		if a.IsID {
			typ = "ID"
		}
		w.line(`  %s %s: %s`, gqlString(inputDescription(a)), a.Name, typ)
	}
	w.line(`}`)
}

func (w *sdlWriter) query(ops []*operation) {
	w.line(`type Query {`)
	n := 0
	for _, o := range ops {
		switch o.kind {
		case model.OpList:
			w.listField(o)
		case model.OpSingle:
			w.line(`  %s %s(id: ID!): %s`, gqlString(fmt.Sprintf("The %s row with this id, or null.", o.t.Name)), o.name, o.t.Name)
		case model.OpAggregate:
			w.aggregateField(o)
		default:
			continue
		}
		n++
	}
	if n == 0 {
		w.line(`  %s %s: String`, gqlString("Placeholder: this project has no enabled query operations yet. Always null."), placeholderField)
	}
	w.line(`}`)
}

// listField writes a list operation. Arguments carry no descriptions (the
// gqlparser formatter prints those poorly); the field's description
// explains them.
func (w *sdlWriter) listField(o *operation) {
	args := append([]string{"page: Int = 1", "pageSize: Int = 20", "sortField: String", "sortDirection: SortDirection = ASC"}, paramArgs(o)...)
	w.line(`  %s %s(%s): %sPage!`, gqlString(w.listDescription(o)), o.name, strings.Join(args, ", "), o.t.Name)
	if o.relay {
		w.connectionField(o)
	}
}

// paramArgs are the parameter arguments of a LIST operation, then its
// opt-in arguments.
func paramArgs(o *operation) []string {
	var args []string
	for _, p := range o.params {
		typ := "FilterValue"
		if p.Op == model.OpIn {
			typ = "[FilterValue!]"
		}
		args = append(args, p.Name+": "+typ)
	}
	return append(args, powerArgs(o)...)
}

func (w *sdlWriter) mutation(ops []*operation) {
	var fields []string
	for _, o := range ops {
		t := o.t.Name
		switch o.kind {
		case model.OpCreate:
			fields = append(fields, fmt.Sprintf(`  %s %s(input: %sInput!): %s!`, gqlString("Creates a new "+t+" row. An id in the input is used if no row has it (CONFLICT otherwise); else a fresh id is chosen."), o.name, t, t))
		case model.OpUpdate:
			fields = append(fields, fmt.Sprintf(`  %s %s(id: ID!, input: %sInput!): %s`, gqlString("Changes the given fields of the "+t+" row with this id and returns it; null and NOT_FOUND if there is none."), o.name, t, t))
		case model.OpDelete:
			fields = append(fields, fmt.Sprintf(`  %s %s(id: ID!): %s`, gqlString("Deletes the "+t+" row with this id and returns it as it was; null and NOT_FOUND if there is none."), o.name, t))
		}
	}
	if len(fields) == 0 {
		return
	}
	w.line(`type Mutation {`)
	for _, f := range fields {
		w.line("%s", f)
	}
	w.line(`}`)
}

func (w *sdlWriter) listDescription(o *operation) string {
	s := fmt.Sprintf("List of %s rows, paged by page (1-based; less than 1 means 1) and pageSize (less than 1 means 20; at most %d). "+
		"sortField names a SOURCE-mapped attribute (case-sensitive) and sorts by stored values, so numbers stored as text sort as text; "+
		"any other name keeps storage order. Equal values keep storage order in both directions.", o.t.Name, w.opt.MaxPageSize)
	if len(o.params) == 0 {
		return s + " Takes no parameters; other arguments are ignored."
	}
	names := make([]string, len(o.params))
	for i, p := range o.params {
		names[i] = paramDescription(p)
	}
	return s + " Parameters (an omitted one does not filter; an unknown argument is refused with BAD_USER_INPUT): " + strings.Join(names, "; ") +
		". A parameter value matches only stored values of its own JSON type (\"10\" does not match the number 10); null matches null with eq and non-null with neq."
}

func paramDescription(p engine.Param) string {
	attr := "(computed)"
	if p.Attr != nil {
		attr = p.Attr.Name
	}
	switch p.Op {
	case model.OpIn:
		return fmt.Sprintf("%s: %s is one of the values", p.Name, attr)
	case model.OpLike:
		return fmt.Sprintf("%s: %s contains the text, ignoring case", p.Name, attr)
	}
	sym := map[model.Operator]string{model.OpEq: "=", model.OpNeq: "!=", model.OpGt: ">", model.OpGte: ">=", model.OpLt: "<", model.OpLte: "<="}[p.Op]
	return fmt.Sprintf("%s: %s %s value", p.Name, attr, sym)
}

func idDescription(t *engine.Table) string {
	if t.IDPath != "" {
		return "Row id: the attribute id (source path " + t.IDPath + ")."
	}
	return "Row id: the record's id or _id field, else its 1-based position in the dataset."
}

func attrDescription(a *engine.Attr) string {
	switch a.Mapping {
	case model.MappingSource:
		return fmt.Sprintf("%s (%s), from source path %s.", a.Name, a.Type, a.Path)
	case model.MappingConstant:
		return fmt.Sprintf("%s (%s), the same constant on every row.", a.Name, a.Type)
	case model.MappingGenerated:
		kind := "unknown generator"
		if g, ok := a.Gen.(*gen.Generator); ok {
			kind = g.Kind()
		}
		return fmt.Sprintf("%s (%s), generated fake data (%s), stable per row.", a.Name, a.Type, kind)
	}
	return fmt.Sprintf("%s (%s), not mapped: null unless set by a mutation.", a.Name, a.Type)
}

func relDescription(t *engine.Table, r *engine.Rel) string {
	from, to := "(computed)", "(computed)"
	if r.From != nil {
		from = r.From.Name
	}
	if r.ToAttr != nil {
		to = r.ToAttr.Name
	}
	if r.List {
		return fmt.Sprintf("The %s rows whose %s equals this %s's %s.", r.To.Name, to, t.Name, from)
	}
	return fmt.Sprintf("The %s row whose %s equals this %s's %s, or null.", r.To.Name, to, t.Name, from)
}

func inputDescription(a *engine.Attr) string {
	if a.IsID {
		return "Id of a new row (create only; must be unused). An update may not change it."
	}
	return fmt.Sprintf("%s (%s).", a.Name, a.Type)
}

// gqlString quotes s as a GraphQL string literal.
func gqlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
