package actors

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// RuntimePath runs one /mock/{slug}/graphql request. It is the one place
// of the order of runtime checks (docs/reference/routes.md) after the client IP (which the HTTP
// gate counts first, through app.Edge.CheckIP):
//
//  1. slug: the project it names (ResolveSlug), still that project and not expired
//  2. credential: an API key of the project, or the share token of a guest or session project
//  3. key scope and project (checkRuntimeKey)
//  4. actor token (touchActor)
//  5. quota (takeQuota)
//  6. body: read only now (model.RuntimeBody), decoded, parsed and validated;
//     then faults: latency or an injected error (runtime_faults.go)
//  7. execution: a query on a snapshot, a mutation in the project grain
//
// Steps 2 to 7 of a client's request are recorded in the project's
// request log (runtimeTrace).
//
// The HTTP side calls Run; a node that does not hold the project's grain
// hands the whole request over to the grain's node (pb.ProjectServe), whose grain
// runs the same steps through serve. One RuntimePath per node
// (Env.RuntimePath); safe for concurrent use.
type RuntimePath struct {
	grains  *Client
	workers *workers     // run the requests other nodes hand over
	answers *answerCache // the answers of repeated queries (runtime_answers.go)
}

func newRuntimePath(g *Client) *RuntimePath {
	return &RuntimePath{grains: g, workers: newWorkers(), answers: newAnswerCache(g.env.Config.AnswerCacheBytes)}
}

// defaultCallTimeout bounds a grain call that came without a deadline.
const defaultCallTimeout = 5 * time.Second

// callContext is the context of a call's work: until the call's deadline,
// or defaultCallTimeout when it has none.
func callContext(h *pb.Header) (context.Context, context.CancelFunc) {
	if h.DeadlineUnixMs != 0 {
		return context.WithDeadline(context.Background(), time.UnixMilli(h.DeadlineUnixMs))
	}
	return context.WithTimeout(context.Background(), defaultCallTimeout)
}

// Run runs r against the project its slug names (steps 1 to 7).
func (p *RuntimePath) Run(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	counted := false
	for attempt := 0; ; attempt++ {
		projectID, err := p.grains.ResolveSlug(ctx, r.Slug, attempt > 0)
		if err != nil {
			return nil, err
		}
		if r.ProjectID != "" && projectID != r.ProjectID {
			if attempt == 0 {
				continue // the cache may be stale
			}
			return nil, model.Errorf(model.CodeProjectNotFound, "the project's slug changed meanwhile; retry")
		}
		var res *model.RuntimeResult
		if l := p.grains.env.Local; l == nil {
			res, err = p.checked(ctx, projectID, "", &r, &counted, nil)
		} else if pv := l.project(projectID); pv != nil {
			res, err = p.checked(ctx, projectID, "", &r, &counted, pv)
		} else {
			res, err = p.forward(ctx, projectID, &r)
		}
		if model.ErrorCode(err) == model.CodeProjectNotFound && attempt == 0 {
			continue // the cached slug may be stale: ask the slug grain, not the cache
		}
		if err == nil {
			p.holdAnswer(&r, res)
		}
		return res, err
	}
}

// serve runs a request another node handed over (the project grain's
// "serve"): steps 2 to 7 here, where the project's snapshot, key cache and
// quota lease are. reqID is the serve call's ID: the grain call of a
// mutation derives its ID from it, so that a serve call delivered twice
// applies the mutation once.
func (p *RuntimePath) serve(ctx context.Context, projectID, reqID string, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	counted := false
	return p.checked(ctx, projectID, reqID, &r, &counted, p.grains.env.Local.project(projectID))
}

// checked makes steps 2 to 7 on this node and records them in the
// project's request log. counted says whether the request was already
// counted against the quota (a retry after a slug move is the same
// request). pv is the project's snapshot on this node (nil: none), which
// the checks read (its key cache, lease and faults are the activation's);
// the query reads the latest one (localQuery).
func (p *RuntimePath) checked(ctx context.Context, projectID, reqID string, r *model.RuntimeRequest, counted *bool, pv *projectView) (*model.RuntimeResult, error) {
	if r.SandboxState == "" && strings.Contains(r.Sandbox, "@") && !r.CheckOnly {
		name, state, err := model.SplitSandbox(r.Sandbox)
		if err != nil {
			return nil, err
		}
		r.Sandbox, r.SandboxState = name, state
	}
	var tr runtimeTrace // on the stack: recording allocates nothing per request
	t := p.trace(&tr, pv, r)
	res, err := p.steps(ctx, projectID, reqID, r, counted, t, pv)
	t.done(res, err, p.grains.env.Clock.Now())
	return res, err
}

