package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// The typed client methods of SDL-first projects (docs/using/contract.md):
// the use cases call these rather than build grain messages, so the
// messages stay the project grain's business.

// ImportContract asks project projectID, on behalf of a, to serve document
// (GraphQL SDL the caller parsed and checked): the first import, or a new
// version when the project's contract is at expectVersion (0: it has
// none). Another import that came first is CONFLICT; a refused import
// changes nothing. It returns the project as imported.
func (s *Client) ImportContract(ctx context.Context, projectID string, a Access, document string, expectVersion int) (*model.Project, error) {
	return s.contractEdit(ctx, projectID, a, &pb.EditImportContract{Document: document, ExpectVersion: int32(expectVersion)})
}

// SetContractRows sets how many rows the project generates for the entity
// typ (bounds: model.Contract.Check) and returns the project.
func (s *Client) SetContractRows(ctx context.Context, projectID string, a Access, typ string, rows int) (*model.Project, error) {
	n := int32(min(max(rows, -1), model.MaxContractTableRows+1)) // out-of-range values stay out of range on the wire
	return s.contractEdit(ctx, projectID, a, &pb.EditSetContractTable{Type: typ, Rows: &n})
}

// BindContractTable binds the entity typ to the pool dataset importCode
// ("" back to generated rows) and returns the project. The caller checks
// that the dataset is one the project may read.
func (s *Client) BindContractTable(ctx context.Context, projectID string, a Access, typ, importCode string) (*model.Project, error) {
	return s.contractEdit(ctx, projectID, a, &pb.EditSetContractTable{Type: typ, ImportCode: &importCode})
}

// SetContractMapping replaces how the root field m.Field of the project is
// served (a mapping that changes nothing removes the field's) and returns
// the project; one that does not fit the document is BAD_USER_INPUT.
func (s *Client) SetContractMapping(ctx context.Context, projectID string, a Access, m model.ContractMapping) (*model.Project, error) {
	return s.contractEdit(ctx, projectID, a, &pb.EditSetContractMapping{Mapping: EncodeDoc(m)})
}

// contractEdit sends one contract edit and decodes the project it answers.
func (s *Client) contractEdit(ctx context.Context, projectID string, a Access, req Request) (*model.Project, error) {
	r, err := s.AskProjectAs(ctx, projectID, a, req)
	if err != nil {
		return nil, err
	}
	return DecodeDoc[model.Project](r.GetProject().GetJson())
}
