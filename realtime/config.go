package realtime

import "time"

// Config bounds the connections of a Server and the queues of a Hub.
type Config struct {
	// MaxSubscriptions is the most operations one connection runs at once.
	MaxSubscriptions int
	// MaxPerIP and MaxPerProject are the most operations one client IP,
	// and one project, run at once on this node, over every connection.
	MaxPerIP, MaxPerProject int
	// MaxMessageBytes bounds one message a client sends (a subscribe with
	// its document and variables).
	MaxMessageBytes int64
	// QueueEvents and QueueBytes bound the events waiting for one
	// subscription; past either, the subscriber is too slow and its
	// connection is closed.
	QueueEvents int
	QueueBytes  int
	// InitTimeout is how long a WebSocket may stay open without a
	// connection_init (graphql-ws closes with 4408 past it).
	InitTimeout time.Duration
	// WriteTimeout bounds the write of one message to a client.
	WriteTimeout time.Duration
	// PingInterval is how often the server pings an idle WebSocket; a
	// client that answers no ping within PingInterval is closed.
	PingInterval time.Duration
	// IdleTimeout closes a connection that runs no operation for this long.
	IdleTimeout time.Duration
}

// DefaultConfig returns the bounds a node uses unless told otherwise.
func DefaultConfig() Config {
	return Config{
		MaxSubscriptions: 32,
		MaxPerIP:         128,
		MaxPerProject:    2000,
		MaxMessageBytes:  1 << 20,
		QueueEvents:      256,
		QueueBytes:       1 << 20,
		InitTimeout:      3 * time.Second,
		WriteTimeout:     10 * time.Second,
		PingInterval:     30 * time.Second,
		IdleTimeout:      5 * time.Minute,
	}
}
