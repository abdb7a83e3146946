package exec

import (
	"fmt"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/mockgql/mockgql/model"
)

// MaxDirectives is the most directives one field, fragment or operation
// may carry: @skip and @include, once each, are all a client needs, and a
// thousand copies of one would otherwise cost validation an error each.
const MaxDirectives = 8

// MaxSameKey is the most fields of one selection set that may share a
// response key. Validation compares such fields pairwise (they must
// merge), so a thousand of them would cost it half a million comparisons.
const MaxSameKey = 100

// checkLimits returns an error for the first operation of doc that nests
// deeper than e.MaxDepth or selects more than e.MaxFields fields after
// fragment expansion, or for the first place in doc with more than
// MaxDirectives directives or MaxSameKey fields of one response key, or
// for a fragment definition over the depth or field limit on its own
// (checkDocument has refused unknown fragments and cycles before), or
// for a document whose operations and fragments together select more than
// Bounds.MaxWalk fields after expansion: what the validator walks. Introspection subtrees (__schema, __type) count
// toward the fields but not the depth, since the standard introspection
// query is deep by design. It runs before validation, which it spares
// oversized documents: unknown fragments count as empty and a fragment
// cycle (which validation then rejects) counts once.
func (e *Executor) checkLimits(doc *ast.QueryDocument) *gqlerror.Error {
	if err := checkSelections(doc); err != nil {
		return err
	}
	m := &measurer{doc: doc, limit: e.MaxFields, memo: make(map[string]measure)}
	walk := 0
	for _, op := range doc.Operations {
		got := m.selectionSet(op.SelectionSet)
		walk += got.fields
		if got.depth > e.MaxDepth {
			return limitError(op, fmt.Sprintf("query depth %d exceeds the limit of %d", got.depth, e.MaxDepth))
		}
		if got.fields > e.MaxFields {
			return limitError(op, fmt.Sprintf("query selects more than the limit of %d fields", e.MaxFields))
		}
	}
	// The validator walks each fragment definition on its own too, used
	// or not: each must fit the limits as an operation would.
	for _, f := range doc.Fragments {
		got := m.fragment(f.Name)
		walk += got.fields
		// A fragment on an introspection type (GraphiQL's FullType,
		// TypeRef) is an introspection subtree: like __schema and __type
		// in an operation, its depth does not count.
		if got.depth > e.MaxDepth && !strings.HasPrefix(f.TypeCondition, "__") {
			return limitErrorAt(f.Position, fmt.Sprintf("fragment %q nests %d deep, over the limit of %d", model.Clip(f.Name, 64), got.depth, e.MaxDepth))
		}
		if got.fields > e.MaxFields {
			return limitErrorAt(f.Position, fmt.Sprintf("fragment %q selects more than the limit of %d fields", model.Clip(f.Name, 64), e.MaxFields))
		}
		if walk > e.Bounds.MaxWalk {
			return limitErrorAt(f.Position, fmt.Sprintf("validating the document would walk more than the limit of %d fields (each fragment counts once more for every operation and fragment that spreads it): spread fragments less deep", e.Bounds.MaxWalk))
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

// checkSelections returns an error for the first place in doc with more
// than MaxDirectives directives or MaxSameKey fields of one response key.
// It looks at each selection once, fragment definitions included, so it
// is linear in the document.
func checkSelections(doc *ast.QueryDocument) *gqlerror.Error {
	for _, op := range doc.Operations {
		if err := directivesOf(op.Directives, op.Position); err != nil {
			return err
		}
		if err := directivesIn(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range doc.Fragments {
		if err := directivesOf(f.Directives, f.Position); err != nil {
			return err
		}
		if err := directivesIn(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}

func directivesIn(set ast.SelectionSet) *gqlerror.Error {
	var keys map[string]int
	for _, sel := range set {
		var err *gqlerror.Error
		switch s := sel.(type) {
		case *ast.Field:
			if keys == nil {
				keys = make(map[string]int, len(set))
			}
			if keys[s.Alias]++; keys[s.Alias] > MaxSameKey {
				return limitErrorAt(s.Position, fmt.Sprintf("more than %d fields of the selection share the response key %q", MaxSameKey, model.Clip(s.Alias, 64)))
			}
			if err = directivesOf(s.Directives, s.Position); err == nil {
				err = directivesIn(s.SelectionSet)
			}
		case *ast.InlineFragment:
			if err = directivesOf(s.Directives, s.Position); err == nil {
				err = directivesIn(s.SelectionSet)
			}
		case *ast.FragmentSpread:
			err = directivesOf(s.Directives, s.Position)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func directivesOf(dirs ast.DirectiveList, pos *ast.Position) *gqlerror.Error {
	if len(dirs) <= MaxDirectives {
		return nil
	}
	return limitErrorAt(pos, fmt.Sprintf("%d directives in one place exceed the limit of %d", len(dirs), MaxDirectives))
}

// limitErrorAt returns a validation error located at pos (which may be nil).
func limitErrorAt(pos *ast.Position, msg string) *gqlerror.Error {
	err := &gqlerror.Error{Message: msg}
	if pos != nil {
		err.Locations = []gqlerror.Location{{Line: pos.Line, Column: pos.Column}}
	}
	return err
}
