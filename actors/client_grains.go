package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Client is the node's typed client of the grains: it names calls, sends them
// with the caller's deadline and turns error replies back into errors. It
// also keeps the node's slug cache and the IP windows known to refuse.
// Safe for concurrent use.
type Client struct {
	env    *Env
	prefix string
	seq    atomic.Uint64
	slugs  slugCache
	// ipRefused remembers the IP windows held on other nodes that refused
	// (consume).
	ipRefused refusedIPs
	// docs keeps large projects decoded (project_docs.go): a cache, not
	// state; every read still asks the project's grain.
	docs projectDocs
}

func newGrains(env *Env) *Client { return &Client{env: env, prefix: ids.RandomString(8) + "-"} }

// callID names one grain call. cluster.Request resends the same message
// when it retries, so the grain sees the same ID and answers from its cache.
func (s *Client) callID() string { return s.prefix + strconv.FormatUint(s.seq.Add(1), 36) }

// ask sends req to kind/id with the caller's deadline and returns the
// reply; the reply's result is read with its getter (r.GetProject() and
// the like) and the decoders of client.go. A refusal comes back as
// *model.Error; an unreachable grain as UNAVAILABLE. req gets a request ID
// unless it has one.
//
// No identity reaches a grain unchecked (model.CheckGrainIdentity): an
// unbounded one would activate a grain, reach the store as a key and
// fill log lines.
func (s *Client) ask(ctx context.Context, kind, id string, req grainRequest) (*pb.Reply, error) {
	if err := model.CheckGrainIdentity(kind, id); err != nil {
		return nil, err
	}
	h := headerOf(req)
	if h.RequestId == "" {
		h.RequestId = s.callID()
	}
	if dl, ok := ctx.Deadline(); ok && h.DeadlineUnixMs == 0 {
		h.DeadlineUnixMs = dl.UnixMilli()
	}
	resp, err := s.env.Caller.Request(ctx, kind, id, req)
	if err != nil {
		s.env.Log.Warn("grain call failed", "kind", kind, "id", id, "method", requestName(req), "err", err)
		return nil, &model.Error{Code: model.CodeUnavailable, Message: "the service is busy moving data between nodes; retry shortly", RetryAfter: 1}
	}
	r, ok := resp.(*pb.Reply)
	if !ok {
		return nil, fmt.Errorf("%s.%s: unexpected reply %T", kind, requestName(req), resp)
	}
	if r.ErrorCode != "" && r.Status == 0 {
		return r, replyError(r)
	}
	return r, nil
}

// tell is ask for a request whose result the caller does not need.
func (s *Client) tell(ctx context.Context, kind, id string, req grainRequest) error {
	_, err := s.ask(ctx, kind, id, req)
	return err
}

// replyError rebuilds the error a grain answered with.
func replyError(r *pb.Reply) error {
	if model.Code(r.ErrorCode) == model.CodeInternal {
		return errors.New(r.ErrorMessage) // the cause stays internal
	}
	e := &model.Error{Code: model.Code(r.ErrorCode), Message: r.ErrorMessage, RetryAfter: int(r.RetryAfter)}
	if len(r.ErrorExtra) > 0 {
		_ = json.Unmarshal(r.ErrorExtra, &e.Extra)
	}
	return e
}

// AuthKey checks an API key value and returns its record. Unknown, revoked
// and deleted keys are API_KEY_INVALID; expired ones API_KEY_EXPIRED.
func (s *Client) AuthKey(ctx context.Context, value string) (model.APIKey, error) {
	if len(value) != len(ids.KeyPrefix)+43 || value[:len(ids.KeyPrefix)] != ids.KeyPrefix {
		return model.APIKey{}, model.Errorf(model.CodeAPIKeyInvalid, "an API key looks like mgq_ followed by 43 letters and digits")
	}
	hash := ids.HashSecret(value)
	if v := s.env.Local.key(hash); v != nil {
		return *v.key, v.use(s.env.Clock.Now())
	}
	return s.askKey(ctx, hash, &pb.KeyAuth{})
}

