package contract

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// rootFields interprets each field of root (nil: none) with one.
func (in *interpreter) rootFields(root *ast.Definition, one func(*ast.FieldDefinition) *RootField) []*RootField {
	if root == nil {
		return nil
	}
	var out []*RootField
	for _, f := range root.Fields {
		if len(f.Name) > 1 && f.Name[:2] == "__" {
			continue
		}
		out = append(out, one(f))
	}
	return out
}

// queryField interprets a field of the query type.
func (in *interpreter) queryField(f *ast.FieldDefinition) *RootField {
	if r := in.federationField(f); r != nil {
		return r
	}
	d := in.def(f.Type)
	r := &RootField{Name: f.Name}
	switch {
	case d == nil:
		return generated(r, "its type is unknown")
	case in.wrappers[d.Name] != nil:
		w := in.wrappers[d.Name]
		r.Wrapper, r.Entity = d.Name, w.Entity
		switch w.Kind {
		case "connection":
			r.Shape = ShapeConnection
		case "page":
			r.Shape = ShapePage
		case "aggregate":
			r.Shape = ShapeAggregate
			if r.Entity == "" {
				r.Entity = in.entityNamedIn(f.Name)
			}
		default:
			return generated(r, fmt.Sprintf("it returns %s, a %s, on its own", d.Name, w.Kind))
		}
	case in.entities[d.Name] != nil || in.isRowType(d) && d.Kind != ast.Object:
		r.Entity = d.Name
		r.Shape = in.singleOrList(f)
	default:
		return generated(r, fmt.Sprintf("it returns %s, which is not a table of rows", f.Type.String()))
	}
	r.Args = in.args(f, r)
	return r
}

// singleOrList tells a list from a lookup by key, Relay's node and nodes,
// and a row found by other arguments.
func (in *interpreter) singleOrList(f *ast.FieldDefinition) Shape {
	abstract := in.def(f.Type).Kind != ast.Object
	if isList(f.Type) {
		if ids := f.Arguments.ForName("ids"); ids != nil && isList(ids.Type) {
			return ShapeLookupMany
		}
		return ShapeList
	}
	if id := f.Arguments.ForName("id"); id != nil && !isList(id.Type) {
		if abstract && f.Name == "node" {
			return ShapeNode
		}
		return ShapeLookup
	}
	return ShapeFirst
}

func generated(r *RootField, why string) *RootField {
	r.Shape, r.Why = ShapeGenerated, why
	return r
}

// mutationVerbs are the name prefixes (Hasura's and Prisma's included) of
// the mutations that write rows.
var mutationVerbs = []struct {
	shape    Shape
	prefixes []string
}{
	{ShapeUpsert, []string{"upsertone", "upsert", "createorupdate", "save"}},
	{ShapeCreate, []string{"createone", "createmany", "create", "insert", "add", "new", "register", "signup", "post", "send", "submit"}},
	{ShapeUpdate, []string{"updateone", "updatemany", "update", "edit", "modify", "change", "set", "patch"}},
	{ShapeDelete, []string{"deleteone", "deletemany", "delete", "remove", "destroy", "drop"}},
}

// mutationField interprets a field of the mutation type by its verb, its
// object (from the type it returns, else from its name) and its input:
// verb-first (createCustomer), noun-first (customerCreate, cartLinesAdd)
// or a domain verb that sets a flag (saveAlbums, followUser, addStar).
func (in *interpreter) mutationField(f *ast.FieldDefinition) *RootField {
	r := &RootField{Name: f.Name}
	if in.toggleField(f, r) {
		r.Args = in.mutationArgs(f, r)
		return r
	}
	rest, shape := f.Name, Shape("")
	for _, v := range mutationVerbs {
		if s, ok := cutPrefix(f.Name, v.prefixes...); ok {
			rest, shape = s, v.shape
			break
		}
	}
	if e, s, ok := in.nounFirst(f.Name); ok && (shape == "" || in.entityNamedIn(rest) == "") {
		r.Entity, r.Wrapper, shape = e, payloadName(in.nonEntity(f)), s
	}
	if shape == "" || r.Entity != "" {
		if parent := in.parentWrite(f, r.Entity); parent != "" {
			r.Entity, r.Wrapper, r.Shape = parent, payloadName(in.nonEntity(f)), ShapeUpdate
			r.Args = in.partArgs(f, r)
			return r
		}
	}
	if shape == "" {
		return in.generatedWrite(f, r, "its name starts with no create, update, upsert or delete verb and names no table before one")
	}
	if r.Entity == "" {
		r.Entity, r.Wrapper = in.mutationEntity(f, rest)
	}
	if r.Entity == "" {
		return in.generatedWrite(f, r, fmt.Sprintf("no table matches %q or the type it returns", rest))
	}
	if linked(rest, r.Entity) {
		// addTrackToPlaylist, removeItemFromPlaylist change which rows
		// the playlist holds, not the playlist.
		if in.linkField(f, r, shape != ShapeDelete) {
			return r
		}
		shape = ShapeUpdate // answers the row, and deletes nothing
	}
	r.Shape = shape
	r.Args = in.mutationArgs(f, r)
	if (shape == ShapeUpdate || shape == ShapeDelete) && !namesRows(r.Args) {
		// updateFieldConfig(input: {field, config}): nothing names a row,
		// so every call would be refused; a generated payload answers.
		return in.generatedWrite(f, &RootField{Name: f.Name}, fmt.Sprintf("an %s of %s, but no argument names the rows to change", shape, r.Entity))
	}
	return r
}

