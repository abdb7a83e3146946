package actors

import (
	"context"
	"sync"
	"time"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// CheckIP counts one runtime request against its client IP's one-minute
// window; it is the first check of every runtime request, so guessing keys
// costs the guesser.
func (s *Service) CheckIP(ctx context.Context, ip string) error {
	if s.env.Config.IPLimit <= 0 {
		return nil
	}
	return s.consume(ctx, KindIP, ip)
}

// consume takes one from the meter grain kind/id: directly from the meter
// it publishes when it lives on this node, else by a call.
func (s *grains) consume(ctx context.Context, kind, id string) error {
	now := s.env.Clock.Now()
	if m := s.env.Local.meter(kind, id); m != nil {
		if ok, retry := m.take(now); !ok {
			return limitError(kind, retry)
		}
		return nil
	}
	if !isIPKind(kind) {
		return s.tell(ctx, kind, id, &pb.Consume{})
	}
	key := id // the runtime's window, the hot one, keyed without an allocation
	if kind != KindIP {
		key = kind + "/" + id
	}
	if retry := s.ipRefused.check(key, now); retry > 0 {
		return limitError(kind, retry)
	}
	err := s.tell(ctx, kind, id, &pb.Consume{})
	if me := model.AsError(err); me != nil && me.Code == model.ErrTooManyRequests {
		s.ipRefused.note(key, now, me.RetryAfter)
	}
	return err
}

// refusedIPs remembers, on a node that does not hold an IP's window, that
// the window refused it, until the window ends: a full fixed window stays
// full until then (nothing gives units back to it), so a flood from one
// address is refused here without a call to its grain on another node.
// Safe for concurrent use.
type refusedIPs struct {
	mu sync.Mutex
	m  map[string]time.Time // until when
}

// check returns the seconds to wait if ip is known refused at now, or 0.
func (r *refusedIPs) check(ip string, now time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if until, ok := r.m[ip]; ok {
		if now.Before(until) {
			return secondsUntil(now, until)
		}
		delete(r.m, ip)
	}
	return 0
}

// note records a refusal with Retry-After retry seconds. Retry-After is
// rounded up, so the window ends within its last second: the refusal is
// remembered one second less, and never past the window's end.
func (r *refusedIPs) note(ip string, now time.Time, retry int) {
	if retry <= 1 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]time.Time{}
	}
	if len(r.m) >= 4096 { // many addresses refused: drop those whose window ended
		for k, until := range r.m {
			if !now.Before(until) {
				delete(r.m, k)
			}
		}
	}
	r.m[ip] = now.Add(time.Duration(retry-1) * time.Second)
}

// takeQuota counts a runtime request against the plan quota of the
// project's account, the daily quota of a guest project's session, or a
// session project's own; a refusal names the limit (namedQuota).
func (s *grains) takeQuota(ctx context.Context, projectID string) error {
	kind, id, err := s.quotaOwner(ctx, projectID)
	if err != nil || kind == "" {
		return err
	}
	if s.env.Local.meter(kind, id) == nil {
		if pv := s.env.Local.project(projectID); pv != nil && pv.lease != nil {
			return s.namedQuota(kind, s.takeLeased(ctx, pv.lease, kind, id))
		}
	}
	return s.namedQuota(kind, s.consume(ctx, kind, id))
}

// takeLeased counts a request against the project's quota lease, leasing
// a new block from the paying grain when it is used up (runtime_cache.go).
// Requests of the project wait for one lease call rather than each making
// its own.
func (s *grains) takeLeased(ctx context.Context, l *quotaLease, kind, id string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := s.env.Clock.Now()
	if l.take(kind, id, now) {
		return nil
	}
	args := l.leftover(kind, id)
	args.Want = leaseWant
	r, err := s.ask(ctx, kind, id, leaseRequest(args))
	if err != nil {
		if model.ErrorCode(err) == model.ErrTooManyRequests {
			l.units = 0 // given back with the refused call
		}
		return err
	}
	l.set(kind, id, leaseGrantOf(r), now)
	l.units-- // this request's
	return nil
}

