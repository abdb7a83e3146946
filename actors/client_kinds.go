package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// The typed client's methods per grain kind beside the per-grain clients
// (ProjectClient, AccountClient, …): each names its kind, so no caller
// spells a kind or sends a request to a grain of another kind by mistake.
// The unexported ask… and tell… helpers send a request built here and
// decode the record a kind answers with. What each kind can be asked is
// the type switch of its behavior's handle.

// askProjectAs sends req, a project request that carries its caller's
// access (field 2, pb.Access), to the project grain id on behalf of a; the
// grain checks a's rights. A request that carries no access is refused
// before it is sent.
func (s *Client) askProjectAs(ctx context.Context, id string, a Access, req grainRequest) (*pb.Reply, error) {
	if err := setAccess(req, a.wire()); err != nil {
		return nil, err
	}
	return s.ask(ctx, kindProject, id, req)
}

// askAccount sends req to an account grain and decodes its record.
func (s *Client) askAccount(ctx context.Context, id string, req grainRequest) (*AccountState, error) {
	r, err := s.ask(ctx, kindAccount, id, req)
	if err != nil {
		return nil, err
	}
	return decodeDoc[AccountState](r.GetAccount().GetJson())
}

// askKey sends req to a key grain and decodes the key's record.
func (s *Client) askKey(ctx context.Context, hash string, req grainRequest) (model.APIKey, error) {
	r, err := s.ask(ctx, kindAPIKey, hash, req)
	if err != nil {
		return model.APIKey{}, err
	}
	k, err := decodeDoc[model.APIKey](r.GetApiKey().GetJson())
	if err != nil {
		return model.APIKey{}, err
	}
	return *k, nil
}

// tellAccount sends req to the account grain id; the result is not needed.
func (s *Client) tellAccount(ctx context.Context, id string, req grainRequest) error {
	return s.tell(ctx, kindAccount, id, req)
}

// AccountUsage reports the account's requests in its current quota
// period: from the meter its grain publishes on this node, or by a call.
// The period is the day (STARTER) or the month (paid plans) it counts.
func (s *Client) AccountUsage(ctx context.Context, a *model.Account) (model.Usage, error) {
	var u quotaUsage
	if lu, ok := s.env.Local.meterUsage(kindAccount, a.ID, s.env.Clock.Now()); ok {
		u = lu
	} else if r, err := s.ask(ctx, kindAccount, a.ID, &pb.UsageQuery{}); err == nil {
		u = usageOf(r)
	} else {
		return model.Usage{}, err
	}
	out := model.Usage{Requests: u.Requests, Quota: u.Quota, ResetsAt: u.ResetsAt, Period: u.Start.Format("2006-01-02")}
	if quotaPeriod(a.Plan) == perMonth {
		out.Period = u.Start.Format("2006-01")
	}
	return out, nil
}

// AcquireActor takes a slot of the key's maxActors (its grain is the hash's)
// and returns the actor token that holds it until it is idle for ActorIdle.
func (s *Client) AcquireActor(ctx context.Context, keyHash string) (ActorGrant, error) {
	r, err := s.ask(ctx, kindAPIKey, keyHash, &pb.KeyAcquire{})
	if err != nil {
		return ActorGrant{}, err
	}
	return actorGrantOf(r), nil
}

// ReleaseActor frees the slot an actor token of key k holds (k.Hash names
// its grain). A token of another key, or one released or expired already,
// is ACTOR_TOKEN_INVALID.
func (s *Client) ReleaseActor(ctx context.Context, k model.APIKey, token string) error {
	hash, err := checkActorToken(token, k.ID)
	if err != nil {
		return err
	}
	r, err := s.ask(ctx, kindAPIKey, k.Hash, &pb.KeyRelease{TokenHash: hash})
	if err != nil {
		return err
	}
	if !r.GetDone() {
		return model.Errorf(model.CodeActorTokenInvalid, "unknown actor token: it was released already, or it expired")
	}
	return nil
}

// askSession sends req to the session grain of a session's hash and
// returns the project claims it answers with (none: nil).
func (s *Client) askSession(ctx context.Context, hash string, req grainRequest) ([]SessionClaim, error) {
	r, err := s.ask(ctx, kindSession, hash, req)
	if err != nil {
		return nil, err
	}
	return claimsOf(r), nil
}

// askAdoption sends req to the grain of an adoption token's hash and
// returns the token's state.
func (s *Client) askAdoption(ctx context.Context, hash string, req grainRequest) (AdoptionState, error) {
	r, err := s.ask(ctx, kindAdoption, hash, req)
	if err != nil {
		return AdoptionState{}, err
	}
	return adoptionOf(r), nil
}

// AdmitLogin admits a login attempt for the normalised e-mail e, or
// refuses it (429 TOO_MANY_REQUESTS with Retry-After) while the address
// must wait: after Config.LoginAttempts consecutive failures, whatever the
// password and wherever the attempts come from, one minute, doubled by
// each further failure up to an hour. The caller must call done with the
// password check's error: UNAUTHENTICATED counts a failure, nil resets
// the count, anything else counts for nothing.
func (s *Client) AdmitLogin(ctx context.Context, e string) (done func(error), err error) {
	if s.env.Config.LoginAttempts <= 0 {
		return func(error) {}, nil
	}
	id := ids.HashSecret(e)
	if err := s.tell(ctx, kindLogin, id, &pb.LoginAdmit{}); err != nil {
		return nil, err
	}
	return func(checked error) {
		r := &pb.LoginReport{Failed: model.ErrorCode(checked) == model.CodeUnauthenticated, Succeeded: checked == nil}
		if err := s.tell(context.WithoutCancel(ctx), kindLogin, id, r); err != nil {
			s.env.Log.Warn("login back-off report failed", "err", err)
		}
	}, nil
}

// CheckIP counts one runtime request against its client IP's one-minute
// window (Config.IPLimit; 0 counts nothing).
func (s *Client) CheckIP(ctx context.Context, ip string) error {
	if s.env.Config.IPLimit <= 0 {
		return nil
	}
	return s.consume(ctx, kindIP, ip)
}

// CheckWindow counts a request of client ip against the named per-IP
// window ("management", "public" or "create"): 429 TOO_MANY_REQUESTS with
// Retry-After once it is full. A window set to 0, an unknown window name
// or an unknown IP ("") is not counted.
func (s *Client) CheckWindow(ctx context.Context, window, ip string) error {
	kind := s.windowKind(window)
	if kind == "" || ip == "" {
		return nil
	}
	return s.consume(ctx, kind, ip)
}

// windowKind maps a window name to its grain kind; "" for an unknown name
// or a window turned off.
func (s *Client) windowKind(window string) string {
	c := s.env.Config
	switch {
	case window == windowManagement && c.IPLimitManagement > 0:
		return kindIPManagement
	case window == windowPublic && c.IPLimitPublic > 0:
		return kindIPPublic
	case window == windowCreate && c.IPLimitCreate > 0:
		return kindIPCreate
	}
	return ""
}
