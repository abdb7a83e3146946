package incremental

// The document side of Split: the operation, its variables and
// the arguments of @skip, @include, @defer and @stream.

import (
	"encoding/json"

	"github.com/vektah/gqlparser/v2/ast"
)

// pickOperation returns the operation req names, or the only one.
func pickOperation(doc *ast.QueryDocument, name string) *ast.OperationDefinition {
	if name == "" {
		if len(doc.Operations) == 1 {
			return doc.Operations[0]
		}
		return nil
	}
	return doc.Operations.ForName(name)
}

// mayIncrement is a quick look for a @defer or @stream anywhere in doc.
func mayIncrement(doc *ast.QueryDocument) bool {
	found := false
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				found = found || s.Directives.ForName("stream") != nil
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				found = found || s.Directives.ForName("defer") != nil
				walk(s.SelectionSet)
			case *ast.FragmentSpread:
				found = found || s.Directives.ForName("defer") != nil
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		walk(f.SelectionSet)
	}
	return found
}

// opVars returns the request's variables with op's defaults filled in.
func opVars(op *ast.OperationDefinition, vars map[string]any) map[string]any {
	out := make(map[string]any, len(vars)+len(op.VariableDefinitions))
	for _, d := range op.VariableDefinitions {
		if d.DefaultValue != nil {
			if v, err := d.DefaultValue.Value(nil); err == nil {
				out[d.Variable] = v
			}
		}
	}
	for k, v := range vars {
		out[k] = v
	}
	return out
}

// defersOnce is defers, memoized per selection set.
func (s *splitter) defersOnce(set ast.SelectionSet) bool {
	if len(set) == 0 {
		return false
	}
	if d, ok := s.deferMemo[&set[0]]; ok {
		return d
	}
	if s.deferMemo == nil {
		s.deferMemo = make(map[*ast.Selection]bool)
	}
	d := s.defers(set, map[string]bool{})
	s.deferMemo[&set[0]] = d
	return d
}

// defers reports whether set holds a @defer or @stream at any depth.
func (s *splitter) defers(set ast.SelectionSet, visited map[string]bool) bool {
	for _, sel := range set {
		s.work++
		switch sel := sel.(type) {
		case *ast.Field:
			if sel.Directives.ForName("stream") != nil || s.defers(sel.SelectionSet, visited) {
				return true
			}
		case *ast.InlineFragment:
			if sel.Directives.ForName("defer") != nil || s.defers(sel.SelectionSet, visited) {
				return true
			}
		case *ast.FragmentSpread:
			if sel.Directives.ForName("defer") != nil {
				return true
			}
			if def := s.doc.Fragments.ForName(sel.Name); def != nil && !visited[sel.Name] {
				visited[sel.Name] = true
				if s.defers(def.SelectionSet, visited) {
					return true
				}
			}
		}
	}
	return false
}

// streamOf returns the active @stream of a field's occurrences, or nil.
func (s *splitter) streamOf(occs []occ) *ast.Directive {
	for _, o := range occs {
		if d := o.field.Directives.ForName("stream"); d != nil && s.active(d) {
			return d
		}
	}
	return nil
}

// initialCount is a @stream's initialCount argument (0 when absent).
func (s *splitter) initialCount(d *ast.Directive) int {
	a := d.Arguments.ForName("initialCount")
	if a == nil {
		return 0
	}
	v, _ := a.Value.Value(s.vars)
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case int:
		n = int64(v)
	case float64:
		n = int64(v)
	case json.Number:
		n, _ = v.Int64()
	}
	return int(max(n, 0))
}

// included evaluates @skip and @include.
func (s *splitter) included(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name == "skip" && s.ifArg(d, false) || d.Name == "include" && !s.ifArg(d, true) {
			return false
		}
	}
	return true
}

// active reports whether a @defer or @stream applies: its if is not false.
func (s *splitter) active(d *ast.Directive) bool { return s.ifArg(d, true) }

// ifArg is d's if argument, or def when it has none.
func (s *splitter) ifArg(d *ast.Directive, def bool) bool {
	a := d.Arguments.ForName("if")
	if a == nil {
		return def
	}
	v, _ := a.Value.Value(s.vars)
	b, ok := v.(bool)
	if !ok {
		return def
	}
	return b
}

// label is a @defer's or @stream's label, "" when none.
func (s *splitter) label(d *ast.Directive) string {
	if a := d.Arguments.ForName("label"); a != nil {
		v, _ := a.Value.Value(s.vars)
		l, _ := v.(string)
		return l
	}
	return ""
}

// responseKey is a field's alias, or its name.
func responseKey(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// firstByte is the first non-space byte of a JSON value.
func firstByte(raw json.RawMessage) byte {
	for _, b := range raw {
		if b != ' ' && b != '\n' && b != '\t' && b != '\r' {
			return b
		}
	}
	return 0
}
