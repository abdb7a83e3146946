package graphql

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// checkLimits returns an error for the first operation of doc that nests
// deeper than e.MaxDepth or selects more than e.MaxFields fields after
// fragment expansion. Introspection subtrees (__schema, __type) count
// toward the fields but not the depth, since the standard introspection
// query is deep by design. It runs before validation, which it spares
// oversized documents: unknown fragments count as empty and a fragment
// cycle (which validation then rejects) counts once.
func (e *Executor) checkLimits(doc *ast.QueryDocument) *gqlerror.Error {
	m := &measurer{doc: doc, limit: e.MaxFields, memo: make(map[string]measure)}
	for _, op := range doc.Operations {
		got := m.selectionSet(op.SelectionSet)
		if got.depth > e.MaxDepth {
			return limitError(op, fmt.Sprintf("query depth %d exceeds the limit of %d", got.depth, e.MaxDepth))
		}
		if got.fields > e.MaxFields {
			return limitError(op, fmt.Sprintf("query selects more than the limit of %d fields", e.MaxFields))
		}
	}
	return nil
}

// limitError returns a validation error located at op.
func limitError(op *ast.OperationDefinition, msg string) *gqlerror.Error {
	err := &gqlerror.Error{Message: msg}
	if op.Position != nil {
		err.Locations = []gqlerror.Location{{Line: op.Position.Line, Column: op.Position.Column}}
	}
	return err
}

// measure is the depth and field count of a selection set.
type measure struct{ depth, fields int }

// measurer measures selection sets, memoizing fragments so that a document
// whose fragments fan out exponentially is measured in linear time. Field
// counts saturate just above the limit.
type measurer struct {
	doc   *ast.QueryDocument
	limit int
	memo  map[string]measure
}

func (m *measurer) selectionSet(set ast.SelectionSet) measure {
	var out measure
	for _, sel := range set {
		var got measure
		switch s := sel.(type) {
		case *ast.Field:
			got = m.selectionSet(s.SelectionSet)
			got.fields++
			if s.Name == "__schema" || s.Name == "__type" {
				got.depth = 0
			} else {
				got.depth++
			}
		case *ast.InlineFragment:
			got = m.selectionSet(s.SelectionSet)
		case *ast.FragmentSpread:
			got = m.fragment(s.Name)
		}
		out.depth = max(out.depth, got.depth)
		out.fields = min(out.fields+got.fields, m.limit+1)
	}
	return out
}

func (m *measurer) fragment(name string) measure {
	if got, ok := m.memo[name]; ok {
		return got
	}
	m.memo[name] = measure{} // in progress: a cycle back to it adds nothing
	var got measure
	if f := m.doc.Fragments.ForName(name); f != nil {
		got = m.selectionSet(f.SelectionSet)
	}
	m.memo[name] = got
	return got
}
