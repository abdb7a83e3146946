package actors

import "github.com/asynkron/protoactor-go/actor"

// Grain kinds.
const (
	kindAPIKey  = "apikey"
	kindAccount = "account"
	kindUser    = "user"
	kindSlug    = "slug"
	// kindAdoption is a one-time adoption token: adoption/<sha256>.
	kindAdoption = "adoption"
)

// Kinds returns the producers of every grain kind, bound to env; the node
// registers them with the cluster.
func Kinds(env *Env) map[string]actor.Producer {
	kinds := map[string]actor.Producer{
		kindProject: func() actor.Actor { return newGrain(env, &projectGrain{}) },
		kindAPIKey:  func() actor.Actor { return newGrain(env, &keyGrain{}) },
		kindAccount: func() actor.Actor { return newGrain(env, &accountGrain{}) },
		kindUser:    func() actor.Actor { return newGrain(env, &userGrain{}) },
		kindSlug:    func() actor.Actor { return newGrain(env, &slugGrain{}) },
		kindDataset: func() actor.Actor { return newGrain(env, &datasetGrain{}) },
		kindIP: func() actor.Actor {
			return newGrain(env, &meterGrain{p: perMinute, limit: func(c Config) int64 { return int64(c.IPLimit) }, persist: true})
		},
		kindSession:  func() actor.Actor { return newGrain(env, &sessionGrain{}) },
		kindAdoption: func() actor.Actor { return newGrain(env, &adoptionGrain{}) },
	}
	for kind, p := range windowKinds(env) {
		kinds[kind] = p
	}
	return kinds
}