// namesRows reports whether one of args names the rows a write changes:
// a key, keys, a filter or a condition on a field.
func namesRows(args []*Arg) bool {
	for _, a := range args {
		switch a.Role {
		case RoleKey, RoleKeys, RoleFilter, RoleEq, RoleRange, RoleIn:
			return true
		}
	}
	return false
}

// parentWrite reads a noun-first mutation on a part of a row — Shopify's
// cartAttributesUpdate(cartId:, attributes:), cartNoteUpdate,
// cartLinesAdd(cartId:, lines:) — whose payload holds that row (cart:
// Cart), whose name starts with the row's type and which names the row by
// its key (cartId or id): an update of that row, so the payload answers
// the row the key names. It returns that row's entity, or "" when f is not
// such a mutation, or when the part the name gives (child, from
// nounFirst) is a table that links to the row: then writing the part
// (a CartLine with its cart) is what the mutation does.
func (in *interpreter) parentWrite(f *ast.FieldDefinition, child string) string {
	ws := words(f.Name)
	verb := false
	for _, w := range ws[1:] {
		_, verb = nounVerbs[w]
		if verb {
			break
		}
	}
	d := in.def(f.Type)
	if !verb || d == nil || d.Kind != ast.Object || in.entities[d.Name] != nil {
		return ""
	}
	parent := ""
	for _, pf := range d.Fields {
		if t, many := in.target(pf); t != "" && in.entities[t] != nil && !many {
			parent = t
			break
		}
	}
	if parent == "" || parent == child || !strings.HasPrefix(norm(f.Name), norm(parent)) {
		return ""
	}
	for _, rel := range in.rels {
		if child != "" && rel.From == child && rel.To == parent && !rel.Many {
			return ""
		}
	}
	for _, a := range f.Arguments {
		if n := norm(a.Name); a.Type.Name() == "ID" && !isList(a.Type) && (n == "id" || n == norm(parent)+"id") {
			return parent
		}
	}
	return ""
}

// partArgs gives the arguments of a parentWrite their roles: the row's
// key, the values of the row's own fields (cartNoteUpdate's note), the
// parts it adds, changes or removes (partArg: the lines of cartLinesAdd,
// the lineIds of cartLinesRemove), and the rest accepted, not interpreted.
func (in *interpreter) partArgs(f *ast.FieldDefinition, r *RootField) []*Arg {
	out := in.args(f, r)
	for i, a := range out {
		d := in.def(f.Arguments[i].Type)
		value := a.Role == RoleInput && a.Field != "" && (d == nil || d.Kind == ast.Scalar || d.Kind == ast.Enum)
		switch {
		case a.Role == RoleKey || value:
		case in.partArg(f, f.Arguments[i], r.Entity, out[i]):
		default:
			out[i] = &Arg{Name: a.Name, Role: RoleIgnored}
		}
	}
	return out
}

// partArg makes out a RolePart when the list argument a of the parentWrite
// f names a list field of parent whose rows are entities: lines (input
// objects) or lineIds (keys) for Cart.lines. The verb of f's name says
// what happens to them: add, update or remove.
func (in *interpreter) partArg(f *ast.FieldDefinition, a *ast.ArgumentDefinition, parent string, out *Arg) bool {
	pd := in.s.Types[parent]
	if !isList(a.Type) || pd == nil {
		return false
	}
	op := ""
	for _, w := range words(f.Name)[1:] {
		switch nounVerbs[w] {
		case ShapeCreate:
			op = "add"
		case ShapeUpdate:
			op = "update"
		case ShapeDelete:
			op = "remove"
		}
	}
	if op == "" {
		return false
	}
	n, item := norm(a.Name), in.def(a.Type)
	for _, pf := range pd.Fields {
		t, many := in.target(pf)
		if t == "" || !many {
			continue
		}
		fn := norm(pf.Name)
		switch {
		case n == fn && item != nil && item.Kind == ast.InputObject && op != "remove":
		case (n == singular(fn)+"ids" || n == fn && a.Type.Name() == "ID") && op == "remove":
		default:
			continue
		}
		out.Name, out.Role, out.Field, out.Op = a.Name, RolePart, pf.Name, op
		return true
	}
	return false
}

