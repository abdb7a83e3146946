package actors

import (
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/mockgql/mockgql/model"
)

// The per-IP windows besides the runtime's (kindIP), each a meterGrain with
// fixed one-minute windows, and the per-e-mail login back-off (loginGrain).
const (
	// kindIPManagement counts a client IP's /graphql and /datasets
	// requests a minute: ipm/<address>.
	kindIPManagement = "ipm"
	// kindIPPublic counts a client IP's /public-graphql requests a
	// minute: ipp/<address>.
	kindIPPublic = "ipp"
	// kindIPCreate counts what a client IP creates a minute: sign-ups,
	// guest and session projects: ipc/<address>.
	kindIPCreate = "ipc"
	// kindLogin is the login back-off of one e-mail address, whatever IPs
	// the attempts come from: login/<sha256 of the normalised e-mail>.
	// It is not checkpointed (a restart forgets it), so that guessing
	// unknown addresses writes nothing to disk.
	kindLogin = "login"
)

// Windows named by CheckWindow.
const (
	windowManagement = "management"
	windowPublic     = "public"
	windowCreate     = "create"
)

// windowKinds returns the producers of the window grains.
func windowKinds(env *Env) map[string]actor.Producer {
	window := func(limit func(Config) int, persist bool) actor.Producer {
		return func() actor.Actor {
			return newGrain(env, &meterGrain{p: perMinute, limit: func(c Config) int64 { return int64(limit(c)) }, persist: persist})
		}
	}
	return map[string]actor.Producer{
		kindIPManagement: window(func(c Config) int { return c.IPLimitManagement }, true),
		kindIPPublic:     window(func(c Config) int { return c.IPLimitPublic }, true),
		kindIPCreate:     window(func(c Config) int { return c.IPLimitCreate }, true),
		kindLogin:        func() actor.Actor { return newGrain(env, &loginGrain{}) },
	}
}

// isIPKind reports whether kind is a per-IP window, whose refusals a node
// remembers (refusedIPs) and whose errors say which window is full.
func isIPKind(kind string) bool {
	switch kind {
	case kindIP, kindIPManagement, kindIPPublic, kindIPCreate:
		return true
	}
	return false
}

// windowError is the 429 of a full window of kind other than kindIP.
func windowError(kind string, retry int) *model.Error {
	what := map[string]string{
		kindIPManagement: "management API requests from this IP address",
		kindIPPublic:     "public API requests from this IP address",
		kindIPCreate:     "sign-ups, guest and session projects from this IP address",
	}[kind]
	if what == "" {
		what = strings.TrimSpace(kind + " requests")
	}
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry, Message: "too many " + what + " this minute; wait and retry"}
}
