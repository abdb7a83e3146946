package actors

import (
	"fmt"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// setContractGenerator replaces the editor's generator of one field of p's
// contract (or removes it, for an empty generator) and rebuilds p's tables,
// whose attributes show it; the runtime recompiles for the new model
// version, and the rows mutations wrote keep their values (the overlay
// holds them by table ID, which stays). The kind and options are checked
// as a GENERATED attribute's (graphql.CheckGenerator); their size is held
// to the model's value bound by the edit's checkValues.
func setContractGenerator(p *model.Project, e *pb.EditSetContractGenerator) error {
	if p.Contract == nil {
		return model.Errorf(model.CodeBadUserInput, "project %s serves no imported schema; import one with importGraphQLSchema", p.Slug)
	}
	var g *model.Generator
	if len(e.Generator) > 0 {
		var err error
		if g, err = decodeDoc[model.Generator](e.Generator); err != nil {
			return err
		}
		if err := graphql.CheckGenerator(g); err != nil {
			return err
		}
	}
	s, err := contract.Parse([]byte(p.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return fmt.Errorf("contract of project %s: %w", p.ID, err)
	}
	plan := contract.Interpret(s)
	if err := plan.CheckGeneratorField(e.Type, e.Field); err != nil {
		return err
	}
	c := *p.Contract
	c.Generators = make([]model.ContractGenerator, 0, len(p.Contract.Generators)+1)
	for _, old := range p.Contract.Generators {
		if old.Type != e.Type || old.Field != e.Field {
			c.Generators = append(c.Generators, old)
		}
	}
	if g != nil {
		c.Generators = append(c.Generators, model.ContractGenerator{Type: e.Type, Field: e.Field, Kind: g.Kind, Options: g.Options})
	}
	tables, rels, err := contract.Build(p.ID, plan, &c)
	if err != nil {
		return err
	}
	p.Contract, p.Tables, p.Relations = &c, tables, rels
	p.Version++
	return nil
}
