package contractrt

import (
	"context"
	"strconv"
	"strings"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/model"
)

// This file translates the filter inputs of imported schemas onto the
// row engine's where tree (docs/using/contract.md, "Filters"): Hasura's
// _eq/_neq/_gt/_gte/_lt/_lte/_in/_nin/_like/_ilike/_is_null with
// _and/_or/_not, Prisma's equals/not/gt/gte/lt/lte/in/notIn/contains/
// startsWith/endsWith with AND/OR/NOT, and plain inputs whose fields are
// compared for equality. A condition on a relation filters by the related
// rows (ctJoin): the row a to-one relation names, or for a to-many one
// whether some related row matches (Hasura's exists, Prisma's some, none
// and every). Conditions on anything else the table does not hold are
// refused with BAD_USER_INPUT rather than ignored, so a filter never
// silently returns rows it should not.

// relationOf returns the relation field name of t that a foreign key
// holds (to-one, or to-many with a field back), or nil.
func relationOf(t *engine.Table, name string) *engine.Rel {
	for _, rf := range t.Rels {
		if rf.Name == name && rf.From != nil && rf.ToAttr != nil {
			return rf
		}
	}
	return nil
}

// ctJoin is a filter on the rows a relation names (Hasura's
// {author: {name: {_eq: "x"}}}, Prisma's {author: {is: {…}}} and
// {books: {some: {…}}}): when the rows are read, node gets the condition
// "the row's key for rf is one of the keys of the related rows the
// filter selects" (every: that the filter does not select).
type ctJoin struct {
	node   *engine.Where
	rf     *engine.Rel
	filter map[string]any
	every  bool
	// linkOf, when rf is nil, is the id of the row a row's link names (a
	// hidden link column, contract.HiddenKey, or the row its generated
	// field picks): the rows whose link names a row of targets whose id or
	// natural key (naturalKey) is one of keys match.
	linkOf  func(tv *engine.TableView, r int32) string
	targets []*engine.Table
	keys    []any
}

// joinPart is one condition on the related rows: the rows that filter
// selects exist (negate: do not); every selects the rows that do not
// match filter, so that none of them existing means all match.
type joinPart struct {
	filter        map[string]any
	negate, every bool
}

// joinParts reads the filter v on the related rows of rf: Prisma's is,
// isNot (to-one), some, none, every (to-many), else a filter the related
// row (to-one) or some related row (to-many, Hasura) matches.
func joinParts(rf *engine.Rel, v any) []joinPart {
	m, _ := v.(map[string]any)
	words := map[string]joinPart{"is": {}, "isNot": {negate: true}}
	if rf.List {
		words = map[string]joinPart{"some": {}, "none": {negate: true}, "every": {negate: true, every: true}}
	}
	var out []joinPart
	for _, k := range sortedKeys(m) {
		p, ok := words[k]
		if !ok {
			return []joinPart{{filter: m}}
		}
		if f, ok := m[k].(map[string]any); ok {
			p.filter = f
			out = append(out, p)
		}
	}
	if len(m) == 0 {
		return []joinPart{{filter: m}}
	}
	return out
}

// joinFilter adds a filter on the related rows of rf at n.
func (q *ctQuery) joinFilter(n *engine.Where, rf *engine.Rel, v any, budget *int) error {
	for _, p := range joinParts(rf, v) {
		// The target's filter is checked now, so that a wrong one is
		// refused before any row is read.
		if _, err := (&ctQuery{where: &engine.Where{}}).filterNode(rf.To, p.filter, budget, false); err != nil {
			return err
		}
		sub := &engine.Where{}
		q.joins = append(q.joins, ctJoin{node: sub, rf: rf, filter: p.filter, every: p.every})
		if p.negate {
			sub = &engine.Where{Not: sub}
		}
		n.And = append(n.And, sub)
	}
	return nil
}

