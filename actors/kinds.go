package actors

import "github.com/asynkron/protoactor-go/actor"

// Grain kinds.
const (
	KindProject = kindProject
	KindAPIKey  = "apikey"
	KindAccount = "account"
	KindUser    = "user"
	KindSlug    = "slug"
	KindDataset = kindDataset
	// KindAdoption is a one-time adoption token: adoption/<sha256>.
	KindAdoption = "adoption"
)

// Kinds returns the producers of every grain kind, bound to env; the node
// registers them with the cluster.
func Kinds(env *Env) map[string]actor.Producer {
	kinds := map[string]actor.Producer{
		KindProject: func() actor.Actor { return newGrain(env, &projectGrain{}) },
		KindAPIKey:  func() actor.Actor { return newGrain(env, &keyGrain{}) },
		KindAccount: func() actor.Actor { return newGrain(env, &accountGrain{}) },
		KindUser:    func() actor.Actor { return newGrain(env, &userGrain{}) },
		KindSlug:    func() actor.Actor { return newGrain(env, &slugGrain{}) },
		KindDataset: func() actor.Actor { return newGrain(env, &datasetGrain{}) },
		KindIP: func() actor.Actor {
			return newGrain(env, &meterGrain{p: perMinute, limit: func(c Config) int64 { return int64(c.IPLimit) }, persist: true})
		},
		KindSession:  func() actor.Actor { return newGrain(env, &sessionGrain{}) },
		KindAdoption: func() actor.Actor { return newGrain(env, &adoptionGrain{}) },
	}
	for kind, p := range windowKinds(env) {
		kinds[kind] = p
	}
	return kinds
}