// quotaOwner names the grain whose quota a project's runtime calls use.
func (s *grains) quotaOwner(ctx context.Context, projectID string) (kind, id string, err error) {
	var o projectOwner
	if v := s.env.Local.project(projectID); v != nil {
		o = projectOwner{AccountID: v.project.AccountID, Session: v.session, Kind: v.project.Kind}
	} else if o, err = s.askOwner(ctx, projectID); err != nil {
		return "", "", err
	}
	switch {
	case o.Kind == model.KindSession:
		return KindProject, projectID, nil
	case o.AccountID != "":
		return KindAccount, o.AccountID, nil
	case o.Session != "":
		return KindSession, o.Session, nil
	}
	return "", "", nil
}

// askOwner asks the project grain who pays for its calls.
func (s *grains) askOwner(ctx context.Context, projectID string) (projectOwner, error) {
	r, err := s.ask(ctx, KindProject, projectID, &pb.ProjectOwnerQuery{Access: systemAccess})
	if err != nil {
		return projectOwner{}, err
	}
	return ownerOf(r), nil
}

// projectOwner is who pays for a project's runtime calls.
type projectOwner struct {
	Kind      model.ProjectKind `json:"kind,omitempty"`
	AccountID string            `json:"accountId,omitempty"`
	Session   string            `json:"session,omitempty"` // hash of the owning session
}

// IssueActorToken answers POST /runtime/actors: a slot of the key's
// maxActors, held by the returned token until it is idle for ActorIdle.
func (s *Service) IssueActorToken(ctx context.Context, keyValue string) (any, error) {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return nil, err
	}
	if err := s.projectExists(ctx, k.ProjectID); err != nil {
		return nil, err
	}
	r, err := s.ask(ctx, KindAPIKey, k.Hash, &pb.KeyAcquire{})
	if err != nil {
		return nil, err
	}
	return actorGrantOf(r), nil
}

// ReleaseActorToken answers DELETE /runtime/actors: the token's slot frees at once.
func (s *Service) ReleaseActorToken(ctx context.Context, keyValue, token string) error {
	k, err := s.runtimeKey(ctx, keyValue)
	if err != nil {
		return err
	}
	hash, err := checkActorToken(token, k.ID)
	if err != nil {
		return err
	}
	r, err := s.ask(ctx, KindAPIKey, k.Hash, &pb.KeyRelease{TokenHash: hash})
	if err != nil {
		return err
	}
	if !r.GetDone() {
		return model.Errorf(model.ErrActorTokenInvalid, "unknown actor token: it was released already, or it expired")
	}
	return nil
}

// runtimeKey checks a key for the actor-token routes: present, valid, and
// allowed to query the runtime.
func (s *Service) runtimeKey(ctx context.Context, value string) (model.APIKey, error) {
	if value == "" {
		return model.APIKey{}, model.Errorf(model.ErrUnauthenticated, "send the API key: Authorization: Bearer <key> or X-API-Key")
	}
	k, err := s.AuthKey(ctx, value)
	if err != nil {
		return k, err
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.ErrScopeInsufficient, "a %s key cannot use the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	k.Hash = hashSecret(value)
	return k, nil
}

// projectExists answers PROJECT_NOT_FOUND for a deleted project.
func (s *Service) projectExists(ctx context.Context, projectID string) error {
	if s.env.Local.project(projectID) != nil {
		return nil
	}
	err := s.tell(ctx, KindProject, projectID, &pb.ProjectOwnerQuery{Access: systemAccess})
	if code := model.ErrorCode(err); code == model.ErrNotFound {
		return model.Errorf(model.ErrProjectNotFound, "this key's project was deleted")
	}
	return err
}

// touchActor restarts an actor token's idle time; it must be a live token
// of key k.
func (s *grains) touchActor(ctx context.Context, k model.APIKey, keyHash, token string) error {
	hash, err := checkActorToken(token, k.ID)
	if err != nil {
		return err
	}
	if v := s.env.Local.key(keyHash); v != nil {
		return v.leases.touch(hash, s.env.Clock.Now())
	}
	return s.tell(ctx, KindAPIKey, keyHash, &pb.KeyTouch{TokenHash: hash})
}
