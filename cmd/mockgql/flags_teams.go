package main

import (
	"flag"
	"time"

	"github.com/mockgql/mockgql/actors"
)

// teamsConfig is the settings of invitations. Zero values (tests that
// build a serveConfig by hand) keep the defaults.
type teamsConfig struct {
	InviteLimit int
	InviteTTL   time.Duration
}

func teamsFlags(fs *flag.FlagSet, c *teamsConfig) {
	a := actors.DefaultConfig()
	fs.IntVar(&c.InviteLimit, "invite-limit", a.InviteLimit, "invitations an account may send an hour (inviteMember; at least 1)")
	fs.DurationVar(&c.InviteTTL, "invite-ttl", a.InviteTTL, "life of an invitation and of its invite link")
}

// apply sets the grains' invitation settings.
func (c teamsConfig) apply(a *actors.Config) {
	setPositive(&a.InviteLimit, c.InviteLimit)
	if c.InviteTTL > 0 {
		a.InviteTTL = c.InviteTTL
	}
}
