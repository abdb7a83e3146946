package actors

import (
	"bytes"
	"strings"

	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// requestFaults is the exec.FieldFaults of one runtime request (issue 30,
// docs/using/faults.md): the field rules of the settings that apply to it,
// or the X-Mock-Fault header's one. Each rule is decided once per request,
// at its first matching position: a rate rule by model.FieldRuleFires on
// the request's sequence number, a count rule by its scope's count
// (faultState.fire), so a request that never selects a rule's field does
// not use up its count. A rule that fires fails every position it
// matches in the request. Used by one execution at a time.
type requestFaults struct {
	log   *faultState
	scope string
	s     *model.FaultSettings // nil: the header's rule, which always fires
	seq   uint64
	rules []model.FieldRule
	state []ruleState
	fault []*exec.FieldFault // each rule's, made when it fires
	// firedPaths are the paths of the rules that fired, in that order,
	// for the request log and X-Mock-Fault-Applied.
	firedPaths []string
}

type ruleState uint8

const (
	ruleUndecided ruleState = iota
	ruleFires
	ruleSilent
)

// newRequestFaults returns the field rules of a request of scope under
// settings s with sequence number seq, or of header h when it is set, for
// a request of sandbox ("" none); nil when none may fire. A rule with a
// sandbox fires only in requests of that sandbox.
func newRequestFaults(log *faultState, scope string, s *model.FaultSettings, seq uint64, h model.FaultHeader, sandbox string) *requestFaults {
	rf := &requestFaults{log: log, scope: scope, s: s, seq: seq}
	switch {
	case h.Set && h.Forced.Field == "":
		return nil
	case h.Set:
		rf.s, rf.rules = nil, []model.FieldRule{{Path: h.Forced.Field, Code: h.Forced.FieldCode}}
	case s == nil || len(s.FieldRules) == 0:
		return nil
	default:
		rf.rules = s.FieldRules
	}
	rf.state, rf.fault = make([]ruleState, len(rf.rules)), make([]*exec.FieldFault, len(rf.rules))
	any := false
	for i := range rf.rules {
		if r := &rf.rules[i]; r.Sandbox != "" && r.Sandbox != sandbox {
			rf.state[i] = ruleSilent
		} else {
			any = true
		}
	}
	if !any {
		return nil
	}
	return rf
}

// FieldFault implements exec.FieldFaults: the first rule that matches the
// position and fires in this request.
func (rf *requestFaults) FieldFault(root, typ string, names []string) *exec.FieldFault {
	for i := range rf.rules {
		if rf.state[i] == ruleSilent || !rf.rules[i].Matches(root, typ, names) {
			continue
		}
		if rf.state[i] == ruleUndecided && !rf.decide(i) {
			continue
		}
		return rf.fault[i]
	}
	return nil
}

// decide decides rule i for this request, on its first match.
func (rf *requestFaults) decide(i int) bool {
	r := &rf.rules[i]
	fires := true
	switch {
	case rf.s == nil:
	case r.Count > 0:
		fires = rf.log.fire(rf.scope, rf.s, i)
	default:
		fires = model.FieldRuleFires(rf.s, i, rf.seq)
	}
	if !fires {
		rf.state[i] = ruleSilent
		return false
	}
	ext, _ := r.ExtensionMap() // checked when the settings were set
	rf.state[i], rf.fault[i] = ruleFires, &exec.FieldFault{Code: r.Code, Message: r.ErrorMessage(), Extensions: ext}
	rf.firedPaths = append(rf.firedPaths, r.Path)
	return true
}

// firingFor decides, for a request whose execution runs in the project's
// grain (a mutation, or a query the node has no view for), every rule not
// yet decided whose field the request's text names, and returns the rules
// that fire, for the grain (pb.ProjectRuntime.field_rules). The grain
// cannot consult the node's counts, so a count rule counts such a request
// when its text names the field, even where the field is not selected.
func (rf *requestFaults) firingFor(body []byte) []model.FieldRule {
	if rf == nil {
		return nil
	}
	var out []model.FieldRule
	for i := range rf.rules {
		r := &rf.rules[i]
		name := r.Path[strings.LastIndexByte(r.Path, '.')+1:]
		if rf.state[i] == ruleUndecided && bytes.Contains(body, []byte(name)) {
			rf.decide(i)
		}
		if rf.state[i] == ruleFires {
			out = append(out, *r)
		}
	}
	return out
}

// grainFaults returns the exec.FieldFaults of rules that were decided to
// fire by the node that took the request (firingFor); nil for none.
func grainFaults(rules []model.FieldRule) exec.FieldFaults {
	if len(rules) == 0 {
		return nil
	}
	return &requestFaults{rules: rules, state: make([]ruleState, len(rules)), fault: make([]*exec.FieldFault, len(rules))}
}

// mayFaultFields reports whether a request of project pr with the
// X-Mock-Fault value header may get field errors: the header names a
// field, or (no header) some settings of pr hold field rules.
func mayFaultFields(pr *model.Project, header string) bool {
	if header != "" {
		return strings.Contains(strings.ToLower(header), "field")
	}
	if pr.Faults != nil && len(pr.Faults.FieldRules) > 0 {
		return true
	}
	for _, o := range pr.Operations {
		if o.Faults != nil && len(o.Faults.FieldRules) > 0 {
			return true
		}
	}
	return false
}