// steps makes steps 2 to 7, following them in t (nil: not logged, no
// faults), with the project's snapshot pv on this node (nil: none).
func (p *RuntimePath) steps(ctx context.Context, projectID, reqID string, r *model.RuntimeRequest, counted *bool, t *runtimeTrace, pv *projectView) (*model.RuntimeResult, error) {
	keyOK, err := p.credential(ctx, projectID, r, pv)
	if err != nil {
		return nil, err
	}
	if r.Sandbox != "" && !r.CheckOnly {
		if err := model.CheckSandboxName(r.Sandbox); err != nil {
			return nil, err
		}
	}
	if !*counted && !r.CheckOnly {
		if err := p.grains.takeQuota(ctx, projectID, pv); err != nil {
			return nil, err
		}
		*counted = true
	}
	if r.BodyFrom != nil {
		b, err := r.BodyFrom.ReadBody()
		if err != nil {
			return nil, err
		}
		r.Body, r.BodyFrom = b, nil
	}
	// A sandbox to make from a state is made by the grain (a write), so
	// its first request goes there; once made, the state is ignored.
	fromState := r.SandboxState != "" && (pv == nil || liveSandbox(pv.sandboxes, r.Sandbox, p.grains.env.Clock.Now(), p.grains.env.Config.SandboxTTL) == nil)
	if !fromState {
		if res, ok, err := p.localQuery(ctx, projectID, r, keyOK, t); ok {
			return res, err
		}
	}
	call := &pb.ProjectRuntime{Header: &pb.Header{}, Slug: r.Slug, KeyVerified: keyOK, Internal: r.Internal, QueryOnly: r.QueryOnly, Body: r.Body,
		Subscribe: r.Subscribe, CheckOnly: r.CheckOnly, Sandbox: r.Sandbox}
	if t != nil && !r.CheckOnly {
		for _, fr := range t.fields.firingFor(r.Body) {
			call.FieldRules = append(call.FieldRules, wireFieldRule(fr))
		}
	}
	if fromState {
		call.State = r.SandboxState
	}
	if r.Sandbox != "" && !r.CheckOnly {
		call.Plan = string(p.sandboxPlan(ctx, projectID, r.Sandbox, pv))
	}
	if !keyOK {
		call.ShareToken = r.ShareToken
	}
	if reqID != "" {
		call.Header.RequestId = reqID + ".r"
	}
	res, err := runtimeResult(p.grains.ask(ctx, kindProject, projectID, call))
	return t.finish(res), err
}

// credential makes steps 3 and 4 for a request with an API key: keyOK
// says the key is of the project and may query the runtime. Step 2, which
// needs the project's record, is checkRuntimeCredential's, where the
// record is (localQuery, or the project grain).
func (p *RuntimePath) credential(ctx context.Context, projectID string, r *model.RuntimeRequest, pv *projectView) (keyOK bool, err error) {
	if r.KeyValue == "" {
		if r.ActorToken != "" {
			return false, model.Errorf(model.CodeActorTokenInvalid, "an actor token goes with the API key it was issued for; send the key too")
		}
		return false, nil
	}
	k, err := p.grains.checkRuntimeKey(ctx, r.KeyValue, projectID, pv)
	if err != nil || r.ActorToken == "" {
		return err == nil, err
	}
	keyHash := k.Hash // the stored record keeps its hash; hashing again costs
	if keyHash == "" {
		keyHash = ids.HashSecret(r.KeyValue)
	}
	return true, p.grains.touchActor(ctx, k, keyHash, r.ActorToken)
}

// forward hands the whole request to the node of the project's grain. The
// body is read first; one that cannot be read travels as its error, which
// the other node answers only after the checks that come before it.
func (p *RuntimePath) forward(ctx context.Context, projectID string, r *model.RuntimeRequest) (*model.RuntimeResult, error) {
	call := &pb.ProjectServe{Slug: r.Slug, ApiKey: r.KeyValue, ShareToken: r.ShareToken, ActorToken: r.ActorToken,
		Internal: r.Internal, QueryOnly: r.QueryOnly, Body: r.Body, FaultHeader: r.FaultHeader, NoFaults: r.NoFaults,
		Subscribe: r.Subscribe, CheckOnly: r.CheckOnly, Sandbox: r.Sandbox}
	if r.SandboxState != "" { // split already by an earlier attempt here
		call.Sandbox += "@" + r.SandboxState
	}
	if r.BodyFrom != nil && !r.CheckOnly {
		b, err := r.BodyFrom.ReadBody()
		switch me := model.AsError(err); {
		case me != nil:
			call.Body, call.BodyErrorCode, call.BodyErrorMessage = nil, string(me.Code), me.Message
		case err != nil:
			return nil, err
		default:
			call.Body = b
			r.Body, r.BodyFrom = b, nil
		}
	}
	return runtimeResult(p.grains.ask(ctx, kindProject, projectID, call))
}

