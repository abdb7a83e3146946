package contractrt

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
	"github.com/vektah/gqlparser/v2/ast"
)

// This file reads the arguments of a contract project's root field (their
// roles come from contract.Interpret) into the row engine's query: a
// where tree (engine.Where, so equality, ranges, in and contains use the
// indexes), sort keys and a window (Relay, offset/limit or page/size).

// ctQuery is what the arguments of a root field select.
type ctQuery struct {
	where *engine.Where
	keys  []engine.SortKey
	// tests are exact checks of text patterns (startsWith, endsWith, SQL
	// like) whose contains part the where tree already narrows; they run
	// on the matches.
	tests []func(tv *engine.TableView, r int32) bool
	// joins are filters on related rows, resolved when rows are read.
	joins []ctJoin
	relay bool
	// first is Relay's first when no other Relay argument is given (0:
	// none): the window is then the first rows (firstOnly).
	first, relayArgs int
	// offset and limit window the rows (limit < 0: all).
	offset, limit int
	page, size    int // page numbering (page 0: none)
	// paged lets rows read only the window served (a list or page of one
	// table); maxPage is the size of an unpaged list.
	paged   bool
	maxPage int
	// sortField and sortDesc are a sort given as two arguments
	// (sortField, sortDirection), read when all arguments are.
	sortField string
	sortDesc  bool
	// pq is the engine's query, built once for a query of constant
	// arguments without joins (prepare); nil: built by rows.
	pq *engine.Query
}

// readQuery reads the arguments args of rf against the table t.
func (rt *Runtime) readQuery(t *engine.Table, rf *contract.RootField, args map[string]any) (*ctQuery, error) {
	q := &ctQuery{where: &engine.Where{}, limit: -1, maxPage: rt.opt.MaxPageSize}
	budget := engine.MaxWhereNodes
	for _, a := range rf.Args {
		v, ok := argValue(args, a.Name)
		if !ok || v == nil {
			continue
		}
		if err := rt.readArg(q, t, a, v, &budget); err != nil {
			return nil, err
		}
	}
	if q.sortField != "" {
		if a := foldedAttr(t, q.sortField); a != nil {
			q.keys = append([]engine.SortKey{{Attr: a, Desc: q.sortDesc}}, q.keys...)[:min(len(q.keys)+1, engine.MaxOrderKeys)]
		}
	}
	if q.size > 0 || q.page > 0 {
		if q.size <= 0 {
			q.size = 20
		}
		q.offset, q.limit = max(q.page-1, 0)*q.size, q.size
	}
	if q.limit > rt.opt.MaxPageSize {
		q.limit = rt.opt.MaxPageSize
	}
	return q, nil
}

// readArg adds one argument of role a.Role with value v to q.
func (rt *Runtime) readArg(q *ctQuery, t *engine.Table, a *contract.Arg, v any, budget *int) error {
	switch a.Role {
	case contract.RoleKey:
		if m, ok := v.(map[string]any); ok { // pk_columns: {id: 1}
			return addCond(q.where, t, keyName(t), model.OpEq, firstValue(m), budget)
		}
		return addCond(q.where, t, keyName(t), model.OpEq, v, budget)
	case contract.RoleKeys:
		return addCond(q.where, t, keyName(t), model.OpIn, v, budget)
	case contract.RoleEq, contract.RoleIn:
		if targets := rt.linkTargets(t, a.Field); targets != nil {
			return rt.linkJoin(q, t, a.Field, targets, v, budget)
		}
		op := model.OpEq
		if _, list := v.([]any); list {
			op = model.OpIn
		}
		return addCond(q.where, t, a.Field, op, v, budget)
	case contract.RoleRange:
		return addCond(q.where, t, a.Field, model.Operator(a.Op), v, budget)
	case contract.RoleSearch:
		return q.search(t, v, budget)
	case contract.RoleFilter:
		return q.filter(t, a.Style, v, budget)
	case contract.RoleSort:
		q.sort(t, a.Op, v)
	case contract.RoleRelay:
		q.relay = true
		q.relayArgs++
		if n, ok := v.(int); ok && a.Op == "first" {
			q.first = n
		}
	case contract.RoleOffset, contract.RolePage:
		q.window(a.Op, v)
	case contract.RoleIgnored:
		// An argument named like a field of an interface's or union's
		// rows compares it, as it would on an entity.
		if _, isObj := v.(map[string]any); !isObj && foldedAttr(t, a.Name) != nil {
			return addCond(q.where, t, a.Name, model.OpEq, v, budget)
		}
	}
	return nil
}

