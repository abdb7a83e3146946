package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// Grain kinds.
const (
	KindProject = kindProject
	KindAPIKey  = "apikey"
	KindAccount = "account"
	KindUser    = "user"
	KindSlug    = "slug"
	KindDataset = kindDataset
	// KindAdoption is a one-time adoption token: adoption/<sha256>.
	KindAdoption = "adoption"
)

// Kinds returns the producers of every grain kind, bound to env; the node
// registers them with the cluster.
func Kinds(env *Env) map[string]actor.Producer {
	kinds := map[string]actor.Producer{
		KindProject: func() actor.Actor { return newGrain(env, &projectGrain{}) },
		KindAPIKey:  func() actor.Actor { return newGrain(env, &keyGrain{}) },
		KindAccount: func() actor.Actor { return newGrain(env, &accountGrain{}) },
		KindUser:    func() actor.Actor { return newGrain(env, &userGrain{}) },
		KindSlug:    func() actor.Actor { return newGrain(env, &slugGrain{}) },
		KindDataset: func() actor.Actor { return newGrain(env, &datasetGrain{}) },
		KindIP: func() actor.Actor {
			return newGrain(env, &meterGrain{p: perMinute, limit: func(c Config) int64 { return int64(c.IPLimit) }, persist: true})
		},
		KindSession:  func() actor.Actor { return newGrain(env, &sessionGrain{}) },
		KindAdoption: func() actor.Actor { return newGrain(env, &adoptionGrain{}) },
	}
	for kind, p := range windowKinds(env) {
		kinds[kind] = p
	}
	return kinds
}

// Service is the use-case layer the HTTP layer calls; it implements
// http.Backend. It holds no state of its own beyond the node's grain client
// and is safe for concurrent use.
type Service struct {
	*grains
	env        *Env
	runtime    *RuntimePath
	sessionKey []byte
}

// NewService returns a Service over env. Its grain client and runtime path
// are the node's (Env.runtimePath): the project grains' serve handler uses
// the same ones.
func NewService(env *Env) *Service {
	rp := env.runtimePath()
	s := &Service{grains: rp.grains, env: env, runtime: rp, sessionKey: env.Config.SessionKey}
	if len(s.sessionKey) == 0 {
		s.sessionKey = randomKey()
	}
	return s
}

// grains is the node's client of the grains: it names calls, sends them
// with the caller's deadline and turns error replies back into errors. It
// also keeps the node's slug cache and the IP windows known to refuse.
// Safe for concurrent use.
type grains struct {
	env    *Env
	prefix string
	seq    atomic.Uint64
	slugs  slugCache
	// ipRefused remembers the IP windows held on other nodes that refused
	// (service_limits.go).
	ipRefused refusedIPs
}

func newGrains(env *Env) *grains { return &grains{env: env, prefix: randomString(8) + "-"} }

// callID names one grain call. cluster.Request resends the same message
// when it retries, so the grain sees the same ID and answers from its cache.
func (s *grains) callID() string { return s.prefix + strconv.FormatUint(s.seq.Add(1), 36) }

// ask sends req to kind/id with the caller's deadline and returns the
// reply; the reply's result is read with its getter (r.GetProject() and
// the like) and the decoders of client.go. A refusal comes back as
// *model.Error; an unreachable grain as UNAVAILABLE. req gets a request ID
// unless it has one.
//
// No identity reaches a grain unchecked (model.CheckGrainIdentity): an
// unbounded one would activate a grain, reach the store as a key and
// fill log lines.
func (s *grains) ask(ctx context.Context, kind, id string, req request) (*pb.Reply, error) {
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
		return nil, &model.Error{Code: model.ErrUnavailable, Message: "the service is busy moving data between nodes; retry shortly", RetryAfter: 1}
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
func (s *grains) tell(ctx context.Context, kind, id string, req request) error {
	_, err := s.ask(ctx, kind, id, req)
	return err
}

// replyError rebuilds the error a grain answered with.
func replyError(r *pb.Reply) error {
	if r.ErrorCode == model.ErrInternal {
		return errors.New(r.ErrorMessage) // the cause stays internal
	}
	e := &model.Error{Code: r.ErrorCode, Message: r.ErrorMessage, RetryAfter: int(r.RetryAfter)}
	if len(r.ErrorExtra) > 0 {
		_ = json.Unmarshal(r.ErrorExtra, &e.Extra)
	}
	return e
}
