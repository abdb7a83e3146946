package actors

import (
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// quotaError is the 429 of a used-up quota.
func quotaError(retry int) error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
		Message: "the request quota is used up until it resets; see account { usage } or upgrade the plan"}
}

// accountGrain is a workspace: plan, members, projects and the index of its
// API keys (key ID to key hash, the key grain's identity).
type accountGrain struct {
	state AccountState
	found bool
	quota *meter // the plan's request quota; published on this node
}

// AccountState is an account grain's checkpoint: the account, its key
// index and its quota meter.
type AccountState struct {
	Account model.Account     `json:"account"`
	Keys    map[string]KeyRef `json:"keys"`
	Usage   meterState        `json:"usage"`
	// Holds is the room uploads hold in the plan's datasets, by hold ID
	// (account_limits.go).
	Holds map[string]DatasetHold `json:"holds,omitempty"`
	// Invitations are the pending ones (account_team.go); InviteWindow
	// counts the invitations sent in the current hour.
	Invitations  []model.Invitation `json:"invitations,omitempty"`
	InviteWindow inviteWindow       `json:"inviteWindow,omitzero"`
}

// quotaPeriod is the plan's quota window: a UTC day on STARTER, a UTC
// calendar month on paid plans.
func quotaPeriod(p model.Plan) period {
	if p == model.PlanStarter {
		return perDay
	}
	return perMonth
}

// quotaUsage is what the account's plan quota shows.
type quotaUsage struct {
	Requests, Quota int64
	Start, ResetsAt time.Time
}

// KeyRef is an entry of an account's key index: the key's hash and project.
type KeyRef struct {
	Hash      string `json:"hash"`
	ProjectID string `json:"projectId"`
	// CreatedBy is the user ID of the member who made the key (empty for
	// keys made before it was kept).
	CreatedBy string `json:"createdBy,omitempty"`
}

// accountArgs are the arguments of a membership change.
type accountArgs struct {
	Caller string // user ID of who asks
	User   *model.User
	UserID string
	Role   model.Role
}

func (a *accountGrain) load(g *grain) (err error) {
	a.found, err = g.loadJSON(&a.state)
	if err == nil && a.found {
		a.startQuota(g)
	}
	return err
}

func (a *accountGrain) startQuota(g *grain) {
	plan := a.state.Account.Plan
	a.quota = newMeter(quotaPeriod(plan), g.env.Config.Limits.Quota(plan), a.state.Usage)
	g.env.Local.publishMeter(kindAccount, g.id, a.quota)
}

// flush checkpoints the request count, at most once a second: a crash
// loses at most that second's count.
func (a *accountGrain) flush(g *grain) {
	if a.quota == nil {
		return
	}
	if st, dirty := a.quota.checkpoint(); dirty {
		next := a.state
		next.Usage = st
		if err := g.saveJSON(next); err != nil {
			g.env.Log.Warn("account checkpoint failed", "err", err)
			return
		}
		a.state.Usage = st
	}
}

func (a *accountGrain) stopped(g *grain) {
	a.flush(g)
	g.env.Local.withdrawMeter(kindAccount, g.id, a.quota)
}

// handle is the type list of what an account grain can be asked.
func (a *accountGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.AccountCreate:
		return a.create(g, m)
	case *pb.AccountGet, *pb.Consume, *pb.Lease, *pb.UsageQuery, *pb.AccountSetPlan, *pb.AccountAddMember,
		*pb.AccountSetRole, *pb.AccountRemoveMember, *pb.AccountAddProject, *pb.AccountRemoveProject,
		*pb.AccountAddKey, *pb.AccountRemoveKey, *pb.AccountCheckSession, *pb.AccountRevokeSessions,
		*pb.AccountInvite, *pb.AccountInviteLink, *pb.AccountRevokeInvite, *pb.AccountAnswerInvite:
		if !a.found {
			return nil, model.Errorf(model.CodeNotFound, "account %s not found", g.id)
		}
		return a.run(g, c)
	case *pb.AccountReserveDataset, *pb.AccountSettleDataset, *pb.AccountReleaseDataset, *pb.AccountClaimProject, *pb.AccountClaimKey:
		if !a.found {
			return nil, model.Errorf(model.CodeNotFound, "account %s not found", g.id)
		}
		return a.runLimits(g, c)
	}
	return nil, unknownRequest(g, c)
}

// run answers a request of handle's second case.
func (a *accountGrain) run(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.AccountGet:
		return a.state, nil
	case *pb.Consume:
		if ok, retry := a.quota.take(g.env.Clock.Now()); !ok {
			return nil, quotaError(retry)
		}
		return nil, nil
	case *pb.Lease:
		return serveLease(a.quota, m, g.env.Clock.Now(), quotaError)
	case *pb.UsageQuery:
		n, q, start, end := a.quota.usage(g.env.Clock.Now())
		return quotaUsage{Requests: n, Quota: q, Start: start, ResetsAt: end}, nil
	case *pb.AccountSetPlan:
		plan := model.Plan(m.Plan)
		return a.update(g, m.Caller, model.RoleOwner, func(s *AccountState) error {
			if !plan.Valid() {
				return model.Errorf(model.CodeBadUserInput, "unknown plan %q", plan)
			}
			s.Account.Plan = plan
			a.quota.setLimit(quotaPeriod(plan), g.env.Config.Limits.Quota(plan), g.env.Clock.Now())
			return nil
		})
	case *pb.AccountAddMember:
		u, err := decodeOptional[model.User](m.User.GetJson())
		if err != nil {
			return nil, err
		}
		args := accountArgs{Caller: m.Caller, User: u, Role: model.Role(m.Role)}
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error { return addMember(s, args) })
	case *pb.AccountSetRole:
		args := accountArgs{Caller: m.Caller, UserID: m.UserId, Role: model.Role(m.Role)}
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error { return setRole(s, args) })
	case *pb.AccountRemoveMember:
		args := accountArgs{Caller: m.Caller, UserID: m.UserId}
		return a.update(g, m.Caller, model.RoleAdmin, func(s *AccountState) error { return setRole(s, args) })
	case *pb.AccountAddProject:
		return a.setProject(g, m.ProjectId, true)
	case *pb.AccountRemoveProject:
		return a.setProject(g, m.ProjectId, false)
	case *pb.AccountAddKey:
		return a.setKey(g, m.KeyId, &KeyRef{Hash: m.KeyHash, ProjectID: m.ProjectId})
	case *pb.AccountRemoveKey:
		return a.setKey(g, m.KeyId, nil)
	}
	return a.team(g, c)
}

