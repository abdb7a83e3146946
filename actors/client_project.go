package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// ProjectClient is the typed client of one project grain: each method is
// one request, built from domain values, and answers with domain values
// (a *model.Project, a *model.Table, …) or an error. The requests that
// check their caller's rights carry the access the client was made with
// (Client.Project); the others (Create, EvictKey) carry none. A value:
// cheap to make per call, safe for concurrent use.
type ProjectClient struct {
	c  *Client
	id string
	a  *pb.Access
}

// Project is the client of the project grain id acting with access a
// (Access{System: true}: the node itself, every right).
func (s *Client) Project(id string, a Access) ProjectClient {
	return ProjectClient{c: s, id: id, a: a.wire()}
}

// ask sends req, which carries its caller's access (field 2), to the grain.
func (p ProjectClient) ask(ctx context.Context, req grainRequest) (*pb.Reply, error) {
	if err := setAccess(req, p.a); err != nil {
		return nil, err
	}
	return p.c.ask(ctx, kindProject, p.id, req)
}

// tell is ask for a request whose result the caller does not need.
func (p ProjectClient) tell(ctx context.Context, req grainRequest) error {
	_, err := p.ask(ctx, req)
	return err
}

// project is ask for a request whose answer is the project.
func (p ProjectClient) project(ctx context.Context, req grainRequest) (*model.Project, error) {
	r, err := p.ask(ctx, req)
	if err != nil {
		return nil, err
	}
	return decodeDoc[model.Project](r.GetProject().GetJson())
}

// Create stores pr as a new project; session is the hash of the session
// that owns a guest or session project ("" for an account's).
func (p ProjectClient) Create(ctx context.Context, pr *model.Project, session string) error {
	return p.c.tell(ctx, kindProject, p.id, &pb.ProjectCreate{Project: &pb.ProjectDoc{Json: encodeDoc(pr)}, Session: session})
}

// Get returns the project. A large one may be shared with other readers
// (the client keeps large projects decoded): do not change it.
func (p ProjectClient) Get(ctx context.Context) (*model.Project, error) {
	r, err := p.ask(ctx, &pb.ProjectGet{})
	if err != nil {
		return nil, err
	}
	return p.c.docs.decode(p.id, r.GetProject().GetJson())
}

// Owner returns who pays for the project's runtime calls.
func (p ProjectClient) Owner(ctx context.Context) (ProjectOwner, error) {
	r, err := p.ask(ctx, &pb.ProjectOwnerQuery{})
	if err != nil {
		return ProjectOwner{}, err
	}
	return ownerOf(r), nil
}

// SDL returns the project's runtime schema as GraphQL SDL.
func (p ProjectClient) SDL(ctx context.Context) (string, error) {
	r, err := p.ask(ctx, &pb.ProjectSDL{})
	return r.GetSdl(), err
}

// Delete deletes the project.
func (p ProjectClient) Delete(ctx context.Context) error { return p.tell(ctx, &pb.ProjectDelete{}) }

// Keep restarts a guest project's time to live.
func (p ProjectClient) Keep(ctx context.Context) error { return p.tell(ctx, &pb.ProjectKeep{}) }

// Reset drops the project's mock rows, so they are generated afresh.
func (p ProjectClient) Reset(ctx context.Context) error { return p.tell(ctx, &pb.ProjectReset{}) }

// Transfer moves the project into the account accountID.
func (p ProjectClient) Transfer(ctx context.Context, accountID string) error {
	return p.tell(ctx, &pb.ProjectTransfer{AccountId: accountID})
}

// AddAdoption records the hash of an adoption token of the project.
func (p ProjectClient) AddAdoption(ctx context.Context, hash string) error {
	return p.tell(ctx, &pb.ProjectAddAdoption{Adoption: hash})
}

// EvictKey drops a key (by its hash) from the project's key cache.
func (p ProjectClient) EvictKey(ctx context.Context, keyHash string) error {
	return p.c.tell(ctx, kindProject, p.id, &pb.ProjectEvictKey{KeyHash: keyHash})
}

// RequestLog returns up to limit entries of the project's runtime request
// log, newest first.
func (p ProjectClient) RequestLog(ctx context.Context, limit int) ([]model.RequestLogEntry, error) {
	r, err := p.ask(ctx, &pb.ProjectRequestLog{Limit: int32(limit)})
	if err != nil {
		return nil, err
	}
	return requestLogOf(r), nil
}

// ClearRequestLog empties the project's request log.
func (p ProjectClient) ClearRequestLog(ctx context.Context) error {
	return p.tell(ctx, &pb.ProjectClearRequestLog{})
}

// Rename sets the project's name and slug (nil: unchanged); the edit is
// refused unless the project's slug is still expectSlug.
func (p ProjectClient) Rename(ctx context.Context, name, slug *string, expectSlug string) (*model.Project, error) {
	return p.project(ctx, &pb.EditUpdateProject{Name: name, Slug: slug, ExpectSlug: &expectSlug})
}

// SetOrigins sets the origins the project's runtime answers in CORS.
func (p ProjectClient) SetOrigins(ctx context.Context, origins []string) (*model.Project, error) {
	return p.project(ctx, &pb.EditUpdateProject{Origins: &pb.Origins{Origins: origins}})
}

// SetFaults sets the fault settings of the project (operationID "") or
// of one operation; nil clears them.
func (p ProjectClient) SetFaults(ctx context.Context, operationID string, f *model.FaultSettings) (*model.Project, error) {
	return p.project(ctx, &pb.EditSetFaults{OperationId: operationID, Faults: wireFaults(f)})
}

// SetShareToken sets the project's share token ("": sharing off).
func (p ProjectClient) SetShareToken(ctx context.Context, token string) (*model.Project, error) {
	return p.project(ctx, &pb.EditSetPreviewSharing{ShareToken: token})
}

// SetBaseline records the project's schema as the baseline of its changes.
func (p ProjectClient) SetBaseline(ctx context.Context) error {
	return p.tell(ctx, &pb.EditSetBaseline{})
}
