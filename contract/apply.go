package contract

import (
	"time"

	"github.com/mockgql/mockgql/model"
)

// Apply makes p serve the contract doc (SDL or an introspection result, at
// most MaxDocumentBytes): it parses and interprets doc, keeps the settings
// of p's previous contract for the entities that remain (row counts,
// dataset bindings; mappings of root fields that remain), builds the
// tables and relations (Build) and replaces p's model with them: Contract
// set (Version one more than before, ImportedAt now), Tables and
// Relations materialised, Operations and Views cleared, Version
// incremented. On error p is unchanged. It returns the plan that the
// runtime serves.
func Apply(p *model.Project, doc []byte, now time.Time) (*Plan, error) {
	s, err := Parse(doc, MaxDocumentBytes)
	if err != nil {
		return nil, err
	}
	plan := Interpret(s)
	c := &model.Contract{Document: s.SDL, ImportedAt: now.UTC(), Version: 1}
	if old := p.Contract; old != nil {
		c.Version = old.Version + 1
		c.Tables, c.Mappings = keptSettings(plan, old)
		c.Generators = keptGenerators(plan, old.Generators)
		c.Seed = old.Seed
	}
	var kept []model.ContractMapping
	for _, m := range c.Mappings { // those that still fit the new document
		if plan.Override(s, []model.ContractMapping{m}) == nil {
			kept = append(kept, m)
		}
	}
	c.Mappings = kept
	tables, rels, err := Build(p.ID, plan, c)
	if err != nil {
		return nil, err
	}
	p.Contract, p.Tables, p.Relations = c, tables, rels
	p.Operations, p.Views = []*model.Operation{}, []*model.View{}
	p.Version++
	return plan, nil
}

// keptSettings returns the settings of old that still name an entity or a
// root field of plan.
func keptSettings(plan *Plan, old *model.Contract) ([]model.ContractTable, []model.ContractMapping) {
	entities, roots := map[string]bool{}, map[string]bool{}
	for _, e := range plan.Entities {
		entities[e.Type] = true
	}
	for _, list := range [][]*RootField{plan.Queries, plan.Mutations, plan.Subscriptions} {
		for _, r := range list {
			roots[r.Name] = true
		}
	}
	var tables []model.ContractTable
	for _, t := range old.Tables {
		if entities[t.Type] {
			tables = append(tables, t)
		}
	}
	var maps []model.ContractMapping
	for _, m := range old.Mappings {
		if roots[rootName(m.Field)] {
			maps = append(maps, m)
		}
	}
	return tables, maps
}

// rootName is the field part of "Query.books" (or the whole of "books").
func rootName(field string) string {
	for i := len(field) - 1; i >= 0; i-- {
		if field[i] == '.' {
			return field[i+1:]
		}
	}
	return field
}
