package graphql

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// A whereNode is a where filter (<T>Where): every predicate, nin, and
// child holds, at least one of or holds when or is given, and not does
// not hold. Predicates follow the parameter rules of query_filter.go
// (a value of another type matches nothing: docs/using/runtime.md, "Query rules"); isNull true
// is eq null, false is neq null; nin holds when the value is of the type
// of one of its values and equal to none of them (an empty nin list does
// not filter).
type whereNode struct {
	preds []predicate
	nin   []predicate // op in, negated as above
	and   []*whereNode
	or    []*whereNode
	hasOr bool
	not   *whereNode
}

// maxWhereNodes bounds the size of one where filter (nodes plus conditions),
// so an anonymous request cannot make every row pay an unbounded tree.
const maxWhereNodes = 256

// parseWhere reads a coerced <T>Where value; nil when raw is null.
func parseWhere(t *table, raw any) (*whereNode, error) {
	m, ok := raw.(map[string]any)
	if !ok || m == nil {
		return nil, nil
	}
	budget := maxWhereNodes
	return parseWhereNode(t, m, &budget)
}

func parseWhereNode(t *table, m map[string]any, budget *int) (*whereNode, error) {
	if *budget--; *budget < 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "where filter has more than %d nodes and conditions", maxWhereNodes)
	}
	n := &whereNode{}
	for k, v := range m {
		var err error
		switch k {
		case "and", "or":
			var list []*whereNode
			list, err = parseWhereList(t, v, budget)
			if k == "and" {
				n.and = append(n.and, list...)
			} else if v != nil {
				n.or, n.hasOr = list, true
			}
		case "not":
			if sub, ok := v.(map[string]any); ok {
				n.not, err = parseWhereNode(t, sub, budget)
			}
		default:
			err = n.addOperators(t.field(k), k, v, budget)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

func parseWhereList(t *table, v any, budget *int) ([]*whereNode, error) {
	list, _ := v.([]any)
	out := make([]*whereNode, 0, len(list))
	for _, x := range list {
		sub, _ := x.(map[string]any)
		c, err := parseWhereNode(t, sub, budget)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// addOperators adds the FilterOperators value v on attribute a.
func (n *whereNode) addOperators(a *attribute, name string, v any, budget *int) error {
	ops, _ := v.(map[string]any)
	for op, arg := range ops {
		if *budget--; *budget < 0 {
			return model.Errorf(model.CodeBadUserInput, "where filter has more than %d nodes and conditions", maxWhereNodes)
		}
		p := param{name: name + "." + op, attr: a, op: model.Operator(op)}
		switch op {
		case "isNull":
			if arg == nil {
				continue
			}
			p.op = model.OpNeq
			if arg == true {
				p.op = model.OpEq
			}
			arg = nil
		case "in", "nin":
			if arg == nil {
				continue
			}
			p.op = model.OpIn
		}
		pr, err := newPredicate(p, arg)
		if err != nil {
			return err
		}
		if op == "nin" {
			if len(pr.args) > 0 {
				n.nin = append(n.nin, pr)
			}
			continue
		}
		n.preds = append(n.preds, pr)
	}
	return nil
}

// match reports whether row r (overlay applied) satisfies the node.
func (n *whereNode) match(tv *tableView, r int32) bool {
	if !tv.matchLive(n.preds, r) {
		return false
	}
	for i := range n.nin {
		if !ninMatch(&n.nin[i], tv.value(n.nin[i].attr, r)) {
			return false
		}
	}
	for _, c := range n.and {
		if !c.match(tv, r) {
			return false
		}
	}
	if n.hasOr && !n.anyOr(tv, r) {
		return false
	}
	return n.not == nil || !n.not.match(tv, r)
}

func (n *whereNode) anyOr(tv *tableView, r int32) bool {
	for _, c := range n.or {
		if c.match(tv, r) {
			return true
		}
	}
	return false
}

func ninMatch(pr *predicate, v dataset.Value) bool {
	typed := false
	for _, a := range pr.args {
		typed = typed || a.Kind == v.Kind
	}
	return typed && !pr.match(v)
}

// split takes out the predicates that hold for every match (those of the
// root and of its and-children, recursively): the list engine evaluates
// them on its indexes. It returns them and what is left to check per row
// (nil: nothing).
func (n *whereNode) split() ([]predicate, *whereNode) {
	if n == nil {
		return nil, nil
	}
	preds := append([]predicate{}, n.preds...)
	rest := &whereNode{nin: n.nin, or: n.or, hasOr: n.hasOr, not: n.not}
	for _, c := range n.and {
		p, r := c.split()
		preds = append(preds, p...)
		if r != nil {
			rest.and = append(rest.and, r)
		}
	}
	if len(rest.nin) == 0 && len(rest.and) == 0 && !rest.hasOr && rest.not == nil {
		return preds, nil
	}
	return preds, rest
}
