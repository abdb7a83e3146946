package actors

import (
	"sync"
	"time"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// Local is a node's registry of read snapshots that grains active on this
// node publish. A runtime request for a project or key whose grain lives
// here reads the snapshot directly instead of making an actor round trip;
// everything else (writes, mutations, grains on other nodes) goes through
// the grain. A grain publishes a new snapshot before it acknowledges the
// write that changed it, and withdraws it when it stops, so a reader never
// sees state older than the last acknowledged write. Safe for concurrent use.
type Local struct {
	projects sync.Map // project ID → *projectView
	keys     sync.Map // key hash → *keyView
	meters   sync.Map // meterKey → *meter
}

// meterKey names a meter by its grain: account/<id>, session/<hash>,
// ip/<addr>, project/<id> (a struct, so a lookup builds no string).
type meterKey struct{ kind, id string }

// projectView is an immutable read snapshot of a project grain.
type projectView struct {
	project *model.Project // read-only
	rt      *graphql.Runtime
	ov      *graphql.Overlay // concurrency-safe; shared with the grain
	session string           // hash of the owning session (guest and session projects)
	keys    *keyCache        // shared by every view of one activation
	lease   *quotaLease
	faults  *faultState // shared by every view of one activation
	events  *eventRing  // shared by every view of one activation; nil before its first event
	// sandboxes are shared by every view of one activation; nil before the first.
	sandboxes *sandboxSet
}

func (l *Local) publishProject(id string, v *projectView) {
	if l != nil {
		l.projects.Store(id, v)
	}
}

// withdrawProject removes v, and only v: a newer activation's view stays.
func (l *Local) withdrawProject(id string, v *projectView) {
	if l != nil && v != nil {
		l.projects.CompareAndDelete(id, v)
	}
}

func (l *Local) project(id string) *projectView {
	if l == nil {
		return nil
	}
	v, _ := l.projects.Load(id)
	pv, _ := v.(*projectView)
	return pv
}

func (l *Local) publishKey(hash string, v *keyView) {
	if l != nil {
		l.keys.Store(hash, v)
	}
}

// withdrawKey removes v, and only v.
func (l *Local) withdrawKey(hash string, v *keyView) {
	if l != nil && v != nil {
		l.keys.CompareAndDelete(hash, v)
	}
}

func (l *Local) key(hash string) *keyView {
	if l == nil {
		return nil
	}
	v, _ := l.keys.Load(hash)
	k, _ := v.(*keyView)
	return k
}

func (l *Local) publishMeter(kind, id string, m *meter) {
	if l != nil {
		l.meters.Store(meterKey{kind, id}, m)
	}
}

func (l *Local) withdrawMeter(kind, id string, m *meter) {
	if l != nil && m != nil {
		l.meters.CompareAndDelete(meterKey{kind, id}, m)
	}
}

func (l *Local) meter(kind, id string) *meter {
	if l == nil {
		return nil
	}
	v, _ := l.meters.Load(meterKey{kind, id})
	m, _ := v.(*meter)
	return m
}

// Project returns the read snapshot of project id when its grain is active
// on this node, and nil when it is not (or l is nil). The snapshot is
// shared: the caller must not modify it. It is never older than the last
// write the grain acknowledged.
func (l *Local) Project(id string) *model.Project {
	if v := l.project(id); v != nil {
		return v.project
	}
	return nil
}

// meterUsage reports the quota meter kind/id (account/<id> and the like)
// at now when its grain is active on this node; ok is false when it is not
// (or l is nil), and the caller asks the grain instead.
func (l *Local) meterUsage(kind, id string, now time.Time) (u quotaUsage, ok bool) {
	m := l.meter(kind, id)
	if m == nil {
		return quotaUsage{}, false
	}
	u.Requests, u.Quota, u.Start, u.ResetsAt = m.usage(now)
	return u, true
}
