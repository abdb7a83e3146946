package contract

import (
	"strings"
	"unicode"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file recognises the conventions of real APIs' schemas beside the
// verb-first names of generated ones (docs/using/contract.md,
// "Mutations"): noun-first mutations (customerCreate, cartLinesAdd,
// orderUpdateStatus), the rows an input object names (input: {id}), and
// the types that are no rows — mutation payloads, their error lists and
// the page information of a page wrapper.

// nounVerbs are the words that, after a noun, say what a noun-first
// mutation does: customerCreate, cartLinesAdd, orderUpdateStatus,
// productDelete.
var nounVerbs = map[string]Shape{
	"create": ShapeCreate, "add": ShapeCreate, "insert": ShapeCreate, "register": ShapeCreate, "submit": ShapeCreate,
	"update": ShapeUpdate, "replace": ShapeUpdate, "edit": ShapeUpdate, "modify": ShapeUpdate, "change": ShapeUpdate, "set": ShapeUpdate, "patch": ShapeUpdate,
	"delete": ShapeDelete, "remove": ShapeDelete, "destroy": ShapeDelete, "drop": ShapeDelete,
	"upsert": ShapeUpsert, "save": ShapeUpsert,
}

// words splits a camelCase or snake_case name into its lower-case words
// (cartLinesAdd → cart lines add; order_update_status likewise).
func words(name string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
		}
		cur.WriteRune(r)
	}
	flush()
	return out
}

// nounFirst reads a noun-first mutation name: the entity named by the
// words before the first verb word, and the verb's shape. ok is false
// when no verb follows a noun that names an entity.
func (in *interpreter) nounFirst(name string) (entity string, shape Shape, ok bool) {
	ws := words(name)
	for i := 1; i < len(ws); i++ {
		s, verb := nounVerbs[ws[i]]
		if !verb {
			continue
		}
		noun := strings.Join(ws[:i], "")
		for e := range in.entities {
			if sameEntity(noun, e) && (entity == "" || e < entity) {
				entity = e
			}
		}
		return entity, s, entity != ""
	}
	return "", "", false
}

// isErrorType reports whether d is a refusal's description, as payloads
// list them (Shopify's UserError, Saleor's ProductError): an object
// without an id holding a message, named an error or listed by a field
// named errors or userErrors (listed is the set of such types).
func isErrorType(d *ast.Definition, listed map[string]bool) bool {
	if d == nil || d.Kind != ast.Object || d.Fields.ForName("id") != nil || d.Fields.ForName("message") == nil {
		return false
	}
	n := norm(d.Name)
	return strings.HasSuffix(n, "error") || strings.HasSuffix(n, "problem") || listed[d.Name]
}

// ErrorListField reports whether a payload's field named name lists the
// refusals of a mutation (errors, userErrors, problems).
func ErrorListField(name string) bool {
	switch norm(name) {
	case "errors", "usererrors", "problems", "customerusererrors", "validationerrors":
		return true
	}
	return false
}

// WarningListField reports whether a payload's field named name lists the
// warnings of a write that succeeded (Shopify's CartWarning list): like
// an error list, empty when nothing was refused, and no table.
func WarningListField(name string) bool {
	switch norm(name) {
	case "warnings", "userwarnings":
		return true
	}
	return false
}

// findPayloads marks the error types and the payloads of mutations: an
// object type that only mutation fields return and that says so by its
// name (…Payload, …Result, …Response), by a list of errors or by a
// clientMutationId. Neither is a table of rows.
func (in *interpreter) findPayloads() {
	listed := map[string]bool{}
	for _, d := range in.allFieldHolders() {
		for _, f := range d.Fields {
			if (ErrorListField(f.Name) || WarningListField(f.Name)) && isList(f.Type) {
				listed[f.Type.Name()] = true
			}
		}
	}
	for _, d := range in.userObjects() {
		if in.wrappers[d.Name] == nil && isErrorType(d, listed) {
			in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "error"}
		}
	}
	if in.s.Mutation == nil {
		return
	}
	used := in.referencedOutsideMutations()
	for _, f := range in.s.Mutation.Fields {
		d := in.def(f.Type)
		if d == nil || d.Kind != ast.Object || in.wrappers[d.Name] != nil || used[d.Name] || !in.saysPayload(d) {
			continue
		}
		in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "payload"}
	}
}

