package exec

import (
	"strconv"

	"github.com/vektah/gqlparser/v2/ast"
)

// selectionPlan is a selection set collected for one object type: the
// fields to write, in order, with fragments expanded, @skip and @include
// applied and same-key fields merged.
type selectionPlan struct {
	fields []*plannedField
	// direct is the plan compiled by Executor.DirectPlan, or nil.
	direct any
}

// plannedField is one response key of a selectionPlan. A plan holds no
// per-request state unless it was built for one request (see planner), so
// it is shared, read-only, by concurrent executions.
type plannedField struct {
	key     string     // response key
	keyJSON string     // `"key":`
	ast     *ast.Field // first field with this key
	info    *fieldInfo // nil for __typename

	// mapLeaf marks a scalar or enum field with the default resolver: on a
	// map parent, object writes common values of it without a call.
	mapLeaf bool

	// Arguments: coerced once when they use no variables, else per call.
	dynamic bool
	args    map[string]any
	extra   map[string]any
	argsErr error

	child    *selectionPlan            // when the field's named type is an object
	children map[string]*selectionPlan // when it is abstract: by object type name
}

// planner builds selection plans for one operation.
type planner struct {
	ex      *Executor
	doc     *ast.QueryDocument
	coercer *inputCoercer // with the request's variables, for @skip and @include
	consts  *inputCoercer // without variables, for constant arguments
	varDirs bool          // a @skip or @include used a variable: the plan is per request
	memo    map[planKey]*selectionPlan
}

// planKey identifies an unmerged selection set planned for an object type,
// so that abstract fields nested in abstract fields do not plan the same
// set once per path.
type planKey struct {
	obj *objectType
	set *ast.Selection
}

// plan collects sets (several when same-key fields merge) for obj.
func (p *planner) plan(obj *objectType, sets []ast.SelectionSet) *selectionPlan {
	if len(sets) == 1 && len(sets[0]) > 0 {
		key := planKey{obj, &sets[0][0]}
		if sp, ok := p.memo[key]; ok {
			return sp
		}
		sp := p.collectPlan(obj, sets)
		if p.memo == nil {
			p.memo = make(map[planKey]*selectionPlan)
		}
		p.memo[key] = sp
		return sp
	}
	return p.collectPlan(obj, sets)
}

// collectPlan builds the plan of sets for obj, and its direct form once
// the plans of its fields exist.
func (p *planner) collectPlan(obj *objectType, sets []ast.SelectionSet) *selectionPlan {
	var groups [][]*ast.Field
	index := make(map[string]int)
	visited := make(map[string]bool)
	for _, set := range sets {
		p.collect(obj, set, &groups, index, visited)
	}
	sp := &selectionPlan{fields: make([]*plannedField, 0, len(groups))}
	for _, g := range groups {
		if pf := p.field(obj, g); pf != nil {
			sp.fields = append(sp.fields, pf)
		}
	}
	if p.ex.DirectPlan != nil {
		sp.direct = p.ex.DirectPlan(obj, sp)
	}
	return sp
}

// collect appends the fields of set that apply to obj to groups, grouped by
// response key (CollectFields of the spec).
func (p *planner) collect(obj *objectType, set ast.SelectionSet, groups *[][]*ast.Field, index map[string]int, visited map[string]bool) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if !p.included(s.Directives) {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			if i, ok := index[key]; ok {
				(*groups)[i] = append((*groups)[i], s)
				continue
			}
			index[key] = len(*groups)
			*groups = append(*groups, []*ast.Field{s})
		case *ast.InlineFragment:
			if p.included(s.Directives) && p.applies(obj, s.TypeCondition) {
				p.collect(obj, s.SelectionSet, groups, index, visited)
			}
		case *ast.FragmentSpread:
			if visited[s.Name] || !p.included(s.Directives) {
				continue
			}
			visited[s.Name] = true
			if f := p.doc.Fragments.ForName(s.Name); f != nil && p.applies(obj, f.TypeCondition) {
				p.collect(obj, f.SelectionSet, groups, index, visited)
			}
		}
	}
}

// field plans the merged fields g of obj; nil when the field is unknown
// (validation prevents that).
func (p *planner) field(obj *objectType, g []*ast.Field) *plannedField {
	f := g[0]
	key := f.Alias
	if key == "" {
		key = f.Name
	}
	pf := &plannedField{key: key, keyJSON: strconv.Quote(key) + ":", ast: f}
	if f.Name == "__typename" {
		return pf
	}
	if pf.info = obj.fields[f.Name]; pf.info == nil {
		return nil
	}
	p.planArgs(pf)
	pf.mapLeaf = pf.info.resolver == nil && pf.info.out.leaf()
	named := pf.info.out
	for named.kind == kindList {
		named = named.elem
	}
	switch named.kind {
	case kindObject:
		pf.child = p.plan(named.obj, subSets(g))
	case kindAbstract:
		pf.children = make(map[string]*selectionPlan, len(named.possible))
		for name := range named.possible {
			if obj := p.ex.types[name]; obj != nil {
				pf.children[name] = p.plan(obj, subSets(g))
			}
		}
	}
	return pf
}

// planArgs coerces the arguments of pf now when they use no variables.
func (p *planner) planArgs(pf *plannedField) {
	if hasVariables(pf.ast.Arguments) {
		pf.dynamic = true
		return
	}
	def := pf.info.def
	pf.args, pf.argsErr = p.consts.args(def.Arguments, pf.ast.Arguments)
	if pf.info.loose {
		pf.extra = p.consts.extra(def.Arguments, pf.ast.Arguments)
	}
}

// subSets returns the selection sets of the merged fields g.
func subSets(g []*ast.Field) []ast.SelectionSet {
	sets := make([]ast.SelectionSet, 0, len(g))
	for _, f := range g {
		if len(f.SelectionSet) > 0 {
			sets = append(sets, f.SelectionSet)
		}
	}
	return sets
}

// applies reports whether a fragment with type condition cond applies to obj.
func (p *planner) applies(obj *objectType, cond string) bool {
	if cond == "" || cond == obj.name {
		return true
	}
	def := p.ex.Schema.Types[cond]
	if def == nil || !def.IsAbstractType() {
		return false
	}
	for _, pt := range p.ex.Schema.GetPossibleTypes(def) {
		if pt.Name == obj.name {
			return true
		}
	}
	return false
}

// included evaluates @skip and @include.
func (p *planner) included(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		if hasVariables(d.Arguments) {
			p.varDirs = true
		}
		cond := false
		if d.Definition != nil {
			args, _ := p.coercer.args(d.Definition.Arguments, d.Arguments)
			cond, _ = args["if"].(bool)
		}
		if cond == (d.Name == "skip") {
			return false
		}
	}
	return true
}