// resolveJoins gives each join's node its condition, reading the rows of
// the related tables in the view of tv.
func (q *ctQuery) resolveJoins(ctx context.Context, tv *engine.TableView) error {
	for _, j := range q.joins {
		if j.rf == nil {
			if err := j.resolveLink(ctx, tv); err != nil {
				return err
			}
			continue
		}
		target := tv.View.TableView(j.rf.To)
		if target.NotReady != nil {
			return target.NotReady
		}
		budget := engine.MaxWhereNodes
		sub := &ctQuery{where: &engine.Where{}, limit: -1}
		w, err := sub.filterNode(j.rf.To, j.filter, &budget, !j.every)
		if err != nil {
			return err
		}
		if j.every {
			w = &engine.Where{Not: w}
		}
		sub.where = w
		rows, err := sub.rows(ctx, target)
		if err != nil {
			return err
		}
		pr := engine.Pred{Attr: j.rf.From, Op: model.OpIn, Args: make([]dataset.Value, 0, rows.Len())}
		for i := 0; i < rows.Len(); i++ {
			pr.Args = appendKey(pr.Args, target.Value(j.rf.ToAttr, rows.At(i)))
		}
		j.node.Preds = append(j.node.Preds, pr)
	}
	return nil
}

// resolveLink gives a link join's node its condition: the rows of tv
// whose link (j.linkOf) names a target row whose id or natural key is one
// of j.keys.
func (j *ctJoin) resolveLink(ctx context.Context, tv *engine.TableView) error {
	matched := map[string]bool{}
	for _, t := range j.targets {
		target := tv.View.TableView(t)
		if target.NotReady != nil {
			return target.NotReady
		}
		budget := engine.MaxWhereNodes
		match := &engine.Where{HasOr: true}
		id := &engine.Where{}
		if err := addCond(id, t, keyName(t), model.OpIn, j.keys, &budget); err != nil {
			return err
		}
		match.Or = append(match.Or, id)
		if a := naturalKey(t); a != nil {
			nk := &engine.Where{}
			if err := addCond(nk, t, a.Name, model.OpIn, j.keys, &budget); err != nil {
				return err
			}
			match.Or = append(match.Or, nk)
		}
		rows, err := (&ctQuery{where: match, limit: -1}).rows(ctx, target)
		if err != nil {
			return err
		}
		for i := 0; i < rows.Len(); i++ {
			matched[target.ID(rows.At(i))] = true
		}
	}
	var ids []any
	if len(matched) > 0 {
		all, err := (&ctQuery{where: &engine.Where{}, limit: -1}).rows(ctx, tv)
		if err != nil {
			return err
		}
		for i := 0; i < all.Len(); i++ {
			if r := all.At(i); matched[j.linkOf(tv, r)] {
				ids = append(ids, tv.ID(r))
			}
		}
	}
	if len(ids) == 0 {
		j.node.Or, j.node.HasOr = nil, true // matches nothing
		return nil
	}
	budget := 1
	return addCond(j.node, tv.Table, keyName(tv.Table), model.OpIn, ids, &budget)
}

// naturalKey returns t's text attribute that names its rows the way people
// do (GitHub's repository(owner: "login")), or nil: the first of these
// names it has.
func naturalKey(t *engine.Table) *engine.Attr {
	for _, n := range [...]string{"login", "username", "handle", "slug", "code", "key", "name", "email", "title"} {
		if a := t.ByName[n]; a != nil && a.Type == model.TypeString {
			return a
		}
	}
	return nil
}

// appendKey appends the key k to keys, in both its forms when it is a
// number or a text holding one: relations match keys by their text
// (engine.CanonKey), so 3 and "3" name the same row.
func appendKey(keys []dataset.Value, k dataset.Value) []dataset.Value {
	switch k.Kind {
	case dataset.Number:
		return append(keys, k, dataset.Value{Kind: dataset.String, Str: engine.FormatNum(k.Num)})
	case dataset.String:
		if f, err := strconv.ParseFloat(k.Str, 64); err == nil && engine.FormatNum(f) == k.Str {
			return append(keys, k, dataset.Value{Kind: dataset.Number, Num: f})
		}
	case dataset.Null:
		return keys
	}
	return append(keys, k)
}

// filterOp maps an operator of any dialect to the engine's (or to the
// pattern and negation kinds the filter handles itself).
func filterOp(op string) (model.Operator, bool) {
	switch op {
	case "_eq", "equals", "eq":
		return model.OpEq, true
	case "_neq", "ne", "neq":
		return model.OpNeq, true
	case "_gt", "gt":
		return model.OpGt, true
	case "_gte", "gte":
		return model.OpGte, true
	case "_lt", "lt":
		return model.OpLt, true
	case "_lte", "lte":
		return model.OpLte, true
	case "_in", "in":
		return model.OpIn, true
	case "_nin", "notIn", "nin":
		return "nin", true
	case "_like", "_ilike", "like":
		return "like", true
	case "_is_null", "isNull":
		return "isNull", true
	case "contains", "startsWith", "endsWith":
		return model.Operator(op), true
	}
	return "", false
}

