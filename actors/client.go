package actors

import (
	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// The typed client's decoders: each turns the result of a Reply (ask)
// back into what the grain returned (resultOf is the other way).

// wire is the access as a request carries it (pb.Access, field 2).
func (a Access) wire() *pb.Access {
	return &pb.Access{System: a.System, AccountId: a.AccountID, Role: string(a.Role), Plan: string(a.Plan),
		KeyProjectId: a.KeyProjectID, KeyScope: string(a.KeyScope), SessionId: a.SessionID, BoardProjectId: a.BoardProjectID}
}

// accessOf is the access a request carries (none: the zero access).
func accessOf(w *pb.Access) Access {
	return Access{System: w.GetSystem(), AccountID: w.GetAccountId(), Role: model.Role(w.GetRole()), Plan: model.Plan(w.GetPlan()),
		KeyProjectID: w.GetKeyProjectId(), KeyScope: model.Scope(w.GetKeyScope()), SessionID: w.GetSessionId(), BoardProjectID: w.GetBoardProjectId()}
}

// systemAccess is the access of the system itself (every right).
var systemAccess = &pb.Access{System: true}

// ownerOf is the project owner a reply carries.
func ownerOf(r *pb.Reply) ProjectOwner {
	o := r.GetOwner()
	return ProjectOwner{Kind: model.ProjectKind(o.GetKind()), AccountID: o.GetAccountId(), Session: o.GetSession()}
}

// usageOf is the quota usage a reply carries.
func usageOf(r *pb.Reply) quotaUsage {
	u := r.GetUsage()
	return quotaUsage{Requests: u.GetRequests(), Quota: u.GetQuota(), Start: unstamp(u.GetStart()), ResetsAt: unstamp(u.GetResetsAt())}
}

func leaseGrantOf(r *pb.Reply) leaseGrant {
	g := r.GetLeaseGrant()
	return leaseGrant{Units: g.GetUnits(), Start: unstamp(g.GetStart()), End: unstamp(g.GetEnd())}
}

// actorGrantOf is the actor token grant a reply carries.
func actorGrantOf(r *pb.Reply) ActorGrant {
	g := r.GetActorGrant()
	return ActorGrant{ActorToken: g.GetActorToken(), ExpiresInSeconds: int(g.GetExpiresInSeconds()),
		MaxActors: int(g.GetMaxActors()), CurrentActors: int(g.GetCurrentActors())}
}

// claimsOf is the list of a session's project claims a reply carries.
func claimsOf(r *pb.Reply) []SessionClaim {
	var out []SessionClaim
	for _, c := range r.GetClaims().GetClaims() {
		out = append(out, SessionClaim{ProjectID: c.GetProjectId(), Expires: unstamp(c.GetExpires())})
	}
	return out
}

// adoptionOf is the adoption token state a reply carries.
func adoptionOf(r *pb.Reply) AdoptionState {
	a := r.GetAdoption()
	return AdoptionState{ProjectID: a.GetProjectId(), Expires: unstamp(a.GetExpires()), Used: a.GetUsed()}
}

func expiredOf(r *pb.Reply) expired {
	e := r.GetExpired()
	return expired{Deleted: e.GetDeleted(), Slug: e.GetSlug(), Session: e.GetSession()}
}

// leaseRequest is a quota lease's request on the wire.
func leaseRequest(a leaseArgs) *pb.Lease {
	return &pb.Lease{Want: a.Want, Return: a.Return, ReturnStart: stamp(a.ReturnStart)}
}

// editResult decodes the one document an edit answers with (a table, an
// attribute, a relation or an operation: the result's only field is json).
func editResult[T any](r *pb.Reply, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	var b []byte
	switch v := r.Result.(type) {
	case *pb.Reply_Table:
		b = v.Table.GetJson()
	case *pb.Reply_Attribute:
		b = v.Attribute.GetJson()
	case *pb.Reply_Relation:
		b = v.Relation.GetJson()
	case *pb.Reply_Operation:
		b = v.Operation.GetJson()
	}
	return decodeDoc[T](b)
}

// jsonDoc is a document message (pb.TableDoc and the like).
type jsonDoc interface{ GetJson() []byte }

// decodeDocs decodes a list of documents.
func decodeDocs[T any, D jsonDoc](docs []D) ([]*T, error) {
	out := make([]*T, 0, len(docs))
	for _, d := range docs {
		v, err := decodeDoc[T](d.GetJson())
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