// authKeyFor is AuthKey for a runtime request to projectID, whose
// snapshot on this node is pv (nil: none): when the key's grain is
// elsewhere but the project's grain is here, the project's key cache
// answers, and a record fetched from the key grain is cached there.
func (s *Client) authKeyFor(ctx context.Context, value, projectID string, pv *projectView) (model.APIKey, error) {
	if pv == nil || pv.keys == nil || len(value) != len(ids.KeyPrefix)+43 || value[:len(ids.KeyPrefix)] != ids.KeyPrefix {
		return s.AuthKey(ctx, value)
	}
	hash := ids.HashSecret(value)
	if v := s.env.Local.key(hash); v != nil {
		return *v.key, v.use(s.env.Clock.Now())
	}
	now := s.env.Clock.Now()
	if k, ok := pv.keys.get(hash, now); ok {
		return k, checkKeyUsable(&k, now)
	}
	epoch := pv.keys.begin()
	k, err := s.askKey(ctx, hash, &pb.KeyAuth{})
	if err != nil {
		return model.APIKey{}, err
	}
	if k.ProjectID == projectID {
		k.Hash = hash
		pv.keys.put(epoch, hash, k, now)
	}
	return k, nil
}

// consume takes one from the meter grain kind/id: directly from the meter
// it publishes when it lives on this node, else by a call.
func (s *Client) consume(ctx context.Context, kind, id string) error {
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
	if kind != kindIP {
		key = kind + "/" + id
	}
	if retry := s.ipRefused.check(key, now); retry > 0 {
		return limitError(kind, retry)
	}
	err := s.tell(ctx, kind, id, &pb.Consume{})
	if me := model.AsError(err); me != nil && me.Code == model.CodeTooManyRequests {
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
// session project's own; a refusal names the limit (namedQuota). pv is
// the project's snapshot on this node (nil: none).
func (s *Client) takeQuota(ctx context.Context, projectID string, pv *projectView) error {
	kind, id, err := s.quotaOwner(ctx, projectID, pv)
	if err != nil || kind == "" {
		return err
	}
	if s.env.Local.meter(kind, id) == nil {
		if pv != nil && pv.lease != nil {
			return s.namedQuota(kind, s.takeLeased(ctx, pv.lease, kind, id))
		}
	}
	return s.namedQuota(kind, s.consume(ctx, kind, id))
}

// takeLeased counts a request against the project's quota lease, leasing
// a new block from the paying grain when it is used up (runtime_cache.go).
// Requests of the project wait for one lease call rather than each making
// its own.
func (s *Client) takeLeased(ctx context.Context, l *quotaLease, kind, id string) error {
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
		if model.ErrorCode(err) == model.CodeTooManyRequests {
			l.units = 0 // given back with the refused call
		}
		return err
	}
	l.set(kind, id, leaseGrantOf(r), now)
	l.units-- // this request's
	return nil
}

// quotaOwner names the grain whose quota a project's runtime calls use.
func (s *Client) quotaOwner(ctx context.Context, projectID string, v *projectView) (kind, id string, err error) {
	var o ProjectOwner
	if v != nil {
		o = ProjectOwner{AccountID: v.project.AccountID, Session: v.session, Kind: v.project.Kind}
	} else if o, err = s.askOwner(ctx, projectID); err != nil {
		return "", "", err
	}
	switch {
	case o.Kind == model.KindSession:
		return kindProject, projectID, nil
	case o.AccountID != "":
		return kindAccount, o.AccountID, nil
	case o.Session != "":
		return kindSession, o.Session, nil
	}
	return "", "", nil
}

// askOwner asks the project grain who pays for its calls.
func (s *Client) askOwner(ctx context.Context, projectID string) (ProjectOwner, error) {
	r, err := s.ask(ctx, kindProject, projectID, &pb.ProjectOwnerQuery{Access: systemAccess})
	if err != nil {
		return ProjectOwner{}, err
	}
	return ownerOf(r), nil
}

// ProjectOwner is who pays for a project's runtime calls.
type ProjectOwner struct {
	Kind      model.ProjectKind `json:"kind,omitempty"`
	AccountID string            `json:"accountId,omitempty"`
	Session   string            `json:"session,omitempty"` // hash of the owning session
}

// touchActor restarts an actor token's idle time; it must be a live token
// of key k.
func (s *Client) touchActor(ctx context.Context, k model.APIKey, keyHash, token string) error {
	hash, err := checkActorToken(token, k.ID)
	if err != nil {
		return err
	}
	if v := s.env.Local.key(keyHash); v != nil {
		return v.leases.touch(hash, s.env.Clock.Now())
	}
	return s.tell(ctx, kindAPIKey, keyHash, &pb.KeyTouch{TokenHash: hash})
}

// slugCache remembers which project answers a slug. An entry may go stale
// when a slug moves; the project grain checks the slug on every call and
// the caller then asks the slug grain again, so staleness costs one retry
// and never a wrong answer.
type slugCache struct{ m sync.Map }

func (c *slugCache) get(slug string) string {
	v, _ := c.m.Load(slug)
	s, _ := v.(string)
	return s
}

// ResolveSlug returns the ID of the project that answers slug, from the
// node's cache unless fresh; a slug no project has is PROJECT_NOT_FOUND.
func (s *Client) ResolveSlug(ctx context.Context, slug string, fresh bool) (string, error) {
	if !fresh {
		if id := s.slugs.get(slug); id != "" {
			return id, nil
		}
	}
	if !model.ValidSlug(slug) {
		return "", model.Errorf(model.CodeProjectNotFound, "no project has the slug %q", slug)
	}
	r, err := s.ask(ctx, kindSlug, slug, &pb.SlugGet{})
	if err != nil {
		s.slugs.m.Delete(slug)
		return "", err
	}
	id := r.GetSlugOwner().GetProjectId()
	s.slugs.m.Store(slug, id)
	return id, nil
}

// checkRuntimeKey: the key must be valid, of this project, and allowed to
// query the runtime.
func (s *Client) checkRuntimeKey(ctx context.Context, value, projectID string, pv *projectView) (model.APIKey, error) {
	k, err := s.authKeyFor(ctx, value, projectID, pv)
	if err != nil {
		return k, err
	}
	if k.ProjectID != projectID {
		return k, model.Errorf(model.CodeProjectNotFound, "this API key belongs to another project")
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.CodeScopeInsufficient, "a %s key cannot query the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	return k, nil
}

// sessionQuotaError is the 429 of a session project whose daily runtime
// calls are used up; its message names the limit.
func sessionQuotaError(c Config, retry int) error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
		Message: fmt.Sprintf("this session project's %s a day (runtimeList and preview pages included) are used up; they reset at 00:00 UTC", plural(c.SessionDailyCalls, "runtime call"))}
}

// guestQuotaError is the 429 of a session whose guest projects used up
// their daily runtime calls; its message names the limit.
func guestQuotaError(c Config, retry int) error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
		Message: fmt.Sprintf("this session's %s a day for its guest projects are used up; they reset at 00:00 UTC", plural(c.GuestDailyCalls, "runtime call"))}
}

// namedQuota turns a meter's generic quota refusal into the one naming the
// session-project or guest limit when kind is the quota's owner.
func (s *Client) namedQuota(kind string, err error) error {
	e := model.AsError(err)
	if e == nil || e.Code != model.CodeTooManyRequests {
		return err
	}
	switch kind {
	case kindProject:
		return sessionQuotaError(s.env.Config, e.RetryAfter)
	case kindSession:
		return guestQuotaError(s.env.Config, e.RetryAfter)
	}
	return err
}

// plural writes n and the noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