// generatedWrite is a mutation not recognised: generated, its input
// objects given the role of values, so that a mapping that makes it a
// create or update (setContractMapping shape) writes its input.
func (in *interpreter) generatedWrite(f *ast.FieldDefinition, r *RootField, why string) *RootField {
	r.Shape = ShapeCreate
	for _, a := range in.args(f, r) {
		if a.Role == RoleInput {
			r.Args = append(r.Args, a)
		} else {
			r.Args = append(r.Args, &Arg{Name: a.Name, Role: RoleIgnored})
		}
	}
	return generated(r, why)
}

// mutationArgs gives the arguments of a write their roles, with the
// fields of its input objects that name the rows (inputArgs).
func (in *interpreter) mutationArgs(f *ast.FieldDefinition, r *RootField) []*Arg {
	out := in.args(f, r)
	for i, a := range f.Arguments {
		if out[i].Role == RoleInput && out[i].Op == "" {
			out = append(out, in.inputArgs(a, r)...)
		}
	}
	return out
}

// toggleField makes r an update that sets a flag when f is named by a
// domain verb and its table has the flag (Album.saved for saveAlbums).
func (in *interpreter) toggleField(f *ast.FieldDefinition, r *RootField) bool {
	p, on, rest, ok := toggle(f.Name)
	if !ok {
		return false
	}
	entity := ""
	for e := range in.entities {
		if len(rest) > 0 && sameEntity(strings.Join(rest, ""), e) {
			entity = e
		}
	}
	wrapper := payloadName(in.nonEntity(f))
	if entity == "" {
		entity, wrapper = in.mutationEntity(f, strings.Join(rest, ""))
	}
	e := in.entities[entity]
	if e == nil || flagField(e, p) == "" {
		return false
	}
	r.Entity, r.Wrapper, r.Shape, r.Flag, r.On = entity, wrapper, ShapeUpdate, flagField(e, p), on
	return true
}

// linked reports whether rest names entity only after a link word
// (ItemFromPlaylist, TrackToPlaylist): the verb acts on something else.
func linked(rest, entity string) bool {
	ws := words(rest)
	for i, w := range ws {
		switch w {
		case "from", "to", "into", "in", "on", "of":
			return i > 0 && sameEntity(strings.Join(ws[i+1:], ""), entity) && !sameEntity(strings.Join(ws[:i], ""), entity)
		}
	}
	return false
}

// nonEntity returns the type f returns when it is no table, else nil.
func (in *interpreter) nonEntity(f *ast.FieldDefinition) *ast.Definition {
	if d := in.def(f.Type); d != nil && in.entities[d.Name] == nil {
		return d
	}
	return nil
}

// mutationEntity returns the table a mutation writes, and the payload
// type around it if any: the type it returns when that is a row or holds
// one, else the table named by rest (insert_books_one → books).
func (in *interpreter) mutationEntity(f *ast.FieldDefinition, rest string) (string, string) {
	d := in.def(f.Type)
	if d != nil && in.entities[d.Name] != nil {
		return d.Name, ""
	}
	if d != nil && d.Kind == ast.Object {
		for _, pf := range d.Fields {
			if t, _ := in.target(pf); t != "" && in.entities[t] != nil {
				return t, d.Name
			}
		}
	}
	rest, _ = cutSuffix(rest, "_by_pk", "byid", "_one", "one", "many")
	for name := range in.entities {
		if sameEntity(rest, name) {
			return name, payloadName(d)
		}
	}
	return "", ""
}

// entityNamedIn returns the entity whose name starts name (productStats →
// Product), the longest when several do, or "".
func (in *interpreter) entityNamedIn(name string) string {
	best := ""
	for e := range in.entities {
		n := norm(name)
		if (strings.HasPrefix(n, norm(e)) || strings.HasPrefix(n, singular(norm(e)))) && len(e) > len(best) {
			best = e
		}
	}
	return best
}

func payloadName(d *ast.Definition) string {
	if d == nil || d.Kind != ast.Object {
		return ""
	}
	return d.Name
}

