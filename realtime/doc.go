// Package realtime carries GraphQL subscriptions to browsers: the
// graphql-transport-ws protocol (the graphql-ws library's, which Apollo
// Client, urql and GraphiQL speak) over WebSocket, and GraphQL over
// Server-Sent Events (the graphql-sse protocol's distinct-connections
// mode), both over one Runtime that authorises a connection and runs its
// operations. A Hub fans a node's events out to its subscribers.
//
// Every connection is bounded: its subscriptions (Config.MaxSubscriptions),
// the bytes of one message it sends (Config.MaxMessageBytes), the events
// queued for it (Config.QueueEvents, Config.QueueBytes a subscription) and
// the time it may take to say who it is (Config.InitTimeout) or to read
// what it is sent (Config.WriteTimeout). A client that reads too slowly is
// closed with 1013 ("try again later"), which graphql-ws's client retries,
// instead of being buffered for without bound.
//
// A connection lasts as long as its Session: once the Runtime ends it
// (Session.Ended: its credential revoked, expired or its project gone),
// each running operation gets an error with the reason and the WebSocket
// closes with 4403, an SSE stream ends after its error. Each operation a
// WebSocket starts can be counted against the client's per-IP window
// (Server.CountOperation).
//
//	hub := realtime.NewHub(realtime.DefaultConfig())
//	srv := realtime.NewServer(realtime.DefaultConfig(), runtime)
//	mux.Handle("/mock/{slug}/graphql", srv) // WebSocket upgrades and text/event-stream requests
//	hub.Publish(realtime.Event{Topic: projectID, Data: change, Size: len(change.Row)})
package realtime