// linkTargets returns the tables a hidden link column of t points to
// (contract.HiddenKey and the field's name: __keyowner for
// Repository.owner, an interface), or nil when field is not one.
func (rt *Runtime) linkTargets(t *engine.Table, field string) []*engine.Table {
	name, ok := strings.CutPrefix(field, contract.HiddenKey)
	if !ok || name == "" {
		return nil
	}
	for _, r := range rt.plan.Relations {
		if r.FromField == name && !r.Many && rt.isEntityOf(t, r.From) {
			return rt.tablesOf(r.To)
		}
	}
	return nil
}

// isEntityOf reports whether t holds rows of typ (its own type, or typ is
// an interface or union it belongs to).
func (rt *Runtime) isEntityOf(t *engine.Table, typ string) bool {
	for _, x := range rt.tablesOf(typ) {
		if x == t {
			return true
		}
	}
	return false
}

// linkJoin adds the condition that the link column field of t names a row
// of targets whose id or natural key is v (one of v, a list): GitHub's
// repository(owner: "octocat", name: "hello-world") finds the repository
// by its owner's login, as the real API does.
func (rt *Runtime) linkJoin(q *ctQuery, t *engine.Table, field string, targets []*engine.Table, v any, budget *int) error {
	if *budget--; *budget < 0 {
		return model.Errorf(model.CodeBadUserInput, "the filter has more than %d conditions", engine.MaxWhereNodes)
	}
	keys, list := v.([]any)
	if !list {
		keys = []any{v}
	}
	sub := &engine.Where{}
	q.joins = append(q.joins, ctJoin{node: sub, linkOf: rt.linkOf(t, field), targets: targets, keys: keys})
	q.where.And = append(q.where.And, sub)
	return nil
}

// linkOf returns the function that reads the id of the row that the hidden
// link column field of t names: its value, or, for a row without one (a
// link to an interface or union, which generated rows leave empty), the
// row the field's resolver picks (generatedField).
func (rt *Runtime) linkOf(t *engine.Table, field string) func(*engine.TableView, int32) string {
	link := t.ByName[field]
	var fd *ast.FieldDefinition
	if d := rt.schema.Types[t.Name]; d != nil {
		fd = d.Fields.ForName(strings.TrimPrefix(field, contract.HiddenKey))
	}
	return func(tv *engine.TableView, r int32) string {
		if v := tv.Value(link, r); v.Kind == dataset.String {
			return v.Str
		}
		if fd == nil {
			return ""
		}
		seed := argsSeed(mix(rt.seed, t.Name, tv.ID(r)), fd.Name, nil)
		if ro, ok := rt.genValue(tv.View, t.Name, fd.Name, fd.Type, seed, 0).(*answer.RowObj); ok {
			return ro.TV.ID(ro.Row)
		}
		return ""
	}
}

// sort records a sort argument: one half of a pair (op field or
// direction), or a whole sort (sortKeys).
func (q *ctQuery) sort(t *engine.Table, op string, v any) {
	s, _ := v.(string)
	switch op {
	case "field":
		q.sortField = s
	case "direction":
		q.sortDesc = strings.HasPrefix(strings.ToLower(s), "desc")
	default:
		q.keys = append(q.keys, sortKeys(t, v)...)
		if len(q.keys) > engine.MaxOrderKeys {
			q.keys = q.keys[:engine.MaxOrderKeys]
		}
	}
}

// window records a paging argument: limit, offset, page or size.
func (q *ctQuery) window(op string, v any) {
	n, ok := v.(int)
	if !ok || n < 0 {
		return
	}
	switch op {
	case "limit":
		q.limit = n
	case "offset":
		q.offset = n
	case "page":
		q.page = max(n, 1)
	case "size":
		q.size = n
	}
}

// keyName is the attribute that identifies the rows of t: id, or the
// hidden key.
func keyName(t *engine.Table) string {
	if t.ByName["id"] != nil || t.ByName[contract.HiddenKey] == nil {
		return "id"
	}
	return contract.HiddenKey
}

func firstValue(m map[string]any) any {
	for _, v := range m {
		return v
	}
	return nil
}

