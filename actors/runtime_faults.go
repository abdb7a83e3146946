package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// The runtime path's fault step and request log (issue 14). The step comes
// after every check of the runtime's order (docs/reference/routes.md), the document's validity included,
// and before execution: a refused request gets no fault, and an injected
// error replaces execution (a mutation writes nothing). The decision is
// model.DecideFault's; the sequence it draws from and the log are the
// project activation's faultState, on the node that owns the project,
// where RuntimePath.checked runs. Latency is never waited for here: it
// travels with the result (RuntimeResult.Delay) to the HTTP side.

// runtimeTrace follows one runtime request through RuntimePath.checked for
// the project's request log, and holds the fault decided for it. A nil
// trace (an internal call, or no project snapshot on this node) records
// and injects nothing.
type runtimeTrace struct {
	log   *faultState
	noLog bool // Config.NoRequestLog: faults only
	start time.Time
	entry model.RequestLogEntry
	fault model.FaultDecision
	// fields are the request's field rules (nil: none), which the
	// execution asks (exec.WithFieldFaults) and which note the rules
	// that fired for the log.
	fields *requestFaults
	// code is errors[0].extensions.code of a 200 made here; codeKnown
	// says it was read from the result (no need to scan the body).
	code      model.Code
	codeKnown bool
}

// trace starts the trace of r on this node in t and returns it, or
// returns nil when r is not logged: an internal call (previewQuery,
// runtimeList), MCP's run_query, or a project with no snapshot v here.
func (p *RuntimePath) trace(t *runtimeTrace, v *projectView, r *model.RuntimeRequest) *runtimeTrace {
	if r.Internal || r.NoFaults || r.CheckOnly {
		return nil
	}
	if v == nil || v.faults == nil {
		return nil
	}
	t.log, t.noLog, t.start = v.faults, p.grains.env.Config.NoRequestLog, p.grains.env.Clock.Now()
	t.entry.Sandbox = model.Clip(r.Sandbox, model.MaxSandboxName)
	return t
}

// request notes what was asked: the operation's name and root fields, and
// the query text and variables, clipped (model.MaxLoggedQuery, …). prep
// is nil when the document was refused; its query text is then copied
// from the body, which the caller reuses.
func (t *runtimeTrace) request(req exec.Request, prep *exec.Prepared) {
	if t == nil || t.noLog {
		return
	}
	if prep != nil {
		t.requestLogged(logged(req, prep))
		return
	}
	e := &t.entry
	e.Query = strings.Clone(model.Clip(req.Query, model.MaxLoggedQuery))
	e.OperationName = strings.Clone(model.Clip(req.OperationName, model.MaxLoggedName))
	if len(req.Variables) > 0 {
		if b, err := json.Marshal(req.Variables); err == nil {
			e.Variables = clipJSON(b, model.MaxLoggedVariables)
		}
	}
}

// requestLogged notes what was asked, as logged (a prepared request's, or
// a cached answer's).
func (t *runtimeTrace) requestLogged(l loggedRequest) {
	if t == nil || t.noLog {
		return
	}
	e := &t.entry
	e.Query, e.OperationName, e.RootFields, e.Variables = l.query, l.operationName, l.rootFields, l.variables
}

// clipJSON returns b, or when it is longer than max a JSON string holding
// its clipped text (model.Clip), so the log's variables stay JSON. The
// string's escapes (a quote or backslash takes two bytes) may lengthen it:
// the text is clipped shorter until the string is at most max plus the
// clip's mark.
func clipJSON(b []byte, max int) json.RawMessage {
	if len(b) <= max {
		return b
	}
	var buf bytes.Buffer
	for n := max; ; n /= 2 {
		buf.Reset()
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(model.Clip(string(b), n))
		if s := bytes.TrimSuffix(buf.Bytes(), []byte("\n")); len(s) <= max+32 || n == 0 {
			return json.RawMessage(bytes.Clone(s))
		}
	}
}

// inject makes the fault step for a prepared request of project pr: the
// X-Mock-Fault header, or the settings of the first root field's
// operation that has them, else the project's. done says the fault
// answers instead of executing (res, or err for a bad header). A latency
// alone leaves done false; the caller adds it to the result (finish).
func (t *runtimeTrace) inject(pr *model.Project, rootFields []string, header, sandbox string, out *model.RuntimeBuffers) (res *model.RuntimeResult, done bool, err error) {
	if t == nil {
		return nil, false, nil
	}
	h, err := model.ParseFaultHeader(header)
	if err != nil {
		return nil, true, err
	}
	scope, s := faultScope(pr, rootFields)
	if s == nil && !h.Set {
		return nil, false, nil
	}
	var seq uint64
	if !h.Set { // a forced fault does not move the sequence
		seq = t.log.seq(scope, s)
	}
	t.fault = model.DecideFault(s, seq, h)
	t.fields = newRequestFaults(t.log, scope, s, seq, h, sandbox)
	switch {
	case t.fault.HTTPStatus != 0:
		return t.finish(&model.RuntimeResult{Status: t.fault.HTTPStatus, Refusal: t.fault.Refusal()}), true, nil
	case t.fault.ErrorCode != "":
		t.code, t.codeKnown = t.fault.ErrorCode, true
		return t.finish(&model.RuntimeResult{Status: 200, Body: faultErrorBody(out.Body[:0], t.fault.ErrorCode)}), true, nil
	}
	return nil, false, nil
}

