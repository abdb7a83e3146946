package actors

import (
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// The typed client's decoders: each turns the result of a Reply (ask)
// back into what the grain returned (resultOf is the other way).

// wire is access on the wire.
func (a access) wire() *pb.Access {
	return &pb.Access{System: a.System, AccountId: a.AccountID, Role: string(a.Role), Plan: string(a.Plan),
		KeyProjectId: a.KeyProjectID, KeyScope: string(a.KeyScope), SessionId: a.SessionID, BoardProjectId: a.BoardProjectID}
}

// accessOf is the access a request carries (none: the zero access).
func accessOf(w *pb.Access) access {
	return access{System: w.GetSystem(), AccountID: w.GetAccountId(), Role: model.Role(w.GetRole()), Plan: model.Plan(w.GetPlan()),
		KeyProjectID: w.GetKeyProjectId(), KeyScope: model.Scope(w.GetKeyScope()), SessionID: w.GetSessionId(), BoardProjectID: w.GetBoardProjectId()}
}

var systemAccess = &pb.Access{System: true}

func ownerOf(r *pb.Reply) projectOwner {
	o := r.GetOwner()
	return projectOwner{Kind: model.ProjectKind(o.GetKind()), AccountID: o.GetAccountId(), Session: o.GetSession()}
}

func usageOf(r *pb.Reply) usage {
	u := r.GetUsage()
	return usage{Requests: u.GetRequests(), Quota: u.GetQuota(), Start: unstamp(u.GetStart()), ResetsAt: unstamp(u.GetResetsAt())}
}

func leaseGrantOf(r *pb.Reply) leaseGrant {
	g := r.GetLeaseGrant()
	return leaseGrant{Units: g.GetUnits(), Start: unstamp(g.GetStart()), End: unstamp(g.GetEnd())}
}

func actorGrantOf(r *pb.Reply) actorGrant {
	g := r.GetActorGrant()
	return actorGrant{ActorToken: g.GetActorToken(), ExpiresInSeconds: int(g.GetExpiresInSeconds()),
		MaxActors: int(g.GetMaxActors()), CurrentActors: int(g.GetCurrentActors())}
}

func claimsOf(r *pb.Reply) []sessionClaim {
	var out []sessionClaim
	for _, c := range r.GetClaims().GetClaims() {
		out = append(out, sessionClaim{ProjectID: c.GetProjectId(), Expires: unstamp(c.GetExpires())})
	}
	return out
}

func adoptionOf(r *pb.Reply) adoptionState {
	a := r.GetAdoption()
	return adoptionState{ProjectID: a.GetProjectId(), Expires: unstamp(a.GetExpires()), Used: a.GetUsed()}
}

func expiredOf(r *pb.Reply) expired {
	e := r.GetExpired()
	return expired{Deleted: e.GetDeleted(), Slug: e.GetSlug(), Session: e.GetSession()}
}

// leaseRequest is a quota lease's request on the wire.
func leaseRequest(a leaseArgs) *pb.Lease {
	return &pb.Lease{Want: a.Want, Return: a.Return, ReturnStart: stamp(a.ReturnStart)}
}