// addCond adds the condition field op v; a field t does not have makes
// the node match nothing.
func addCond(n *engine.Where, t *engine.Table, field string, op model.Operator, v any, budget *int) error {
	if *budget--; *budget < 0 {
		return model.Errorf(model.CodeBadUserInput, "the filter has more than %d conditions", engine.MaxWhereNodes)
	}
	a := t.Field(field)
	if a == nil {
		a = foldedAttr(t, field)
	}
	if a != nil && a.Type == model.TypeID && (op == model.OpEq || op == model.OpIn || op == model.OpNeq) {
		if forms, ok := keyForms(v); ok {
			pr, err := engine.NewPredicate(engine.Param{Name: field, Attr: a, Op: model.OpIn}, forms)
			if op == model.OpNeq {
				n.Nin = append(n.Nin, pr)
			} else {
				n.Preds = append(n.Preds, pr)
			}
			return err
		}
	}
	pr, err := engine.NewPredicate(engine.Param{Name: field, Attr: a, Op: op}, numberArg(a, v))
	if err != nil {
		return err
	}
	n.Preds = append(n.Preds, pr)
	return nil
}

// keyForms returns the values an ID argument v stands for, both as text
// and as a number when it is one ("3" and 3): a dataset bound to a
// contract type may hold its keys as JSON numbers, and an ID argument is
// always text (a lookup by key finds the row as the table runtime's
// does). ok is false when v has no second form.
func keyForms(v any) (forms []any, ok bool) {
	switch x := v.(type) {
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil && engine.FormatNum(f) == x {
			return []any{x, f}, true
		}
	case float64:
		return []any{x, engine.FormatNum(x)}, true
	case int:
		return []any{x, strconv.Itoa(x)}, true
	case []any:
		for _, item := range x {
			more, two := keyForms(item)
			if !two {
				more = []any{item}
			}
			forms, ok = append(forms, more...), ok || two
		}
		return forms, ok
	}
	return nil, false
}

// numberArg turns text arguments into numbers for a numeric attribute
// (an ID argument "7" names the row whose Int key is 7); other values are
// returned as they are.
func numberArg(a *engine.Attr, v any) any {
	if a == nil || a.Type != model.TypeInt && a.Type != model.TypeFloat {
		return v
	}
	switch x := v.(type) {
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return f
		}
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = numberArg(a, item)
		}
		return out
	}
	return v
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// foldedAttr returns the attribute of t whose name folds to name's
// (price_DESC's PRICE is price), or nil.
func foldedAttr(t *engine.Table, name string) *engine.Attr {
	n := fold(name)
	for _, a := range t.Attrs {
		if fold(a.Name) == n {
			return a
		}
	}
	if n == "id" {
		return t.IDField
	}
	return nil
}

// fold lower-cases name and drops underscores.
func fold(name string) string { return strings.ToLower(strings.ReplaceAll(name, "_", "")) }

// search adds a case-insensitive contains of v over the text attributes
// of t, any of which may match.
func (q *ctQuery) search(t *engine.Table, v any, budget *int) error {
	or, err := searchNode(t, v, budget)
	if or != nil {
		q.where.And = append(q.where.And, or)
	}
	return err
}

// searchNode is the condition of a text search for v over the text
// attributes of t: a case-insensitive contains, any of which may match;
// nil for an empty search.
func searchNode(t *engine.Table, v any, budget *int) (*engine.Where, error) {
	s, _ := v.(string)
	if s == "" {
		return nil, nil
	}
	or := &engine.Where{HasOr: true}
	for _, a := range t.Attrs {
		if a.Type == model.TypeString || a.Type == model.TypeID && !a.IsID {
			c := &engine.Where{}
			if err := addCond(c, t, a.Name, model.OpLike, s, budget); err != nil {
				return nil, err
			}
			or.Or = append(or.Or, c)
		}
	}
	return or, nil
}

// sortKeys reads a sort argument: an enum value (PRICE_DESC, price_asc,
// TITLE), a text ("-price"), an input with field and direction, a
// Hasura or Prisma object ({price: desc}), or a list of these.
func sortKeys(t *engine.Table, v any) []engine.SortKey {
	var keys []engine.SortKey
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			keys = append(keys, sortKeys(t, item)...)
		}
	case string:
		if k, ok := sortWord(t, x); ok {
			keys = append(keys, k)
		}
	case map[string]any:
		keys = append(keys, sortObject(t, x)...)
	}
	if len(keys) > engine.MaxOrderKeys {
		keys = keys[:engine.MaxOrderKeys]
	}
	return keys
}

