package actors

import (
	"strconv"
	"sync"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/model"
)

// Latency and error injection, and the request log (issue 14): the state
// both keep per project activation, the settings edit, and the project
// grain's methods that read and clear the log. The runtime path's step
// that uses them is in runtime_faults.go.

// faultState is one project activation's runtime fault state: the
// sequence number of each scope's draws and the request log. It lives as
// long as the activation (a re-activation or a failover starts afresh) and
// is shared by every view the activation publishes, like its keyCache.
// Safe for concurrent use; each method holds the lock for a few
// assignments only.
type faultState struct {
	mu     sync.Mutex
	seqs   map[string]*faultSeq // "" the project's settings, else an operation ID
	log    []model.RequestLogEntry
	nums   []uint64 // each entry's number, its ID once read (formatted then, not per request)
	next   int      // where the next entry goes once log is full
	ids    uint64
	prefix string // the activation's, so that IDs differ across activations
}

// faultSeq is a scope's sequence: the settings it counts under, the
// number of requests drawn since they were set, and how many requests
// each count rule of the settings has fired in.
type faultSeq struct {
	settings model.FaultSettings
	n        uint64
	fired    []int
}

func newFaultState() *faultState {
	return &faultState{seqs: map[string]*faultSeq{}, prefix: ids.RandomString(6) + "-"}
}

// seq returns the sequence number of the next request of scope under s,
// restarting at 0 when s differs from the settings it counted under.
func (f *faultState) seq(scope string, s *model.FaultSettings) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.scope(scope, s).n
	f.seqs[scope].n++
	return n
}

// scope returns the sequence of scope under s, restarted when s differs
// from the settings it counted under. The caller holds f.mu.
func (f *faultState) scope(scope string, s *model.FaultSettings) *faultSeq {
	q := f.seqs[scope]
	if q == nil || !q.settings.Equal(*s) {
		q = &faultSeq{settings: *s, fired: make([]int, len(s.FieldRules))}
		f.seqs[scope] = q
	}
	return q
}

// fire counts a request in which count rule i of scope's settings s
// fires, and reports whether it may: false once it fired in Count
// requests since s was set.
func (f *faultState) fire(scope string, s *model.FaultSettings, i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.scope(scope, s)
	if q.fired[i] >= s.FieldRules[i].Count {
		return false
	}
	q.fired[i]++
	return true
}

// record appends e to the log, dropping the oldest entry past
// model.RequestLogSize, and numbers it.
func (f *faultState) record(e *model.RequestLogEntry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids++
	if len(f.log) < model.RequestLogSize {
		f.log, f.nums = append(f.log, *e), append(f.nums, f.ids)
		return
	}
	f.log[f.next], f.nums[f.next] = *e, f.ids
	f.next = (f.next + 1) % model.RequestLogSize
}

// entries returns at most limit entries, newest first.
func (f *faultState) entries(limit int) []model.RequestLogEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := min(max(limit, 0), len(f.log))
	out := make([]model.RequestLogEntry, 0, n)
	for i := 0; i < n; i++ {
		j := (f.next - 1 - i + 2*len(f.log)) % len(f.log) // next stays 0 until the log is full
		e := f.log[j]
		e.ID = f.prefix + strconv.FormatUint(f.nums[j], 10)
		out = append(out, e)
	}
	return out
}

// clear empties the log; the sequences go on.
func (f *faultState) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log, f.nums, f.next = nil, nil, 0
}

// setFaults is the "setFaults" edit: the project's settings, or one
// operation's when operationID is set; nil clears them. Each edit gets a
// new Rev, so it restarts the scope's sequence even with the same values.
// The settings are not part of the runtime schema, so the model version
// stays.
func setFaults(p *model.Project, operationID string, s *model.FaultSettings) (result, error) {
	if s != nil {
		if err := s.Check(); err != nil {
			return nil, err
		}
		c := *s
		c.Rev = faultsRev(p) + 1
		s = &c
	}
	if operationID == "" {
		p.Faults = s
		return projectReply{p}, nil
	}
	for _, o := range p.Operations {
		if o.ID == operationID {
			o.Faults = s
			return projectReply{p}, nil
		}
	}
	return nil, model.Errorf(model.CodeNotFound, "operation not found")
}