// servedRequest rebuilds the request a serve call carries (forward).
func servedRequest(m *pb.ProjectServe) model.RuntimeRequest {
	r := model.RuntimeRequest{Slug: m.Slug, KeyValue: m.ApiKey, ShareToken: m.ShareToken,
		ActorToken: m.ActorToken, Body: m.Body, Internal: m.Internal, QueryOnly: m.QueryOnly,
		FaultHeader: m.FaultHeader, NoFaults: m.NoFaults, Subscribe: m.Subscribe, CheckOnly: m.CheckOnly, Sandbox: m.Sandbox}
	if m.BodyErrorCode != "" {
		r.Body, r.BodyFrom = nil, failedBody{&model.Error{Code: model.Code(m.BodyErrorCode), Message: m.BodyErrorMessage}}
	}
	return r
}

// failedBody is a body that could not be read on the node that received it.
type failedBody struct{ err error }

func (f failedBody) ReadBody() ([]byte, error) { return nil, f.err }

// runtimeResult turns a runtime or serve reply into the runtime's result:
// the one conversion from the wire (runtimeReply is the other way).
func runtimeResult(reply *pb.Reply, err error) (*model.RuntimeResult, error) {
	if err != nil {
		return nil, err
	}
	var res *model.RuntimeResult
	switch {
	case reply.FaultRefusal: // a fault's HTTP refusal
		res = &model.RuntimeResult{Status: int(reply.Status),
			Refusal: &model.Error{Code: model.Code(reply.ErrorCode), Message: reply.ErrorMessage, RetryAfter: int(reply.RetryAfter)}}
	case reply.Status == 400:
		res = &model.RuntimeResult{Status: 400, Body: reply.Body, GraphQLCode: model.Code(reply.GraphqlCode)}
	case reply.ErrorCode != "":
		return nil, replyError(reply)
	default:
		res = &model.RuntimeResult{Status: 200, Body: reply.Body}
	}
	res.Delay, res.Fault = time.Duration(reply.DelayMs)*time.Millisecond, reply.Fault
	return res, nil
}

// runtimeReply turns the runtime's result into a reply: the one conversion
// to the wire. A 400 carries the GraphQL errors in its body and their code
// in GraphqlCode; a fault its latency and description, and its HTTP
// refusal as the reply's error with the refusal's status.
func runtimeReply(res *model.RuntimeResult, err error) *pb.Reply {
	var r *pb.Reply
	switch {
	case err != nil:
		return errorReply(err)
	case res.Refusal != nil:
		r = errorReply(res.Refusal)
		r.Status, r.FaultRefusal = int32(res.Status), true
	case res.Status == 400:
		r = &pb.Reply{Status: 400, ErrorCode: string(model.CodeBadRequest), ErrorMessage: "the GraphQL document does not parse or validate",
			Body: res.Body, GraphqlCode: string(res.GraphQLCode)}
	default:
		r = &pb.Reply{Status: int32(res.Status), Body: res.Body}
	}
	r.DelayMs, r.Fault = res.Delay.Milliseconds(), res.Fault
	return r
}

// refused is the 400 result of a document that does not parse or validate.
func refused(res *exec.Result, buf []byte) *model.RuntimeResult {
	return &model.RuntimeResult{Status: 400, Body: res.AppendJSON(buf), GraphQLCode: res.Code}
}

// servesSlug says whether pr answers slug at now (step 1, made again where
// the project's record is: a slug can move, a project expire).
func servesSlug(pr *model.Project, slug string, now time.Time) bool {
	return pr != nil && pr.Slug == slug && !pr.Expired(now)
}

// errNoSlug is step 1's refusal.
func errNoSlug(slug string) error {
	return model.Errorf(model.CodeProjectNotFound, "no project has the slug %q", slug)
}

// checkRuntimeCredential is step 2: an account project answers only to a
// verified key (keyOK); a guest or session project to its share token.
// internal calls (the board's preview, runtimeList) are let through.
func checkRuntimeCredential(pr *model.Project, token string, keyOK, internal bool) error {
	switch {
	case internal:
		return nil
	case pr.Kind == model.KindAccount:
		if !keyOK {
			return model.Errorf(model.CodeUnauthenticated, "this project's API needs an API key: Authorization: Bearer <key> or X-API-Key")
		}
		return nil
	case token == "" || !ids.EqualSecret(token, pr.ShareToken):
		return model.Errorf(model.CodeUnauthenticated, "missing or wrong share token: add ?token=<shareToken> to the URL")
	}
	return nil
}

var errMutationOverGet = model.Errorf(model.CodeBadRequest, "mutations need POST; GET carries only queries")

