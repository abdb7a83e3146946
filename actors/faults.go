package actors

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

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

// faultSeq is a scope's sequence: the settings it counts under and the
// number of requests drawn since they were set.
type faultSeq struct {
	settings model.FaultSettings
	n        uint64
}

func newFaultState() *faultState {
	return &faultState{seqs: map[string]*faultSeq{}, prefix: randomString(6) + "-"}
}

// seq returns the sequence number of the next request of scope under s,
// restarting at 0 when s differs from the settings it counted under.
func (f *faultState) seq(scope string, s model.FaultSettings) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.seqs[scope]
	if q == nil || q.settings != s {
		q = &faultSeq{settings: s}
		f.seqs[scope] = q
	}
	n := q.n
	q.n++
	return n
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
func setFaults(p *model.Project, operationID string, s *model.FaultSettings) (any, error) {
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
		return p, nil
	}
	for _, o := range p.Operations {
		if o.ID == operationID {
			o.Faults = s
			return p, nil
		}
	}
	return nil, model.Errorf(model.ErrNotFound, "operation not found")
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

// requestLogArgs is the argument of the project grain's requestLog method.
type requestLogArgs struct {
	Limit int `json:"limit"`
}

// requestLogCall serves the project grain's "requestLog" (VIEWER and
// above: the newest entries first) and "clearRequestLog" (EDITOR and
// above) from this activation's log.
func (p *projectGrain) requestLogCall(method string, a projectArgs) (any, error) {
	if p.faults == nil {
		p.faults = newFaultState()
	}
	if method == "clearRequestLog" {
		p.faults.clear()
		return nil, nil
	}
	args := requestLogArgs{Limit: model.RequestLogSize}
	if len(a.Args) > 0 {
		if err := json.Unmarshal(a.Args, &args); err != nil {
			return nil, model.Errorf(model.ErrBadUserInput, "requestLog: %v", err)
		}
	}
	return p.faults.entries(min(args.Limit, model.RequestLogSize)), nil
}

// SetFaults sets the fault settings of a project, or of one of its
// operations when operationID is set (EDITOR and above); nil clears them.
// Invalid settings are BAD_USER_INPUT naming the field, and change
// nothing. It returns the project.
func (s *Service) SetFaults(ctx context.Context, p model.Principal, projectID, operationID string, f *model.FaultSettings) (*model.Project, error) {
	if f != nil {
		if err := f.Check(); err != nil {
			return nil, err
		}
	}
	var pr model.Project
	if err := s.edit(ctx, p, projectID, "setFaults", editArgs{OperationID: operationID, Faults: f}, &pr); err != nil {
		return nil, err
	}
	return &pr, nil
}

// RequestLog returns the newest limit entries (at most
// model.RequestLogSize) of the project's request log, newest first
// (VIEWER and above). The log is held by the project's grain in memory.
func (s *Service) RequestLog(ctx context.Context, p model.Principal, projectID string, limit int) ([]model.RequestLogEntry, error) {
	b, err := json.Marshal(requestLogArgs{Limit: limit})
	if err != nil {
		return nil, err
	}
	var out []model.RequestLogEntry
	if err := s.projectCall(ctx, p, projectID, "requestLog", projectArgs{Args: b}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ClearRequestLog empties the project's request log (EDITOR and above)
// and returns the project.
func (s *Service) ClearRequestLog(ctx context.Context, p model.Principal, projectID string) (*model.Project, error) {
	if err := s.projectCall(ctx, p, projectID, "clearRequestLog", projectArgs{}, nil); err != nil {
		return nil, err
	}
	return s.Project(ctx, p, projectID, "")
}
