package engine

import (
	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/model"
)

// A Where is a where filter (<T>Where): every predicate, nin, and
// child holds, at least one of or holds when or is given, and not does
// not hold. Predicates follow the parameter rules of filter.go
// (a value of another type matches nothing: docs/using/runtime.md, "Query rules"); isNull true
// is eq null, false is neq null; nin holds when the value is of the type
// of one of its values and equal to none of them (an empty nin list does
// not filter).
type Where struct {
	Preds []Pred
	Nin   []Pred // op in, negated as above
	And   []*Where
	Or    []*Where
	HasOr bool
	Not   *Where
}

// MaxWhereNodes bounds the size of one where filter (nodes plus conditions),
// so an anonymous request cannot make every row pay an unbounded tree.
const MaxWhereNodes = 256

// ParseWhere reads a coerced <T>Where value; nil when raw is null.
func ParseWhere(t *Table, raw any) (*Where, error) {
	m, ok := raw.(map[string]any)
	if !ok || m == nil {
		return nil, nil
	}
	budget := MaxWhereNodes
	return parseWhereNode(t, m, &budget)
}

func parseWhereNode(t *Table, m map[string]any, budget *int) (*Where, error) {
	if *budget--; *budget < 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "where filter has more than %d nodes and conditions", MaxWhereNodes)
	}
	n := &Where{}
	for k, v := range m {
		var err error
		switch k {
		case "and", "or":
			var list []*Where
			list, err = parseWhereList(t, v, budget)
			if k == "and" {
				n.And = append(n.And, list...)
			} else if v != nil {
				n.Or, n.HasOr = list, true
			}
		case "not":
			if sub, ok := v.(map[string]any); ok {
				n.Not, err = parseWhereNode(t, sub, budget)
			}
		default:
			err = n.addOperators(t.Field(k), k, v, budget)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

func parseWhereList(t *Table, v any, budget *int) ([]*Where, error) {
	list, _ := v.([]any)
	out := make([]*Where, 0, len(list))
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
func (n *Where) addOperators(a *Attr, name string, v any, budget *int) error {
	ops, _ := v.(map[string]any)
	for op, arg := range ops {
		if *budget--; *budget < 0 {
			return model.Errorf(model.CodeBadUserInput, "where filter has more than %d nodes and conditions", MaxWhereNodes)
		}
		p := Param{Name: name + "." + op, Attr: a, Op: model.Operator(op)}
		switch op {
		case "isNull":
			if arg == nil {
				continue
			}
			p.Op = model.OpNeq
			if arg == true {
				p.Op = model.OpEq
			}
			arg = nil
		case "in", "nin":
			if arg == nil {
				continue
			}
			p.Op = model.OpIn
		}
		pr, err := NewPredicate(p, arg)
		if err != nil {
			return err
		}
		if op == "nin" {
			if len(pr.Args) > 0 {
				n.Nin = append(n.Nin, pr)
			}
			continue
		}
		n.Preds = append(n.Preds, pr)
	}
	return nil
}

// Match reports whether row r (overlay applied) satisfies the node.
func (n *Where) Match(tv *TableView, r int32) bool {
	if !tv.MatchLive(n.Preds, r) {
		return false
	}
	for i := range n.Nin {
		if !ninMatch(&n.Nin[i], tv.Value(n.Nin[i].Attr, r)) {
			return false
		}
	}
	for _, c := range n.And {
		if !c.Match(tv, r) {
			return false
		}
	}
	if n.HasOr && !n.anyOr(tv, r) {
		return false
	}
	return n.Not == nil || !n.Not.Match(tv, r)
}

func (n *Where) anyOr(tv *TableView, r int32) bool {
	for _, c := range n.Or {
		if c.Match(tv, r) {
			return true
		}
	}
	return false
}

func ninMatch(pr *Pred, v dataset.Value) bool {
	typed := false
	for _, a := range pr.Args {
		typed = typed || a.Kind == v.Kind
	}
	return typed && !pr.match(v)
}

// Split takes out the predicates that hold for every match (those of the
// root and of its and-children, recursively): the list engine evaluates
// them on its indexes. It returns them and what is left to check per row
// (nil: nothing).
func (n *Where) Split() ([]Pred, *Where) {
	if n == nil {
		return nil, nil
	}
	preds := append([]Pred{}, n.Preds...)
	rest := &Where{Nin: n.Nin, Or: n.Or, HasOr: n.HasOr, Not: n.Not}
	for _, c := range n.And {
		p, r := c.Split()
		preds = append(preds, p...)
		if r != nil {
			rest.And = append(rest.And, r)
		}
	}
	if len(rest.Nin) == 0 && len(rest.And) == 0 && !rest.HasOr && rest.Not == nil {
		return preds, nil
	}
	return preds, rest
}
