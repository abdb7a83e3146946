package actors

import (
	"fmt"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/contract"
	"github.com/mockgql/mockgql/model"
)

// The model edits of SDL-first projects (docs/using/contract.md). They run
// in the project grain like every edit (projectGrain.edit), on a copy of
// the project, so the plan's limits are checked on the result and a
// refusal leaves the project as it was.
//
//	EditImportContract    serve a GraphQL document: the first import, or a
//	                      new version that keeps row counts, dataset
//	                      bindings, table IDs and so the overlay's rows by
//	                      type name (contract.Apply).
//	EditSetContractTable  an entity's row count or dataset binding.
//	EditSetContractMapping how one root field is served.
//	EditSetContractGenerator the generator of one field of an entity
//	                      (project_generator.go).
//
// A contract project serves its document: the edits that would change the
// served schema are refused (contractGuard).

// applyContractEdit runs an EditImportContract or EditSetContractTable on
// p at now; ok is false for any other request.
func applyContractEdit(p *model.Project, req grainRequest, now time.Time) (res result, ok bool, err error) {
	switch e := req.(type) {
	case *pb.EditImportContract:
		return projectReply{p}, true, importContract(p, e, now)
	case *pb.EditSetContractTable:
		return projectReply{p}, true, setContractTable(p, e)
	case *pb.EditSetContractMapping:
		return projectReply{p}, true, setContractMapping(p, e)
	case *pb.EditSetContractGenerator:
		return projectReply{p}, true, setContractGenerator(p, e)
	case *pb.EditSetContractSeed:
		return projectReply{p}, true, setContractSeed(p, e)
	}
	return nil, false, contractGuard(p, req)
}

// importContract makes p serve e.Document, unless another import moved
// the contract past the version the caller read.
func importContract(p *model.Project, e *pb.EditImportContract, now time.Time) error {
	if v := contractVersion(p); int32(v) != e.ExpectVersion {
		return model.Errorf(model.CodeConflict, "the project's schema moved to version %d meanwhile; read it again and retry", v)
	}
	if e.Seed != nil {
		if err := model.CheckContractSeed(*e.Seed); err != nil {
			return err
		}
	}
	if _, err := contract.Apply(p, []byte(e.Document), now); err != nil {
		return err
	}
	if e.Seed != nil {
		p.Contract.Seed = *e.Seed
	}
	return nil
}

