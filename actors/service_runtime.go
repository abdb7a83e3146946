package actors

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

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

// Runtime runs a request against the project a slug names, in the check
// order of API.md: slug, credential, key scope and project, then the query.
// When the project's grain is active on another node, the whole request
// goes there in one call (the project grain's "serve"), where the checks
// find the project's snapshot, key cache and quota lease: one round trip,
// not one per check.
func (s *Service) Runtime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	counted := false
	for attempt := 0; ; attempt++ {
		projectID, err := s.resolveSlug(ctx, r.Slug, attempt > 0)
		if err != nil {
			return nil, err
		}
		if r.ProjectID != "" && projectID != r.ProjectID {
			if attempt == 0 {
				continue // the cache may be stale
			}
			return nil, model.Errorf(model.ErrProjectNotFound, "the project's slug changed meanwhile; retry")
		}
		var res *model.RuntimeResult
		if s.env.Local == nil || s.env.Local.project(projectID) != nil {
			res, err = s.runChecked(ctx, projectID, "", &r, &counted)
		} else {
			res, err = s.forward(ctx, projectID, &r)
		}
		if model.ErrorCode(err) == model.ErrProjectNotFound && attempt == 0 {
			continue // the cached slug may be stale: ask the slug grain, not the cache
		}
		return res, err
	}
}

// runHere runs a request handed over by another node (env.serve).
func (s *Service) runHere(ctx context.Context, projectID, reqID string, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	counted := false
	return s.runChecked(ctx, projectID, reqID, &r, &counted)
}

// runChecked makes the checks and runs the query on this node. counted
// says whether the request was already counted against the quota (a retry
// after a slug move is the same request). reqID, when set, is the ID of the
// serve call that brought the request here: the grain call derives its ID
// from it, so that a serve call delivered twice applies a mutation once.
func (s *Service) runChecked(ctx context.Context, projectID, reqID string, r *model.RuntimeRequest, counted *bool) (*model.RuntimeResult, error) {
	keyOK := false
	if r.KeyValue != "" {
		k, err := s.checkRuntimeKey(ctx, r.KeyValue, projectID)
		if err != nil {
			return nil, err
		}
		keyOK = true
		if r.ActorToken != "" {
			keyHash := k.Hash // the stored record keeps its hash; hashing again costs
			if keyHash == "" {
				keyHash = hashSecret(r.KeyValue)
			}
			if err := s.touchActor(ctx, k, keyHash, r.ActorToken); err != nil {
				return nil, err
			}
		}
	} else if r.ActorToken != "" {
		return nil, model.Errorf(model.ErrActorTokenInvalid, "an actor token goes with the API key it was issued for; send the key too")
	}
	if !*counted {
		if err := s.takeQuota(ctx, projectID); err != nil {
			return nil, err
		}
		*counted = true
	}
	if r.ReadBody != nil {
		b, err := r.ReadBody()
		if err != nil {
			return nil, err
		}
		r.Body, r.ReadBody = b, nil
	}
	if res, ok, err := s.localQuery(ctx, projectID, *r, keyOK); ok {
		return res, err
	}
	meta := callMeta(r)
	if keyOK {
		meta[metaKeyOK] = "1"
	} else if r.ShareToken != "" {
		meta[metaToken] = r.ShareToken
	}
	callID := s.callID()
	if reqID != "" {
		callID = reqID + ".r"
	}
	reply, err := s.send(ctx, KindProject, projectID, &pb.Call{Method: "runtime", Body: r.Body, Meta: meta, RequestId: callID})
	if err != nil {
		return nil, err
	}
	return runtimeResult(reply)
}

// callMeta is the metadata every grain call of a runtime request carries:
// the slug asked for, and whether it is a GET or an internal call.
func callMeta(r *model.RuntimeRequest) map[string]string {
	meta := map[string]string{metaSlug: r.Slug}
	if r.QueryOnly {
		meta[metaQueryOnly] = "1"
	}
	if r.Internal {
		meta[metaMgmtCall] = "1"
	}
	return meta
}

// forward hands the whole request to the node of the project's grain.
func (s *Service) forward(ctx context.Context, projectID string, r *model.RuntimeRequest) (*model.RuntimeResult, error) {
	meta := callMeta(r)
	for _, kv := range [...][2]string{{metaKeyValue, r.KeyValue}, {metaToken, r.ShareToken}, {metaActor, r.ActorToken}} {
		if kv[1] != "" {
			meta[kv[0]] = kv[1]
		}
	}
	body := r.Body
	if r.ReadBody != nil {
		// The body is read before the credential is checked over there;
		// a body that cannot be read travels as its error, which the
		// other node answers only after the checks that come first.
		b, err := r.ReadBody()
		switch me := model.AsError(err); {
		case me != nil:
			meta[metaBodyErr], body = me.Code, []byte(me.Message)
		case err != nil:
			return nil, err
		default:
			body = b
			r.Body, r.ReadBody = b, nil
		}
	}
	reply, err := s.send(ctx, KindProject, projectID, &pb.Call{Method: "serve", Body: body, Meta: meta, RequestId: s.callID()})
	if err != nil {
		return nil, err
	}
	return runtimeResult(reply)
}

