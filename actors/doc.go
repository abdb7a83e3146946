// Package actors holds mockgql's grains — protoactor-go virtual actors, one
// per project, API key, account, user, slug and dataset — their state, the
// sweeper, the runtime path and Client, the typed client the use cases of
// package app ask grains through. Every grain owns its state: it loads it from
// the Store when it activates, changes it only on its own goroutine, and
// writes a checkpoint before it answers a call that changed it, so an
// acknowledged write survives kill -9.
//
// Grains talk to each other and to their clients through typed protobuf messages
// (actors/internal/pb, because in a cluster they cross nodes): one request
// message per grain method, each with a pb.Header, answered by a pb.Reply.
// A grain method answers a typed result (replies.go: a closed set of reply
// types, each of which puts itself into the Reply), and the typed client
// builds each request and decodes each reply, so nothing outside actors
// sees the protocol. What a
// kind can be asked is the type switch of its behavior's handle (for a
// project, projectGrain.handle in project.go). actors does not import app:
// the compiler keeps the direction http → app → actors → graphql → model.
// Kinds and identities (the kind names are unexported: a caller names a
// kind by the client method it calls):
//
//	project/<projectID>   model, mock-data overlay, its sandboxes' overlays (sandbox.go), compiled runtime schema
//	apikey/<sha256(key)>  one API key: scope, expiry, revocation
//	account/<accountID>   plan, members, project list, key index
//	user/<email>          password hash, accounts
//	slug/<slug>           which project answers a slug
//	dataset/<importCode>  a curated dataset's catalog entry; dataset/<account>:<importCode> an account's own
//	session/, adoption/, login/, ip/, ipm/, ipp/, ipc/  sessions, adoption tokens, login back-off, per-IP windows
//
//	c := env.RuntimePath().Client() // env: Store, Caller, Pool, Clock, ...
//	pr, err := c.Project(projectID, actors.Access{System: true}).Get(ctx)
//
// # The exported surface
//
// Package app depends on actors only through what is exported, and
// app/boundary_test.go keeps it to an allow-list; the protocol (package
// actors/internal/pb) is internal, so no caller outside actors builds a
// request or reads a reply, and no exported name carries a protocol type
// (surface_test.go). What is exported, and why:
//
//   - The typed client, Client, and its per-grain clients, each a value
//     naming one grain whose methods take and return domain values:
//     ProjectClient (Client.Project: reads, model edits, transfers),
//     AccountClient, UserClient, KeyClient, SessionClient, AdoptionClient
//     and SlugClient; beside them the calls that are no one grain's
//     (ReadDataset, CommitDataset, AcquireActor, AdmitLogin, CheckWindow,
//     AccountUsage, …; client_kinds.go, client_datasets.go), AuthKey and
//     ResolveSlug (also the runtime path's), and the sweeper (Sweep,
//     RunSweeper, started by cmd/mockgql). Kinds, catalog keys, quota
//     periods and access on the wire stay behind it.
//   - What the client's methods take and return: Access (the caller's
//     rights a project client carries), the grains' records (AccountState
//     with its KeyRef index, UserState, SessionClaim, AdoptionState,
//     ActorGrant, ProjectOwner, DatasetMeta) and the arguments of a few
//     requests (NewUser, InviteAnswer).
//   - Wiring, used by cmd/mockgql and the tests that start nodes: Env and
//     its parts (Store, Caller, Clock, SystemClock, Config, DefaultConfig,
//     Metrics, Local with its read of a project's snapshot, Pool with
//     NewPool and the upload and catalog operations the use cases run),
//     Kinds (the grain producers), RuntimePath (the order of runtime checks;
//     Env.RuntimePath), GrainKeyOf, GrainRecords and Everywhere (how the
//     replicated store groups and places grain records), ProtocolVersion
//     (advertised in memberlist metadata by package cluster).
//
// IDs, tokens and secret hashing are package ids, which app uses directly.
package actors