// setProject adds a project to the account, or removes it.
func (a *accountGrain) setProject(g *grain, projectID string, add bool) (result, error) {
	return a.update(g, "", "", func(s *AccountState) error {
		s.Account.ProjectIDs = removeString(s.Account.ProjectIDs, projectID)
		if add {
			s.Account.ProjectIDs = append(s.Account.ProjectIDs, projectID)
		}
		return nil
	})
}

// setKey indexes a key of the account (ref), or drops it (nil).
func (a *accountGrain) setKey(g *grain, keyID string, ref *KeyRef) (result, error) {
	return a.update(g, "", "", func(s *AccountState) error {
		delete(s.Keys, keyID)
		if ref != nil {
			s.Keys[keyID] = *ref
		}
		return nil
	})
}

func (a *accountGrain) create(g *grain, m *pb.AccountCreate) (result, error) {
	if a.found {
		return a.state, nil // a retried create
	}
	if len(m.Account.GetJson()) == 0 {
		return nil, model.Errorf(model.CodeBadUserInput, "account missing")
	}
	acc, err := decodeDoc[model.Account](m.Account.GetJson())
	if err != nil {
		return nil, err
	}
	next := AccountState{Account: *acc, Keys: map[string]KeyRef{}}
	if err := commit(g, next, func(v AccountState) { a.state, a.found = v, true }); err != nil {
		return nil, err
	}
	a.startQuota(g)
	return a.state, nil
}

// update checks that caller (if given) has at least role min, applies edit
// to a copy, checkpoints it and only then makes it the state.
func (a *accountGrain) update(g *grain, caller string, min model.Role, edit func(*AccountState) error) (result, error) {
	if caller != "" {
		m := a.state.Account.Member(caller)
		if m == nil || !m.Role.AtLeast(min) {
			return nil, model.Errorf(model.CodeForbidden, "this needs role %s or higher in the account", min)
		}
	}
	next := clone(a.state)
	if next.Keys == nil {
		next.Keys = map[string]KeyRef{}
	}
	if err := edit(&next); err != nil {
		return nil, err
	}
	next.Usage, _ = a.quota.checkpoint()
	if err := commit(g, next, func(v AccountState) { a.state = v }); err != nil {
		return nil, err
	}
	return a.state, nil
}

func addMember(s *AccountState, args accountArgs) error {
	if args.User == nil || !args.Role.AtLeast(model.RoleViewer) {
		return model.Errorf(model.CodeBadUserInput, "a member needs a user and a role")
	}
	if err := ownerOnly(s, args.Caller, args.Role, ""); err != nil {
		return err
	}
	if m := s.Account.Member(args.User.ID); m != nil {
		return model.Errorf(model.CodeConflict, "%s is a member already (role %s); use setMemberRole", m.User.Email, m.Role)
	}
	s.Account.Members = append(s.Account.Members, model.Member{User: *args.User, Role: args.Role})
	return nil
}

// setRole changes a member's role; an empty role removes the member. The
// last owner can be neither demoted nor removed.
func setRole(s *AccountState, args accountArgs) error {
	m := s.Account.Member(args.UserID)
	if m == nil {
		return model.Errorf(model.CodeNotFound, "user %s is not a member", args.UserID)
	}
	if args.Role != "" && !args.Role.AtLeast(model.RoleViewer) {
		return model.Errorf(model.CodeBadUserInput, "unknown role %q", args.Role)
	}
	if err := ownerOnly(s, args.Caller, args.Role, m.Role); err != nil {
		return err
	}
	if m.Role == model.RoleOwner && args.Role != model.RoleOwner && owners(&s.Account) == 1 {
		return model.Errorf(model.CodeConflict, "the account's last owner cannot be demoted or removed")
	}
	if args.Role == "" {
		bumpTokenVersion(s, args.UserID) // a removed member's tokens stop at once, and stay stopped
		revokeMadeBy(s, args.UserID)     // and so do the invitations and links they made
		out := s.Account.Members[:0:0]
		for _, x := range s.Account.Members {
			if x.User.ID != args.UserID {
				out = append(out, x)
			}
		}
		s.Account.Members = out
		return nil
	}
	m.Role = args.Role
	return nil
}

// ownerOnly: giving the OWNER role, or changing or removing an owner, is
// for owners; an admin can do the rest.
func ownerOnly(s *AccountState, caller string, role, current model.Role) error {
	if role != model.RoleOwner && current != model.RoleOwner {
		return nil
	}
	if m := s.Account.Member(caller); caller == "" || m != nil && m.Role == model.RoleOwner {
		return nil
	}
	return model.Errorf(model.CodeForbidden, "only an owner can make or change owners")
}

func owners(a *model.Account) int {
	n := 0
	for _, m := range a.Members {
		if m.Role == model.RoleOwner {
			n++
		}
	}
	return n
}