// filter adds the filter input v, of dialect style, to q.
func (q *ctQuery) filter(t *engine.Table, style string, v any, budget *int) error {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	n, err := q.filterNode(t, m, budget, true)
	if err != nil {
		return err
	}
	q.where.And = append(q.where.And, n)
	return nil
}

// filterNode reads one filter object; top is true while it is reached
// through AND only, where exact pattern tests may run after the engine.
func (q *ctQuery) filterNode(t *engine.Table, m map[string]any, budget *int, top bool) (*engine.Where, error) {
	if *budget--; *budget < 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "the filter has more than %d conditions", engine.MaxWhereNodes)
	}
	n := &engine.Where{}
	for _, k := range sortedKeys(m) {
		v := m[k]
		if v == nil {
			continue
		}
		var err error
		switch k {
		case "_and", "AND", "and":
			var list []*engine.Where
			list, err = q.filterList(t, v, budget, top)
			n.And = append(n.And, list...)
		case "_or", "OR", "or":
			n.Or, err = q.filterList(t, v, budget, false)
			n.HasOr = true
		case "_not", "NOT", "not":
			var list []*engine.Where
			list, err = q.filterList(t, v, budget, false)
			n.Not = &engine.Where{And: list}
		default:
			if _, isText := v.(string); isText && isSearchWord(k) && foldedAttr(t, k) == nil {
				// Saleor's filter: {search: "lamp"}: a text search
				var or *engine.Where
				if or, err = searchNode(t, v, budget); or != nil {
					n.And = append(n.And, or)
				}
				break
			}
			err = q.fieldFilter(n, t, k, v, budget, top)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// isSearchWord reports whether a filter's key names a text search.
func isSearchWord(k string) bool {
	switch fold(k) {
	case "search", "query", "q", "term", "text", "keyword", "searchterm", "searchtext":
		return true
	}
	return false
}

// filterList reads a list of filter objects, or one object (Prisma's AND
// and NOT take either).
func (q *ctQuery) filterList(t *engine.Table, v any, budget *int, top bool) ([]*engine.Where, error) {
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	var out []*engine.Where
	for _, item := range items {
		m, _ := item.(map[string]any)
		c, err := q.filterNode(t, m, budget, top)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// fieldFilter adds the conditions on one field: an operator object, or a
// value compared for equality (plain inputs, Prisma's shorthand).
func (q *ctQuery) fieldFilter(n *engine.Where, t *engine.Table, field string, v any, budget *int, top bool) error {
	a := t.Field(field)
	if a == nil {
		a = foldedAttr(t, field)
	}
	if a == nil {
		if fa, op := affixAttr(t, field); fa != nil {
			if op == model.OpLike {
				return q.pattern(n, t, fa, "contains", false, v, budget, top)
			}
			return addCond(n, t, fa.Name, op, v, budget)
		}
		if rf := relationOf(t, field); rf != nil {
			return q.joinFilter(n, rf, v, budget)
		}
		return model.Errorf(model.CodeBadUserInput, "the filter on %q is not served: it is neither a field of %s's rows nor a relation held by a key", field, t.Name)
	}
	ops, ok := v.(map[string]any)
	if !ok {
		return addCond(n, t, a.Name, model.OpEq, v, budget)
	}
	for _, op := range sortedKeys(ops) {
		if err := q.operator(n, t, a, op, ops[op], budget, top); err != nil {
			return err
		}
	}
	return nil
}

// operator adds one operator condition on a.
func (q *ctQuery) operator(n *engine.Where, t *engine.Table, a *engine.Attr, op string, v any, budget *int, top bool) error {
	if op == "mode" || v == nil && op != "_is_null" {
		return nil // Prisma's mode: insensitive; contains is always case-insensitive
	}
	eop, ok := filterOp(op)
	if !ok {
		if op == "not" { // Prisma: not: value or not: {filter}
			sub := &engine.Where{}
			if err := q.fieldFilter(sub, t, a.Name, v, budget, false); err != nil {
				return err
			}
			n.And = append(n.And, &engine.Where{Not: sub})
			return nil
		}
		return model.Errorf(model.CodeBadUserInput, "the filter operator %q on %q is not served", op, a.Name)
	}
	switch eop {
	case "isNull":
		cop := model.OpNeq
		if v == true {
			cop = model.OpEq
		}
		return addCond(n, t, a.Name, cop, nil, budget)
	case "nin":
		sub := &engine.Where{}
		if err := addCond(sub, t, a.Name, model.OpIn, v, budget); err != nil {
			return err
		}
		n.And = append(n.And, &engine.Where{Not: sub})
		return nil
	case "like", "contains", "startsWith", "endsWith":
		return q.pattern(n, t, a, string(eop), op == "_like", v, budget, top)
	}
	return addCond(n, t, a.Name, eop, v, budget)
}

// pattern adds a text pattern: the engine narrows by the longest literal
// part (case-insensitive contains); at the top level an exact test follows
// (SQL like with % and _, case-sensitive for Hasura's _like).
func (q *ctQuery) pattern(n *engine.Where, t *engine.Table, a *engine.Attr, kind string, sensitive bool, v any, budget *int, top bool) error {
	s, _ := v.(string)
	var match func(string) bool
	switch kind {
	case "contains":
		return addCond(n, t, a.Name, model.OpLike, s, budget)
	case "startsWith":
		match = func(x string) bool { return strings.HasPrefix(strings.ToLower(x), strings.ToLower(s)) }
	case "endsWith":
		match = func(x string) bool { return strings.HasSuffix(strings.ToLower(x), strings.ToLower(s)) }
	default:
		match = likeMatcher(s, sensitive)
		s = longestLiteral(s)
	}
	if s != "" {
		if err := addCond(n, t, a.Name, model.OpLike, s, budget); err != nil {
			return err
		}
	}
	if top {
		q.tests = append(q.tests, func(tv *engine.TableView, r int32) bool {
			v := tv.Value(a, r)
			return v.Str != "" && match(v.Str)
		})
	}
	return nil
}

// longestLiteral is the longest run of a like pattern without wildcards.
func longestLiteral(p string) string {
	best := ""
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '%' || r == '_' }) {
		if len(part) > len(best) {
			best = part
		}
	}
	return best
}

// likeMatcher matches SQL like patterns: % any run, _ one character.
func likeMatcher(p string, sensitive bool) func(string) bool {
	if !sensitive {
		p = strings.ToLower(p)
	}
	pat := []rune(p)
	return func(s string) bool {
		if !sensitive {
			s = strings.ToLower(s)
		}
		return likeRunes(pat, []rune(s))
	}
}

// likeRunes matches pat against s with backtracking over % (linear in
// practice: one saved position).
func likeRunes(pat, s []rune) bool {
	pi, si, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && (pat[pi] == '_' || pat[pi] == s[si]):
			pi++
			si++
		case pi < len(pat) && pat[pi] == '%':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi, mark = star+1, mark+1
			si = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == '%' {
		pi++
	}
	return pi == len(pat)
}

// affix is a prefix or suffix that names an operator on a field.
type affix struct {
	affix string
	op    model.Operator
}

// filterPrefixes and filterSuffixes name a field and an operator:
// minPrice, price_gte, createdAfter, status_in, nameContains.
func filterPrefixes() []affix {
	return []affix{{"min", model.OpGte}, {"max", model.OpLte}, {"from", model.OpGte}, {"to", model.OpLte}}
}

func filterSuffixes() []affix {
	return []affix{
		{"gte", model.OpGte}, {"gt", model.OpGt}, {"lte", model.OpLte}, {"lt", model.OpLt}, {"min", model.OpGte},
		{"max", model.OpLte}, {"from", model.OpGte}, {"to", model.OpLte}, {"after", model.OpGt}, {"before", model.OpLt},
		{"since", model.OpGte}, {"until", model.OpLte}, {"in", model.OpIn}, {"contains", model.OpLike}, {"neq", model.OpNeq},
		{"not", model.OpNeq}, {"eq", model.OpEq},
	}
}

// affixAttr returns the attribute and operator a filter field named with
// an affix stands for, or nil.
func affixAttr(t *engine.Table, name string) (*engine.Attr, model.Operator) {
	n := fold(name)
	for _, p := range filterPrefixes() {
		if rest, ok := strings.CutPrefix(n, p.affix); ok && rest != "" {
			if a := foldedAttr(t, rest); a != nil {
				return a, p.op
			}
		}
	}
	for _, s := range filterSuffixes() {
		if rest, ok := strings.CutSuffix(n, s.affix); ok && rest != "" {
			if a := foldedAttr(t, rest); a != nil {
				return a, s.op
			}
		}
	}
	return nil, ""
}
