package graphql

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/graphql/internal/answer"
	"github.com/mockgql/mockgql/model"
)

// This file serves AGGREGATE operations: count, and sum, avg, min and max
// of each numeric (Int or Float) attribute over the rows that match where,
// overall and per groupBy key. Only stored numbers count towards the
// statistics (other values are of another type, as in a filter); a
// statistic without numbers is null. Groups come in order of their first
// row in storage order (created rows last); at most maxGroups of them.

// selectedStats returns the statistics selected anywhere below f (the
// aggregate's and its groups'), fragments included; all of them when f
// has no syntax tree.
func selectedStats(f *ast.Field) engine.StatSet {
	if f == nil {
		return engine.AllStats()
	}
	var want engine.StatSet
	var walk func(set ast.SelectionSet, depth int)
	walk = func(set ast.SelectionSet, depth int) {
		for _, sel := range set {
			switch x := sel.(type) {
			case *ast.Field:
				for i, n := range engine.StatNames() {
					want[i] = want[i] || x.Name == n
				}
				walk(x.SelectionSet, depth+1)
			case *ast.InlineFragment:
				walk(x.SelectionSet, depth+1)
			case *ast.FragmentSpread:
				if x.Definition == nil || depth > 8 {
					want = engine.AllStats()
					return
				}
				walk(x.Definition.SelectionSet, depth+1)
			}
		}
	}
	walk(f.SelectionSet, 0)
	return want
}

// aggregateResolver serves an AGGREGATE operation.
func (rt *Runtime) aggregateResolver(o *operation) exec.Resolver {
	return func(ctx context.Context, f *exec.Field) (any, error) {
		nums := numericAttrs(o.t)
		tv := answer.RootView(f).TableView(o.t)
		if tv.NotReady != nil {
			f.Report(tv.NotReady)
			return engine.EmptyAggregate(nums), nil
		}
		pq, err := o.powerQuery(map[string]any{"where": f.Args["where"]})
		if err != nil {
			return nil, err
		}
		by := groupKeys(o.t, f.Args["groupBy"])
		if len(by) > engine.MaxGroupBy {
			return nil, model.Errorf(model.CodeBadUserInput, "groupBy takes at most %d attributes", engine.MaxGroupBy)
		}
		want := selectedStats(f.AST)
		if v, ok, err := engine.IndexedAggregate(ctx, tv, pq, nums, by, want); ok || err != nil {
			return v, err
		}
		rows, err := pq.All(ctx, tv)
		if err != nil {
			return nil, err
		}
		return engine.Aggregate(ctx, tv, rows, nums, by, want)
	}
}

func groupKeys(t *engine.Table, raw any) []*engine.Attr {
	list, _ := raw.([]any)
	var out []*engine.Attr
	for _, x := range list {
		name, _ := x.(string)
		if a := t.Field(name); a != nil {
			out = append(out, a)
		}
	}
	return out
}