// saysPayload reports whether d's name or fields say it is a mutation's
// payload.
func (in *interpreter) saysPayload(d *ast.Definition) bool {
	n := norm(d.Name)
	for _, s := range []string{"payload", "result", "response", "output"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, f := range d.Fields {
		if norm(f.Name) == "clientmutationid" || ErrorListField(f.Name) && isList(f.Type) {
			return true
		}
	}
	return keyOf(d) == ""
}

// referencedOutsideMutations returns the types some field other than a
// mutation's returns.
func (in *interpreter) referencedOutsideMutations() map[string]bool {
	out := map[string]bool{}
	for _, d := range in.allFieldHolders() {
		if d == in.s.Mutation {
			continue
		}
		for _, f := range d.Fields {
			out[f.Type.Name()] = true
		}
	}
	return out
}

// pageInfoParts marks the object a page wrapper holds under info,
// pageInfo, meta or pagination (Rick and Morty's Info: count, pages, next,
// prev) as its page information, filled from the rows and arguments.
func (in *interpreter) pageInfoParts() {
	for _, name := range sortedTypes(in.s) {
		w := in.wrappers[name]
		if w == nil || w.Kind != "page" && w.Kind != "connection" {
			continue
		}
		for _, f := range in.s.Types[name].Fields {
			switch norm(f.Name) {
			case "info", "pageinfo", "meta", "pagination", "paging":
			default:
				continue
			}
			if d := in.def(f.Type); d != nil && d.Kind == ast.Object && !isList(f.Type) && in.wrappers[d.Name] == nil && keyOf(d) == "" {
				in.wrappers[d.Name] = &Wrapper{Type: d.Name, Kind: "pageInfo"}
			}
		}
	}
}

// payloadEntities sets each payload's Entity: the table its first row
// field holds.
func (in *interpreter) payloadEntities() {
	for _, w := range in.wrappers {
		if w.Kind != "payload" {
			continue
		}
		for _, f := range in.s.Types[w.Type].Fields {
			if t, _ := in.target(f); t != "" && in.entities[t] != nil {
				w.Entity = t
				break
			}
		}
	}
}

// inputArgs returns the roles of the fields inside the input object of a
// write's argument a that name the rows to change (update, upsert and
// delete): the key (input: {id}), several keys (input: {ids}), the key
// under the entity's name (input: {playlistId} for Playlist). They are
// named by their path, "input.id", as setContractMapping names them.
func (in *interpreter) inputArgs(a *ast.ArgumentDefinition, r *RootField) []*Arg {
	d := in.def(a.Type)
	e := in.entities[r.Entity]
	if d == nil || d.Kind != ast.InputObject || isList(a.Type) || e == nil || r.Shape == ShapeCreate {
		return nil
	}
	var out []*Arg
	var lone []*ast.FieldDefinition // the input's ID fields
	for _, f := range d.Fields {
		n := norm(f.Name)
		switch {
		case !isList(f.Type) && (n == "id" || n == norm(keyName(e)) || n == norm(e.Type)+"id"):
			out = append(out, &Arg{Name: a.Name + "." + f.Name, Role: RoleKey, Field: keyName(e)})
		case isList(f.Type) && (n == "ids" || n == norm(e.Type)+"ids"):
			out = append(out, &Arg{Name: a.Name + "." + f.Name, Role: RoleKeys, Field: keyName(e)})
		case f.Type.Name() == "ID":
			lone = append(lone, f)
		}
	}
	if len(out) == 0 && len(lone) == 1 && r.Flag != "" {
		// addStar(input: {starrableId}): the one ID a toggle is given
		// names its row.
		role := RoleKey
		if isList(lone[0].Type) {
			role = RoleKeys
		}
		out = append(out, &Arg{Name: a.Name + "." + lone[0].Name, Role: role, Field: keyName(e)})
	}
	return out
}

// toggleVerbs are the domain verbs that set a flag of the rows they name
// (saveAlbums sets Album.saved, followUser User.followed, addStar
// starred), by the participle the flag's name holds.
var toggleVerbs = map[string]string{
	"save": "saved", "follow": "followed", "star": "starred", "like": "liked", "pin": "pinned",
	"bookmark": "bookmarked", "favorite": "favorite", "favourite": "favourite", "subscribe": "subscribed",
	"watch": "watched", "block": "blocked", "mute": "muted", "archive": "archived", "upvote": "upvoted",
}

// toggle reads a domain verb's mutation (saveAlbums, removeSavedAlbums,
// followUser, unfollowUser, addStar, removeStar): the participle of the
// flag it sets, whether it sets it on, and the words after the verb.
func toggle(name string) (flag string, on bool, rest []string, ok bool) {
	ws := words(name)
	on = true
	switch {
	case len(ws) > 1 && (ws[0] == "remove" || ws[0] == "delete" || ws[0] == "un"):
		on, ws = false, ws[1:]
	case len(ws) > 1 && ws[0] == "add":
		ws = ws[1:]
	case len(ws) > 0 && strings.HasPrefix(ws[0], "un") && toggleVerbs[ws[0][2:]] != "":
		on, ws = false, append([]string{ws[0][2:]}, ws[1:]...)
	}
	if len(ws) == 0 {
		return "", false, nil, false
	}
	if p, found := toggleVerbs[ws[0]]; found {
		return p, on, ws[1:], true
	}
	for _, p := range toggleVerbs {
		if ws[0] == p { // removeSavedAlbums
			return p, on, ws[1:], true
		}
	}
	return "", false, nil, false
}

// flagField returns the Boolean field of e whose name holds the
// participle p (saved, isFollowed, viewerHasStarred), or "".
func flagField(e *Entity, p string) string {
	for _, f := range e.Fields {
		if f.Type == "Boolean" && !f.List && strings.Contains(norm(f.Name), p) {
			return f.Name
		}
	}
	return ""
}

// InputPath reports whether name is the path of a field inside an input
// object argument of fd ("input.id"), as the runtime reads it.
func InputPath(s *Schema, fd *ast.FieldDefinition, name string) bool {
	argName, rest, ok := strings.Cut(name, ".")
	a := fd.Arguments.ForName(argName)
	if !ok || a == nil {
		return false
	}
	t := a.Type
	for _, part := range strings.Split(rest, ".") {
		d := s.AST.Types[t.Name()]
		if d == nil || d.Kind != ast.InputObject || d.Fields.ForName(part) == nil {
			return false
		}
		t = d.Fields.ForName(part).Type
	}
	return true
}

// linkField makes r, a mutation that adds rows to a parent or removes them
// from it (addTrackToPlaylist, removeItemFromPlaylist(input: {playlistId,
// trackId})), an update of the child its input names by an ID field
// (trackId names Track) that sets the child's relation to the parent
// (r.Entity) — to the parent's key the input gives when link, to null
// otherwise. False when no input field names such a child.
func (in *interpreter) linkField(f *ast.FieldDefinition, r *RootField, link bool) bool {
	parent := r.Entity
	for _, a := range f.Arguments {
		d := in.def(a.Type)
		if d == nil || d.Kind != ast.InputObject || isList(a.Type) {
			continue
		}
		for _, fd := range d.Fields {
			rel := in.childRelation(fd, parent)
			if rel == nil {
				continue
			}
			r.Entity, r.Shape, r.Link, r.On = rel.From, ShapeUpdate, rel.Column(), link
			r.Args = in.args(f, r)
			r.Args = append(r.Args, &Arg{Name: a.Name + "." + fd.Name, Role: RoleKey, Field: keyName(in.entities[rel.From])})
			return true
		}
	}
	return false
}

// childRelation returns the to-one relation to parent of the entity the
// input field fd names by its key (trackId: Track.playlist), or nil.
func (in *interpreter) childRelation(fd *ast.FieldDefinition, parent string) *Relation {
	n, ok := strings.CutSuffix(norm(fd.Name), "id")
	if !ok || fd.Type.Name() != "ID" || isList(fd.Type) || sameEntity(n, parent) {
		return nil
	}
	for _, rel := range in.rels {
		if !rel.Many && rel.To == parent && sameEntity(n, rel.From) {
			return rel
		}
	}
	return nil
}
