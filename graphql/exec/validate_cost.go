package exec

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Cost is the cost budget of an executor's operations (Executor.Cost):
// what a field's resolver costs the service, summed over a request before
// it runs, so that one request cannot ask for fifty account-wide project
// lists under aliases. A field costs Fields["Type.field"] each time it is
// selected (every alias counts), else 1 on the root types and 0 below
// them; the cost of a list field's selection is multiplied by ListFactor,
// since it is resolved once per item. The zero value has no budget.
type Cost struct {
	// Max is the most an operation may cost; 0 turns the budget off.
	Max int
	// Fields are the costs of the fields that cost more than the default.
	Fields map[string]int
	// ListFactor multiplies the cost of a list field's selection; 0 means
	// DefaultListCostFactor.
	ListFactor int
}

// DefaultListCostFactor is Cost.ListFactor's default: a list costs its
// items' fields as if ten items were selected.
const DefaultListCostFactor = 10

// checkCost returns an error for the first operation of doc that costs
// more than e.Cost.Max. Fragments are costed once each (memoized), so a
// document whose fragments fan out is costed in linear time; sums
// saturate just above the limit. It runs on valid documents.
func (e *Executor) checkCost(doc *ast.QueryDocument) *gqlerror.Error {
	if e.Cost.Max <= 0 {
		return nil
	}
	c := &coster{ex: e, doc: doc, limit: e.Cost.Max, factor: e.Cost.ListFactor, memo: map[string]int{}}
	if c.factor <= 0 {
		c.factor = DefaultListCostFactor
	}
	for _, op := range doc.Operations {
		root := e.Schema.Query
		switch {
		case op.Operation == ast.Mutation:
			root = e.Schema.Mutation
		case op.Operation == ast.Subscription && e.Schema.Subscription != nil:
			root = e.Schema.Subscription
		}
		if got := c.selectionSet(root, op.SelectionSet); got > c.limit {
			msg := fmt.Sprintf("the operation costs more than the limit of %d", c.limit)
			if c.top != "" {
				msg += fmt.Sprintf(" (%s costs %d a selection, each alias counted): split it into several requests", c.top, c.topCost)
			}
			return limitError(op, msg)
		}
	}
	return nil
}

// coster sums the costs of selection sets (Executor.Cost), and remembers
// the costliest root-type field it met, for the message.
type coster struct {
	ex            *Executor
	doc           *ast.QueryDocument
	limit, factor int
	memo          map[string]int
	top           string
	topCost       int
}

func (c *coster) selectionSet(parent *ast.Definition, set ast.SelectionSet) int {
	total := 0
	for _, sel := range set {
		var got int
		switch s := sel.(type) {
		case *ast.Field:
			got = c.field(parent, s)
		case *ast.InlineFragment:
			got = c.selectionSet(c.typeOr(s.TypeCondition, parent), s.SelectionSet)
		case *ast.FragmentSpread:
			got = c.fragment(s.Name)
		}
		total = min(total+got, c.limit+1)
	}
	return total
}

func (c *coster) field(parent *ast.Definition, f *ast.Field) int {
	if parent == nil {
		return 0
	}
	key := parent.Name + "." + f.Name
	own, ok := c.ex.Cost.Fields[key]
	if !ok && c.isRoot(parent) {
		own = 1
	}
	if c.isRoot(parent) && own > c.topCost {
		c.top, c.topCost = f.Name, own
	}
	var sub int
	if def := parent.Fields.ForName(f.Name); def != nil && len(f.SelectionSet) > 0 {
		sub = c.selectionSet(c.ex.Schema.Types[def.Type.Name()], f.SelectionSet)
		if def.Type.Elem != nil {
			sub = min(sub*c.factor, c.limit+1)
		}
	}
	return min(own+sub, c.limit+1)
}

func (c *coster) fragment(name string) int {
	if got, ok := c.memo[name]; ok {
		return got
	}
	c.memo[name] = 0
	var got int
	if f := c.doc.Fragments.ForName(name); f != nil {
		got = c.selectionSet(c.ex.Schema.Types[f.TypeCondition], f.SelectionSet)
	}
	c.memo[name] = got
	return got
}

// typeOr returns the type named name, or parent when name is empty.
func (c *coster) typeOr(name string, parent *ast.Definition) *ast.Definition {
	if name == "" {
		return parent
	}
	return c.ex.Schema.Types[name]
}

func (c *coster) isRoot(d *ast.Definition) bool {
	return d == c.ex.Schema.Query || (c.ex.Schema.Mutation != nil && d == c.ex.Schema.Mutation) ||
		(c.ex.Schema.Subscription != nil && d == c.ex.Schema.Subscription)
}