// checkEmbeddedFields holds the embedded types of next's contract (object
// types without identity, whose values a row holds) to the attribute limit
// of a table, as their fields are the row's too; it reads the document
// only when the edit changed it.
func checkEmbeddedFields(prev, next *model.Project, maxAttrs int) error {
	if next.Contract == nil || prev.Contract != nil && prev.Contract.Document == next.Contract.Document {
		return nil
	}
	s, err := contract.Parse([]byte(next.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return err
	}
	for _, e := range contract.Interpret(s).Embedded {
		if len(e.Fields) > maxAttrs {
			return model.Errorf(model.CodeLimitReached, "type %s has %d fields; a type whose values a row holds may have %s in a %s project, as a table",
				model.Truncate(e.Type, 64), len(e.Fields), plural(maxAttrs, "field"), strings.ToLower(string(next.Kind)))
		}
	}
	return nil
}

// contractVersion is p's contract version, 0 without one.
func contractVersion(p *model.Project) int {
	if p.Contract == nil {
		return 0
	}
	return p.Contract.Version
}

// setContractTable changes the rows or the dataset of one entity of p's
// contract and rebuilds p's tables from the document with the new
// settings.
func setContractTable(p *model.Project, e *pb.EditSetContractTable) error {
	if p.Contract == nil {
		return model.Errorf(model.CodeBadUserInput, "project %s serves no imported schema; import one with importGraphQLSchema", p.Slug)
	}
	s, err := contract.Parse([]byte(p.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return fmt.Errorf("contract of project %s: %w", p.ID, err)
	}
	plan := contract.Interpret(s)
	c := *p.Contract
	c.Tables = append([]model.ContractTable(nil), c.Tables...)
	ct := c.Table(e.Type)
	if ct == nil {
		c.Tables = append(c.Tables, model.ContractTable{Type: e.Type, Rows: model.DefaultContractRows})
		ct = &c.Tables[len(c.Tables)-1]
	}
	if e.Rows != nil {
		ct.Rows = int(*e.Rows)
	}
	if e.ImportCode != nil {
		ct.ImportCode = *e.ImportCode
	}
	tables, rels, err := contract.Build(p.ID, plan, &c)
	if err != nil {
		return err
	}
	p.Contract, p.Tables, p.Relations = &c, tables, rels
	p.Version++
	return nil
}

// setContractMapping checks a mapping against p's document and replaces
// the mapping of its root field (or removes it, when the mapping changes
// nothing).
func setContractMapping(p *model.Project, e *pb.EditSetContractMapping) error {
	if p.Contract == nil {
		return model.Errorf(model.CodeBadUserInput, "project %s serves no imported schema; import one with importGraphQLSchema", p.Slug)
	}
	m, err := decodeDoc[model.ContractMapping](e.Mapping)
	if err != nil {
		return err
	}
	s, err := contract.Parse([]byte(p.Contract.Document), contract.MaxDocumentBytes)
	if err != nil {
		return fmt.Errorf("contract of project %s: %w", p.ID, err)
	}
	checked, err := contract.CheckMapping(s, *m)
	if err != nil {
		return err
	}
	c := *p.Contract
	c.Mappings = make([]model.ContractMapping, 0, len(p.Contract.Mappings)+1)
	for _, old := range p.Contract.Mappings {
		if old.Field != checked.Field {
			c.Mappings = append(c.Mappings, old)
		}
	}
	if checked.Shape != "" || checked.Entity != "" || len(checked.Args) > 0 || checked.EverySeconds != 0 {
		c.Mappings = append(c.Mappings, checked)
	}
	if err := c.Check(nil); err != nil {
		return err
	}
	p.Contract = &c
	p.Version++
	return nil
}

// contractGuard refuses, in a contract project, the edits that would make
// its model differ from the document it serves: tables, attributes,
// relations, operations, an OpenAPI import. Row counts, dataset bindings,
// faults, views, the baseline and the project's name and origins stay
// editable.
func contractGuard(p *model.Project, req grainRequest) error {
	if p.Contract == nil {
		return nil
	}
	switch req.(type) {
	case *pb.EditCreateTable, *pb.EditUpdateTable, *pb.EditDeleteTable,
		*pb.EditCreateAttribute, *pb.EditUpdateAttribute, *pb.EditDeleteAttribute,
		*pb.EditCreateRelation, *pb.EditDeleteRelation,
		*pb.EditGenerateOperations, *pb.EditCreateOperation, *pb.EditUpdateOperation, *pb.EditDeleteOperation,
		*pb.EditImportTables:
		return errServesContract(p)
	}
	return nil
}

// errServesContract is the refusal of a schema-changing edit in the
// contract project p: CONFLICT, naming what to do instead.
func errServesContract(p *model.Project) error {
	return model.Errorf(model.CodeConflict, "this project serves an imported schema (version %d); its tables, attributes, relations and operations follow that schema: import a new version instead (importGraphQLSchema); row counts and dataset bindings stay editable (setContractRows, bindContractTable)", contractVersion(p))
}

// setContractSeed sets the seed of p's generated rows; the rows are
// generated again (the model's version changes), rows created by
// mutations stay.
func setContractSeed(p *model.Project, e *pb.EditSetContractSeed) error {
	if p.Contract == nil {
		return model.Errorf(model.CodeBadUserInput, "project %s serves no imported schema; import one with importGraphQLSchema", p.Slug)
	}
	if err := model.CheckContractSeed(e.Seed); err != nil {
		return err
	}
	c := *p.Contract
	c.Seed = e.Seed
	p.Contract = &c
	p.Version++
	return nil
}
