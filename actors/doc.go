// Package actors holds mockgql's grains — protoactor-go virtual actors, one
// per project, API key, account, user, slug and dataset — and Service, the
// client the HTTP layer calls. Every grain owns its state: it loads it from
// the Store when it activates, changes it only on its own goroutine, and
// writes a checkpoint before it answers a call that changed it, so an
// acknowledged write survives kill -9.
//
// Grains talk to each other and to Service through typed protobuf messages
// (actors/pb, because in a cluster they cross nodes): one request message
// per grain method, each with a pb.Header, answered by a pb.Reply. What a
// kind can be asked is the type switch of its behavior's handle; Service
// asks through the typed client (Client.Ask). Kinds and identities:
//
//	project/<projectID>   model, mock-data overlay, compiled runtime schema
//	apikey/<sha256(key)>  one API key: scope, expiry, revocation
//	account/<accountID>   plan, members, project list, key index
//	user/<email>          password hash, accounts
//	slug/<slug>           which project answers a slug
//	dataset/<importCode>  a curated dataset's catalog entry; dataset/<account>:<importCode> an account's own
//
//	svc := actors.NewService(env)            // env: Store, Caller, Pool, Clock, ...
//	p, err := svc.CreateProject(ctx, principal, "Shop", "")
package actors