// faultScope returns the settings that apply to a request selecting
// rootFields, and the scope whose sequence they draw from: the first
// root field's operation (a connection field <name>Connection is its
// list operation's) that has settings, else the project's ("").
func faultScope(pr *model.Project, rootFields []string) (string, *model.FaultSettings) {
	for _, f := range rootFields {
		for _, o := range pr.Operations {
			if o.Faults != nil && (o.Name == f || o.Name+"Connection" == f) {
				return o.ID, o.Faults
			}
		}
	}
	return "", pr.Faults
}

// faultErrorBody appends the GraphQL answer of an injected error: no data,
// one error with the code.
func faultErrorBody(buf []byte, code model.Code) []byte {
	buf = append(buf, `{"data":null,"errors":[{"message":"injected fault: error=`...)
	buf = append(buf, code...)
	buf = append(buf, ` (X-Mock-Fault or the project's fault settings)","extensions":{"code":"`...)
	buf = append(buf, code...)
	return append(buf, `"}}]}`...)
}

// finish adds the decided latency and its description to res (nil-safe).
func (t *runtimeTrace) finish(res *model.RuntimeResult) *model.RuntimeResult {
	if t != nil && res != nil {
		if f := t.faultString(); f != "" {
			res.Delay, res.Fault = t.fault.Delay, f
		}
	}
	return res
}

// faultString is what was injected: the decision's, then field=<path> for
// each field rule that fired, in the order they fired.
func (t *runtimeTrace) faultString() string {
	if t.fields == nil || len(t.fields.firedPaths) == 0 {
		if t.fault.None() {
			return "" // the usual request: nothing to format
		}
		return t.fault.String()
	}
	s := t.fault.String()
	for _, p := range t.fields.firedPaths {
		if s != "" {
			s += ";"
		}
		s += "field=" + p
	}
	return s
}

// fieldFaults returns the request's field rules for exec.WithFieldFaults,
// nil (a nil interface) when it has none (nil-safe).
func (t *runtimeTrace) fieldFaults() exec.FieldFaults {
	if t == nil || t.fields == nil {
		return nil
	}
	return t.fields
}

// resultCode notes the code of a result made on this node.
func (t *runtimeTrace) resultCode(qr *exec.Result) {
	if t == nil {
		return
	}
	t.codeKnown = true
	if qr != nil && len(qr.Errors) > 0 {
		c, _ := qr.Errors[0].Extensions["code"].(string)
		t.code = model.Code(c)
	}
}

// done records the request's outcome in the project's log. The duration
// includes the injected latency: it is what the client waits.
func (t *runtimeTrace) done(res *model.RuntimeResult, err error, now time.Time) {
	if t == nil || t.noLog {
		return
	}
	e := &t.entry
	e.At = t.start
	e.DurationMs = float64(now.Sub(t.start)+t.fault.Delay) / float64(time.Millisecond)
	switch {
	case err != nil:
		e.Code = model.ErrorCode(err)
	case res.Refusal != nil:
		e.Status, e.Code = res.Status, res.Refusal.Code
	case res.Status == 400:
		e.Status, e.Code = 400, res.GraphQLCode
	default:
		e.Status, e.Code = res.Status, t.code
		if !t.codeKnown {
			e.Code = firstErrorCode(res.Body)
		}
	}
	e.Fault = t.faultString()
	t.log.record(e)
}

// firstErrorCode returns errors[0].extensions.code of a GraphQL answer
// made elsewhere (a mutation's, by the grain), "" when it has none. The
// top-level errors member comes after data, so it is the last one.
func firstErrorCode(body []byte) model.Code {
	i := bytes.LastIndex(body, []byte(`"errors":[`))
	if i < 0 {
		return ""
	}
	var errs []struct {
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	}
	dec := json.NewDecoder(bytes.NewReader(body[i+len(`"errors":`):]))
	if dec.Decode(&errs) != nil || len(errs) == 0 {
		return ""
	}
	return model.Code(model.Clip(errs[0].Extensions.Code, 64))
}

// warm has the project grain compile its runtime (pb.ProjectSDL) when
// the snapshot v has none yet, so that the request is prepared here and
// its fault decided by operation. It returns the new snapshot, or v when
// that fails (the grain then answers the request as before).
func (p *RuntimePath) warm(ctx context.Context, projectID string, v *projectView) *projectView {
	if _, err := p.grains.ask(ctx, kindProject, projectID, &pb.ProjectSDL{Access: Access{System: true}.wire()}); err != nil {
		return v
	}
	if nv := p.grains.env.Local.project(projectID); nv != nil {
		return nv
	}
	return v
}