// localQuery makes steps 2, 6 and 7 for a query from the read snapshot of
// a project grain active on this node. ok is false when it cannot (no
// snapshot, runtime not compiled yet, slug moved, a mutation): the caller
// then asks the grain (projectGrain.runtimeCall).
func (p *RuntimePath) localQuery(ctx context.Context, projectID string, r *model.RuntimeRequest, keyOK bool, t *runtimeTrace) (res *model.RuntimeResult, ok bool, err error) {
	env := p.grains.env
	v := env.Local.project(projectID)
	if t != nil && v != nil && v.rt == nil && servesSlug(v.project, r.Slug, env.Clock.Now()) {
		v = p.warm(ctx, projectID, v) // the fault step needs the prepared request
	}
	if v == nil || v.rt == nil || !servesSlug(v.project, r.Slug, env.Clock.Now()) {
		return nil, false, nil
	}
	if err := checkRuntimeCredential(v.project, r.ShareToken, keyOK, r.Internal); err != nil {
		return nil, true, err
	}
	if r.CheckOnly {
		return &model.RuntimeResult{Status: 200}, true, nil
	}
	cacheKey := projectID
	if r.Sandbox != "" {
		v, cacheKey = inSandbox(v, r.Sandbox, env.Clock.Now(), env.Config.SandboxTTL), projectID+"\x00"+r.Sandbox
	}
	out := r.Out
	if out == nil {
		out = &model.RuntimeBuffers{}
	}
	pool := env.Pool.forAccount(v.project.AccountID)
	fields := t != nil && mayFaultFields(v.project, r.FaultHeader) // a kept answer has no field errors
	if e := p.answerFor(cacheKey, r.Body, v, pool, fields); e != nil {
		return answerCached(e, v, r, out, t)
	}
	req, err := exec.DecodeRequest(r.Body)
	if err != nil {
		return nil, true, err
	}
	prep, refusal := v.rt.PrepareContext(ctx, req)
	t.request(req, prep)
	if err := exec.TimeoutError(refusal); err != nil {
		return nil, true, err
	}
	if refusal != nil {
		return refused(refusal, out.Body[:0]), true, nil
	}
	if prep.Mutation() && r.QueryOnly {
		return nil, true, errMutationOverGet
	}
	if res, done, err := t.inject(v.project, prep.RootFields(), r.FaultHeader, r.Sandbox, out); done {
		return res, true, err
	}
	if r.Subscribe && prep.Subscription() {
		if t != nil {
			t.entry.Subscription = model.SubscriptionStart
		}
		return t.finish(&model.RuntimeResult{Status: 200, Body: subscriptionBody(v.rt, prep, projectID, r.Sandbox)}), true, nil
	}
	if prep.Mutation() {
		return nil, false, nil // mutations run in the grain, one at a time
	}
	var rec *recordingPool // notes the datasets read, for the answer cache
	var qpool engine.Pool = pool
	version := v.ov.State().Version()
	if p.answers != nil && len(r.Body) <= maxCachedBody && !fields {
		rec = &recordingPool{pool: pool}
		qpool = rec
	}
	qr, err := v.rt.QueryTo(exec.WithFieldFaults(ctx, t.fieldFaults()), prep, qpool, v.ov, out.Data[:0])
	if qr != nil && qr.Held > 0 {
		// The answer keeps its bytes of the budget until it is written.
		out.Held, out.Lender = qr.Held, env.Bounds.Budget
		if r.Out == nil || err != nil || ctx.Err() != nil {
			out.Return() // no writer will, or nothing to write
		}
	}
	if err != nil || ctx.Err() != nil {
		return nil, true, replyError(resultReply(ctx, qr, err))
	}
	t.resultCode(qr)
	out.Data = qr.Data
	out.Body = qr.AppendJSON(out.Body[:0])
	if rec != nil && cacheable(qr, v, version, out.Body) {
		p.answers.put(newCachedAnswer(cacheKey, r.Body, out.Body, v, version, rec, req, prep))
	}
	return t.finish(&model.RuntimeResult{Status: 200, Body: out.Body}), true, nil
}

// answerFor returns the kept answer of body, or nil; none when the
// request may get field errors (fields).
func (p *RuntimePath) answerFor(cacheKey string, body []byte, v *projectView, pool engine.Pool, fields bool) *cachedAnswer {
	if fields {
		return nil
	}
	return p.answers.get(cacheKey, body, v, pool)
}

// holdAnswer makes an answer made by a grain, here or on another node,
// count against this node's response budget until the writer returns it
// (RuntimeBuffers.Return), as localQuery's answers do.
func (p *RuntimePath) holdAnswer(r *model.RuntimeRequest, res *model.RuntimeResult) {
	b := p.grains.env.Bounds.Budget
	if b == nil || r.Out == nil || r.Out.Held > 0 || res == nil || res.Status != 200 {
		return
	}
	r.Out.Held, r.Out.Lender = b.HoldAnswer(len(res.Body)), b
}

// Client returns the grain client the path asks through: the node's, which
// the use cases share.
func (p *RuntimePath) Client() *Client { return p.grains }