// sortWord reads PRICE_DESC, price, -price or price desc.
func sortWord(t *engine.Table, s string) (engine.SortKey, bool) {
	desc := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	low := strings.ToLower(s)
	for _, suf := range []string{"_desc", " desc", "_asc", " asc"} {
		if strings.HasSuffix(low, suf) {
			desc = strings.HasSuffix(suf, "desc")
			s = s[:len(s)-len(suf)]
			break
		}
	}
	a := foldedAttr(t, s)
	return engine.SortKey{Attr: a, Desc: desc}, a != nil
}

// sortObject reads {field: PRICE, direction: DESC} or {price: desc}.
func sortObject(t *engine.Table, m map[string]any) []engine.SortKey {
	if f, ok := m["field"].(string); ok {
		k, ok := sortWord(t, f)
		dir, _ := m["direction"].(string)
		if d, _ := m["order"].(string); dir == "" {
			dir = d
		}
		k.Desc = strings.HasPrefix(strings.ToLower(dir), "desc")
		if ok {
			return []engine.SortKey{k}
		}
		return nil
	}
	var keys []engine.SortKey
	for _, name := range sortedKeys(m) {
		dir, _ := m[name].(string)
		if a := foldedAttr(t, name); a != nil {
			keys = append(keys, engine.SortKey{Attr: a, Desc: strings.HasPrefix(strings.ToLower(dir), "desc")})
		}
	}
	return keys
}

// rows returns the rows q selects from tv in order, before windowing.
func (q *ctQuery) rows(ctx context.Context, tv *engine.TableView) (engine.RowList, error) {
	if err := q.resolveJoins(ctx, tv); err != nil {
		return engine.RowList{}, err
	}
	pq := q.pq
	if pq == nil {
		pq = q.power()
	}
	if pg, size, ok := q.pageWindow(pq); ok {
		return tv.PageRows(ctx, pq.List, pg, size) // a window of the page: what the table runtime reads
	}
	l, err := pq.All(ctx, tv)
	if err != nil || len(q.tests) == 0 {
		return l, err
	}
	out := make([]int32, 0, l.Len())
	for i := 0; i < l.Len(); i++ {
		if r := l.At(i); q.test(tv, r) {
			out = append(out, r)
		}
	}
	return engine.RowList{Rows: out}, nil
}

// power returns the engine's query of q's conditions and sort keys.
func (q *ctQuery) power() *engine.Query {
	pq := &engine.Query{List: &engine.ListQuery{}, Keys: q.keys}
	pq.List.Preds, pq.Rest = q.where.Split()
	if len(pq.Keys) > 0 {
		pq.List.Sort, pq.List.Desc = pq.Keys[0].Attr, pq.Keys[0].Desc
	}
	pq.List.Spec = engine.QuerySpec(pq.List)
	return pq
}

// prepare builds q's engine query once, so that q can be kept and read
// by concurrent requests (rows then changes nothing in it); false when
// q has joins, which each request resolves into its where tree.
func (q *ctQuery) prepare() bool {
	if len(q.joins) > 0 {
		return false
	}
	q.pq = q.power()
	return true
}

// pageWindow returns the page number and size whose window holds the rows q
// serves, when q may read only that window (paged set, the list engine
// alone answers q, offset a multiple of limit).
func (q *ctQuery) pageWindow(pq *engine.Query) (pg, size int, ok bool) {
	if !q.paged || q.relay && !q.firstOnly() || !pq.Simple() || len(q.tests) > 0 || q.limit == 0 {
		return 0, 0, false
	}
	if q.relay {
		return 1, q.first, true
	}
	if q.limit < 0 {
		return 1, q.maxPage, q.offset == 0
	}
	return q.offset/q.limit + 1, q.limit, q.offset%q.limit == 0
}

// firstOnly reports whether the only Relay argument is a positive first,
// so that the rows served are the first ones.
func (q *ctQuery) firstOnly() bool { return q.relayArgs == 1 && q.first > 0 }

func (q *ctQuery) test(tv *engine.TableView, r int32) bool {
	for _, t := range q.tests {
		if !t(tv, r) {
			return false
		}
	}
	return true
}

// bounds returns the window [lo, hi) of n rows that offset and limit give.
func (q *ctQuery) bounds(n int) (int, int) {
	lo := min(q.offset, n)
	hi := n
	if q.limit >= 0 {
		hi = min(n, lo+q.limit)
	}
	return lo, hi
}
