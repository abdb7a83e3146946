package actors

import (
	"sync"

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
	keys     sync.Map // key hash → *model.APIKey (never changed once stored)
}

// projectView is an immutable read snapshot of a project grain.
type projectView struct {
	project *model.Project // read-only
	rt      *graphql.Runtime
	ov      *graphql.Overlay // concurrency-safe; shared with the grain
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

// publishKey stores a copy of k and returns it (for withdrawKey).
func (l *Local) publishKey(hash string, k *model.APIKey) *model.APIKey {
	if l == nil {
		return nil
	}
	c := *k
	l.keys.Store(hash, &c)
	return &c
}

// withdrawKey removes k, and only k.
func (l *Local) withdrawKey(hash string, k *model.APIKey) {
	if l != nil && k != nil {
		l.keys.CompareAndDelete(hash, k)
	}
}

func (l *Local) key(hash string) *model.APIKey {
	if l == nil {
		return nil
	}
	v, _ := l.keys.Load(hash)
	k, _ := v.(*model.APIKey)
	return k
}
