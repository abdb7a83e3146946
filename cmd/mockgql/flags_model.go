package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors"
)

// modelConfig is the settings that bound a project's model and the life of
// guest projects and adoption links (docs: "Reference: bounds"). Zero
// values (tests that build a serveConfig by hand) keep the defaults of
// actors.DefaultConfig.
type modelConfig struct {
	ValueBytes, Attributes int
	ProjectBytes           planBytes
	SessionProjectBytes    int64
	GuestTTL               time.Duration
	AdoptionLinks          int
	SandboxTTL             time.Duration
	SandboxBytes           int64
	StateBytes             int64
}

func modelFlags(fs *flag.FlagSet, c *modelConfig) {
	a := actors.DefaultConfig()
	m := a.Limits.Model
	c.ProjectBytes = planBytes(m.ProjectBytes)
	fs.IntVar(&c.ValueBytes, "model-value-bytes", m.ValueBytes, "largest constantValue, generator options, computedExpression or sourceMapping.path of an attribute, in bytes")
	fs.IntVar(&c.Attributes, "model-attributes", m.Attributes, "attributes a table of an account project may have (guest and session projects: --session-attributes)")
	fs.Var(&c.ProjectBytes, "model-project-bytes", "largest stored model of an account project in bytes, by plan: STARTER,PROFESSIONAL,TEAM,ENTERPRISE")
	fs.Int64Var(&c.SessionProjectBytes, "session-project-bytes", m.SessionProjectBytes, "largest stored model of a guest or session project in bytes")
	fs.DurationVar(&c.GuestTTL, "guest-ttl", a.GuestTTL, "a guest project is deleted this long after its last use")
	fs.IntVar(&c.AdoptionLinks, "adoption-links", a.AdoptionLinks, "live adoption links a session project keeps; a new one replaces the oldest")
	fs.DurationVar(&c.SandboxTTL, "sandbox-ttl", a.SandboxTTL, "a sandbox (X-Mock-Sandbox) is forgotten this long after its last request")
	fs.Int64Var(&c.SandboxBytes, "sandbox-bytes", a.SandboxBytes, "largest stored size of one sandbox's changes, in bytes")
	fs.Int64Var(&c.StateBytes, "state-bytes", a.StateBytes, "largest stored size of one named state's changes (saveMockState), in bytes")
}

// apply sets the non-zero settings on the grains' config.
func (c modelConfig) apply(a *actors.Config) {
	m := &a.Limits.Model
	setPositive(&m.ValueBytes, c.ValueBytes)
	setPositive(&m.Attributes, c.Attributes)
	if c.ProjectBytes != (planBytes{}) {
		m.ProjectBytes = c.ProjectBytes
	}
	if c.SessionProjectBytes > 0 {
		m.SessionProjectBytes = c.SessionProjectBytes
	}
	if c.GuestTTL > 0 {
		a.GuestTTL = c.GuestTTL
	}
	setPositive(&a.AdoptionLinks, c.AdoptionLinks)
	if c.SandboxTTL > 0 {
		a.SandboxTTL = c.SandboxTTL
	}
	if c.SandboxBytes > 0 {
		a.SandboxBytes = c.SandboxBytes
	}
	if c.StateBytes > 0 {
		a.StateBytes = c.StateBytes
	}
}

// planBytes is a flag value of four byte counts, one a plan.
type planBytes [4]int64

func (p *planBytes) String() string {
	s := make([]string, len(p))
	for i, n := range p {
		s[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(s, ",")
}

func (p *planBytes) Set(v string) error {
	parts := strings.Split(v, ",")
	if len(parts) != len(p) {
		return fmt.Errorf("want %d comma-separated byte counts (STARTER,PROFESSIONAL,TEAM,ENTERPRISE)", len(p))
	}
	var out planBytes
	for i, s := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a positive byte count", s)
		}
		out[i] = n
	}
	*p = out
	return nil
}
