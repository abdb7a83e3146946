// Package actors holds mockgql's grains — protoactor-go virtual actors, one
// per project, API key, account, user, slug and dataset — their state, the
// sweeper, the runtime path and Client, the typed client the use cases of
// package app ask grains through. Every grain owns its state: it loads it from
// the Store when it activates, changes it only on its own goroutine, and
// writes a checkpoint before it answers a call that changed it, so an
// acknowledged write survives kill -9.
//
// Grains talk to each other and to their clients through typed protobuf messages
// (actors/pb, because in a cluster they cross nodes): one request message
// per grain method, each with a pb.Header, answered by a pb.Reply. What a
// kind can be asked is the type switch of its behavior's handle (for a
// project, projectGrain.handle in project.go); app.Service asks through the
// typed client (Client.Ask). actors does not import app: the compiler keeps
// the direction http → app → actors → graphql → model. Kinds and identities:
//
//	project/<projectID>   model, mock-data overlay, compiled runtime schema
//	apikey/<sha256(key)>  one API key: scope, expiry, revocation
//	account/<accountID>   plan, members, project list, key index
//	user/<email>          password hash, accounts
//	slug/<slug>           which project answers a slug
//	dataset/<importCode>  a curated dataset's catalog entry; dataset/<account>:<importCode> an account's own
//
//	c := env.RuntimePath().Client() // env: Store, Caller, Pool, Clock, ...
//	r, err := c.Ask(ctx, actors.KindProject, projectID, &pb.ProjectOwnerQuery{Access: actors.SystemAccess})
package actors
