package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The typed client methods of SDL-first projects (docs/using/contract.md):
// the use cases call these rather than build grain messages, so the
// messages stay the project grain's business.

// ImportContract asks the project to serve document
// (GraphQL SDL the caller parsed and checked): the first import, or a new
// version when the project's contract is at expectVersion (0: it has
// none). Another import that came first is CONFLICT; a refused import
// changes nothing. It returns the project as imported. seed, when not
// nil, sets the seed of its generated rows (model.Contract.Seed).
func (p ProjectClient) ImportContract(ctx context.Context, document string, expectVersion int, seed *string) (*model.Project, error) {
	return p.project(ctx, &pb.EditImportContract{Document: document, ExpectVersion: int32(expectVersion), Seed: seed})
}

// SetContractSeed sets the seed of the project's generated rows ("" the
// project's ID) and returns the project.
func (p ProjectClient) SetContractSeed(ctx context.Context, seed string) (*model.Project, error) {
	return p.project(ctx, &pb.EditSetContractSeed{Seed: seed})
}

// SetContractRows sets how many rows the project generates for the entity
// typ (bounds: model.Contract.Check) and returns the project.
func (p ProjectClient) SetContractRows(ctx context.Context, typ string, rows int) (*model.Project, error) {
	n := int32(min(max(rows, -1), model.MaxContractTableRows+1)) // out-of-range values stay out of range on the wire
	return p.project(ctx, &pb.EditSetContractTable{Type: typ, Rows: &n})
}

// BindContractTable binds the entity typ to the pool dataset importCode
// ("" back to generated rows) and returns the project. The caller checks
// that the dataset is one the project may read.
func (p ProjectClient) BindContractTable(ctx context.Context, typ, importCode string) (*model.Project, error) {
	return p.project(ctx, &pb.EditSetContractTable{Type: typ, ImportCode: &importCode})
}

// SetContractMapping replaces how the root field m.Field of the project is
// served (a mapping that changes nothing removes the field's) and returns
// the project; one that does not fit the document is BAD_USER_INPUT.
func (p ProjectClient) SetContractMapping(ctx context.Context, m model.ContractMapping) (*model.Project, error) {
	return p.project(ctx, &pb.EditSetContractMapping{Mapping: encodeDoc(m)})
}

// SetContractGenerator chooses the generator of the field typ.field of the
// project's contract (nil: back to the document's @fake or the values by
// meaning) and returns the project; a field generated rows do not fill
// with a generator, or an unknown kind or bad options, is BAD_USER_INPUT.
func (p ProjectClient) SetContractGenerator(ctx context.Context, typ, field string, g *model.Generator) (*model.Project, error) {
	var doc []byte
	if g != nil {
		doc = encodeDoc(g)
	}
	return p.project(ctx, &pb.EditSetContractGenerator{Type: typ, Field: field, Generator: doc})
}