// runtimeResult turns a runtime or serve reply into the HTTP layer's result.
func runtimeResult(reply *pb.Reply) (*model.RuntimeResult, error) {
	if reply.Status == 400 {
		var extra struct{ GraphQLCode string }
		_ = json.Unmarshal(reply.ErrorExtra, &extra)
		return &model.RuntimeResult{Status: 400, Body: reply.Body, GraphQLCode: extra.GraphQLCode}, nil
	}
	if reply.ErrorCode != "" {
		return nil, replyError(reply)
	}
	return &model.RuntimeResult{Status: 200, Body: reply.Body}, nil
}

func (s *Service) resolveSlug(ctx context.Context, slug string, fresh bool) (string, error) {
	if !fresh {
		if id := s.slugs.get(slug); id != "" {
			return id, nil
		}
	}
	if !model.ValidSlug(slug) {
		return "", model.Errorf(model.ErrProjectNotFound, "no project has the slug %q", slug)
	}
	var st slugState
	if err := s.call(ctx, KindSlug, slug, "get", nil, &st); err != nil {
		s.slugs.m.Delete(slug)
		return "", err
	}
	s.slugs.m.Store(slug, st.ProjectID)
	return st.ProjectID, nil
}

var errMutationOverGet = model.Errorf(model.ErrBadRequest, "mutations need POST; GET carries only queries")

// localQuery answers a query from the read snapshot of a project grain
// active on this node. ok is false when it cannot (no snapshot, runtime not
// compiled yet, slug moved, a mutation): the caller then asks the grain.
func (s *Service) localQuery(ctx context.Context, projectID string, r model.RuntimeRequest, keyOK bool) (res *model.RuntimeResult, ok bool, err error) {
	v := s.env.Local.project(projectID)
	if v == nil || v.rt == nil || v.project.Slug != r.Slug || v.project.Expired(s.env.Clock.Now()) {
		return nil, false, nil
	}
	if err := checkRuntimeCredential(v.project, r.ShareToken, keyOK, r.Internal); err != nil {
		return nil, true, err
	}
	req, err := graphql.DecodeRequest(r.Body)
	if err != nil {
		return nil, true, err
	}
	prep, refused := v.rt.Prepare(req)
	if refused != nil {
		return &model.RuntimeResult{Status: 400, Body: refused.AppendJSON(nil), GraphQLCode: refused.Code}, true, nil
	}
	if prep.Mutation() {
		if r.QueryOnly {
			return nil, true, errMutationOverGet
		}
		return nil, false, nil // mutations run in the grain, one at a time
	}
	rb := resultBufs.Get().(*resultBuf)
	out, err := v.rt.QueryTo(ctx, prep, s.env.Pool.For(v.project.AccountID), v.ov, rb.data)
	if err != nil || ctx.Err() != nil {
		resultBufs.Put(rb)
		return nil, true, replyError(resultReply(ctx, out, err))
	}
	return rb.result(out), true, nil
}

// resultBufs recycles the response buffers of queries answered on this
// node: a list page is a few kB, and allocating it per request was a good
// part of the garbage a query makes.
var resultBufs sync.Pool

func init() {
	resultBufs.New = func() any {
		rb := new(resultBuf)
		rb.res.Release = rb.release // bound once: no closure per request
		return rb
	}
}

type resultBuf struct {
	res  model.RuntimeResult
	data []byte // the engine's data buffer
	b    []byte // the answer
}

// maxPooledResult keeps an occasional huge answer from staying in the pool.
const maxPooledResult = 64 << 10

// result encodes res, whose data is in rb.data, into rb's answer buffer;
// Release gives both back.
func (rb *resultBuf) result(res *graphql.Result) *model.RuntimeResult {
	rb.data = res.Data
	rb.b = res.AppendJSON(rb.b[:0])
	rb.res.Status, rb.res.Body = 200, rb.b
	return &rb.res
}

func (rb *resultBuf) release() {
	if cap(rb.b) <= maxPooledResult && cap(rb.data) <= maxPooledResult {
		resultBufs.Put(rb)
	}
}

// checkRuntimeKey: the key must be valid, of this project, and allowed to
// query the runtime.
func (s *Service) checkRuntimeKey(ctx context.Context, value, projectID string) (model.APIKey, error) {
	k, err := s.authKeyFor(ctx, value, projectID)
	if err != nil {
		return k, err
	}
	if k.ProjectID != projectID {
		return k, model.Errorf(model.ErrProjectNotFound, "this API key belongs to another project")
	}
	if !k.Scope.Runtime() {
		return k, model.Errorf(model.ErrScopeInsufficient, "a %s key cannot query the runtime; use a RUNTIME or FULL key", k.Scope)
	}
	return k, nil
}
