package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/model"
)

// planConfig is the per-plan caps an account grain holds
// (actors/account_limits.go). Values left unset (tests that build a
// serveConfig by hand) keep model.DefaultLimits.
type planConfig struct {
	Projects, Keys, Datasets, DatasetMB, Sandboxes, States planList
	UploadHold                                             time.Duration
}

// planList is one number per plan: STARTER,PROFESSIONAL,TEAM,ENTERPRISE
// (0 = no limit).
type planList struct {
	v   [4]int64
	set bool
}

func (l *planList) String() string {
	s := make([]string, 4)
	for i, n := range l.v {
		s[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(s, ",")
}

func (l *planList) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != 4 {
		return fmt.Errorf("want four numbers, STARTER,PROFESSIONAL,TEAM,ENTERPRISE (0 = no limit), got %q", v)
	}
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a count", p)
		}
		l.v[i] = n
	}
	l.set = true
	return nil
}

// plans sets l's values from ints (the defaults).
func plans[T int | int64](v [4]T, div T) planList {
	var l planList
	for i, n := range v {
		l.v[i] = int64(n / div)
	}
	return l
}

func planFlags(fs *flag.FlagSet, c *planConfig) {
	d, a := model.DefaultLimits(), actors.DefaultConfig()
	c.Projects, c.Keys, c.Datasets = plans(d.Projects, 1), plans(d.KeysPerProject, 1), plans(d.Datasets, 1)
	c.DatasetMB = plans(d.DatasetBytes, 1<<20)
	c.Sandboxes, c.States = plans(d.Sandboxes, 1), plans(d.States, 1)
	c.Projects.set, c.Keys.set, c.Datasets.set, c.DatasetMB.set, c.Sandboxes.set, c.States.set = true, true, true, true, true, true
	fs.Var(&c.Projects, "plan-projects", "projects an account may hold, per plan: STARTER,PROFESSIONAL,TEAM,ENTERPRISE (0 = no limit)")
	fs.Var(&c.Keys, "plan-keys", "API keys a project may hold (revoked ones until deleted), per plan")
	fs.Var(&c.Datasets, "plan-datasets", "own datasets an account may hold (uploads under way count), per plan")
	fs.Var(&c.DatasetMB, "plan-dataset-mb", "stored MB of an account's own datasets (uploads under way count), per plan")
	fs.Var(&c.Sandboxes, "plan-sandboxes", "live sandboxes (X-Mock-Sandbox) a project may hold, per plan; a guest or session project: STARTER's")
	fs.Var(&c.States, "plan-states", "named states (saveMockState) a project may hold, per plan; a guest or session project: STARTER's")
	fs.DurationVar(&c.UploadHold, "upload-hold", a.UploadHold, "how long an upload's room in its account's dataset limits lasts unless settled: the room of an upload whose node died comes back after it")
}

// apply sets the caps the grains hold.
func (c planConfig) apply(a *actors.Config) {
	for i := range 4 {
		if c.Projects.set {
			a.Limits.Projects[i] = int(c.Projects.v[i])
		}
		if c.Keys.set {
			a.Limits.KeysPerProject[i] = int(c.Keys.v[i])
		}
		if c.Datasets.set {
			a.Limits.Datasets[i] = int(c.Datasets.v[i])
		}
		if c.DatasetMB.set {
			a.Limits.DatasetBytes[i] = c.DatasetMB.v[i] << 20
		}
		if c.States.set {
			a.Limits.States[i] = int(c.States.v[i])
		}
		if c.Sandboxes.set {
			a.Limits.Sandboxes[i] = int(c.Sandboxes.v[i])
		}
	}
	if c.UploadHold > 0 {
		a.UploadHold = c.UploadHold
	}
}