// faultsRev is the highest Rev of p's settings.
func faultsRev(p *model.Project) int64 {
	var rev int64
	if p.Faults != nil {
		rev = p.Faults.Rev
	}
	for _, o := range p.Operations {
		if o.Faults != nil {
			rev = max(rev, o.Faults.Rev)
		}
	}
	return rev
}

// requestLogState is the activation's fault state, made on first use.
func (p *projectGrain) requestLogState() *faultState {
	if p.faults == nil {
		p.faults = newFaultState()
	}
	return p.faults
}

// requestLog answers pb.ProjectRequestLog (VIEWER and above): the newest
// entries first, at most limit (model.RequestLogSize when limit is not
// positive or larger).
func (p *projectGrain) requestLog(limit int) []model.RequestLogEntry {
	if limit <= 0 || limit > model.RequestLogSize {
		limit = model.RequestLogSize
	}
	return p.requestLogState().entries(limit)
}

// wireFaults and faultSettingsOf convert fault settings to and from the
// wire; nil (no settings) is an absent message.
func wireFaults(f *model.FaultSettings) *pb.FaultSettings {
	if f == nil {
		return nil
	}
	w := &pb.FaultSettings{LatencyMinMs: int32(f.LatencyMinMs), LatencyMaxMs: int32(f.LatencyMaxMs), ErrorRate: f.ErrorRate,
		ErrorCode: string(f.ErrorCode), HttpStatus: int32(f.HTTPStatus), Seed: f.Seed}
	for _, r := range f.FieldRules {
		w.FieldRules = append(w.FieldRules, wireFieldRule(r))
	}
	return w
}

func wireFieldRule(r model.FieldRule) *pb.FieldRule {
	return &pb.FieldRule{Path: r.Path, Message: r.Message, Code: string(r.Code),
		Extensions: r.Extensions, Rate: r.Rate, Count: int64(r.Count), Sandbox: r.Sandbox}
}

func fieldRuleOf(r *pb.FieldRule) model.FieldRule {
	return model.FieldRule{Path: r.Path, Message: r.Message, Code: model.Code(r.Code),
		Extensions: r.Extensions, Rate: r.Rate, Count: int(r.Count), Sandbox: r.Sandbox}
}

func faultSettingsOf(w *pb.FaultSettings) *model.FaultSettings {
	if w == nil {
		return nil
	}
	f := &model.FaultSettings{LatencyMinMs: int(w.LatencyMinMs), LatencyMaxMs: int(w.LatencyMaxMs), ErrorRate: w.ErrorRate,
		ErrorCode: model.Code(w.ErrorCode), HTTPStatus: int(w.HttpStatus), Seed: w.Seed}
	for _, r := range w.FieldRules {
		f.FieldRules = append(f.FieldRules, fieldRuleOf(r))
	}
	return f
}

// wireRequestLog and requestLogOf convert a request log to and from the wire.
func wireRequestLog(entries []model.RequestLogEntry) *pb.RequestLog {
	l := &pb.RequestLog{Entries: make([]*pb.RequestLogEntry, 0, len(entries))}
	for _, e := range entries {
		l.Entries = append(l.Entries, &pb.RequestLogEntry{Id: e.ID, At: stamp(e.At), OperationName: e.OperationName,
			RootFields: e.RootFields, Query: e.Query, Variables: e.Variables, Status: int32(e.Status),
			DurationMs: e.DurationMs, Code: string(e.Code), Fault: e.Fault, Subscription: e.Subscription, Events: int64(e.Events), Sandbox: e.Sandbox})
	}
	return l
}

// requestLogOf is the request log a reply carries.
func requestLogOf(r *pb.Reply) []model.RequestLogEntry {
	w := r.GetRequestLog()
	if w == nil {
		return nil
	}
	out := make([]model.RequestLogEntry, 0, len(w.Entries))
	for _, e := range w.Entries {
		out = append(out, model.RequestLogEntry{ID: e.Id, At: unstamp(e.At), OperationName: e.OperationName,
			RootFields: e.RootFields, Query: e.Query, Variables: e.Variables, Status: int(e.Status),
			DurationMs: e.DurationMs, Code: model.Code(e.Code), Fault: e.Fault, Subscription: e.Subscription, Events: int(e.Events), Sandbox: e.Sandbox})
	}
	return out
}