// eventVerbs are the name suffixes of the subscriptions that follow a
// table's changes, by the change: bookCreated, bookAdded, bookUpdated,
// bookChanged, bookDeleted, bookRemoved (an "on" before, as in
// onBookCreated, is cut first).
var eventVerbs = []struct {
	event    string
	suffixes []string
}{
	{EventCreated, []string{"created", "added", "inserted", "sent", "posted", "submitted", "registered"}},
	{EventUpdated, []string{"updated", "changed", "modified", "edited"}},
	{EventDeleted, []string{"deleted", "removed", "destroyed"}},
}

// EventKindField reports whether a payload's field named name says which
// change happened (Prisma's mutation: MutationType, a kind or type enum).
func EventKindField(name string) bool {
	switch norm(name) {
	case "mutation", "mutationtype", "kind", "type", "action", "op", "operation", "event", "eventtype", "change", "changetype":
		return true
	}
	return false
}

// kindField returns the field of the payload d that says which change
// happened (an enum or a String), or nil.
func (in *interpreter) kindField(d *ast.Definition) *ast.FieldDefinition {
	for _, f := range d.Fields {
		t := in.def(f.Type)
		if EventKindField(f.Name) && !isList(f.Type) && t != nil && (t.Kind == ast.Enum || t.Name == "String") {
			return f
		}
	}
	return nil
}

// subscriptionField interprets a field of the subscription type: the
// events of a table's changes, mapped by name and payload type — the row
// (bookCreated: Book!), its key (bookRemoved: ID!) or a payload around it
// ({ book: Book, mutation: MutationType }; Prisma 1's book:
// BookSubscriptionPayload follows every change) — or else a stream of
// generated payloads every DefaultEvery seconds.
func (in *interpreter) subscriptionField(f *ast.FieldDefinition) *RootField {
	r := &RootField{Name: f.Name}
	name := f.Name
	if len(name) > 2 && name[:2] == "on" && name[2] >= 'A' && name[2] <= 'Z' {
		name = name[2:]
	}
	rest, verb, suffix := name, "", ""
	for _, v := range eventVerbs {
		if s, ok := cutSuffix(name, v.suffixes...); ok {
			rest, verb, suffix = s, v.event, strings.ToLower(name[len(s):])
			break
		}
	}
	d := in.def(f.Type)
	kindOf := (*ast.FieldDefinition)(nil)
	switch {
	case d == nil:
	case in.entities[d.Name] != nil:
		r.Entity = d.Name
	case d.Kind == ast.Object:
		for _, pf := range d.Fields {
			if t, list := in.target(pf); !list && in.entities[t] != nil {
				r.Entity, r.Wrapper = t, d.Name
				break
			}
		}
		if r.Wrapper != "" {
			kindOf = in.kindField(d)
		}
	case d.Kind == ast.Scalar && !isList(f.Type) && verb != "":
		for e := range in.entities {
			if sameEntity(rest, e) {
				r.Entity = e
			}
		}
	}
	switch {
	case r.Entity == "":
		return generatedEvery(r, "not a table's created, updated or deleted event")
	case verb == "" && (kindOf == nil || !sameEntity(name, r.Entity)):
		return generatedEvery(r, "its name says no created, updated or deleted event")
	case verb != "" && !sameEntity(rest, r.Entity) && r.Wrapper == "" && !in.namesField(rest, r.Entity):
		return generatedEvery(r, fmt.Sprintf("%q names no table of %s", rest, r.Entity))
	}
	r.Shape, r.Event = ShapeEvent, verb
	if kindOf != nil && (verb == "" || suffix == "changed") {
		r.Event = "" // the payload says which change
	}
	r.Args = in.args(f, r)
	for _, a := range r.Args {
		// Prisma 1's BookSubscriptionWhereInput filters on the change
		// (mutation_in, node: BookWhereInput), not on the row's fields.
		if t := in.def(f.Arguments.ForName(a.Name).Type); a.Role == RoleFilter && t != nil &&
			(t.Fields.ForName("node") != nil || t.Fields.ForName("mutation_in") != nil) {
			a.Role, a.Style = RoleIgnored, ""
		}
	}
	return r
}

// namesField reports whether name is the entity's name and then one of
// its fields' (orderStatus for Order.status: orderStatusChanged follows
// the changes of orders).
func (in *interpreter) namesField(name, entity string) bool {
	n, e := norm(name), norm(entity)
	if !strings.HasPrefix(n, e) || len(n) == len(e) {
		return false
	}
	for _, f := range in.s.Types[entity].Fields {
		if norm(f.Name) == n[len(e):] {
			return true
		}
	}
	return false
}

// generatedEvery is a subscription that streams generated payloads.
func generatedEvery(r *RootField, why string) *RootField {
	r.Every = DefaultEvery
	return generated(r, why+": streams generated payloads")
}
