package main

import (
	"flag"
	"time"

	"github.com/mockgql/mockgql/realtime"
)

// realtimeConfig is the bounds of subscriptions (docs/reference/bounds.md,
// "Subscriptions"). Zero values (tests that build a serveConfig by hand)
// keep realtime.DefaultConfig's.
type realtimeConfig struct {
	MaxSubscriptions, MaxPerIP, MaxPerProject int
	MaxMessageBytes                           int64
	QueueEvents, QueueBytes                   int
	InitTimeout, WriteTimeout                 time.Duration
	PingInterval, IdleTimeout                 time.Duration
}

func realtimeFlags(fs *flag.FlagSet, c *realtimeConfig) {
	d := realtime.DefaultConfig()
	fs.IntVar(&c.MaxSubscriptions, "sub-per-connection", d.MaxSubscriptions, "operations one subscription connection (WebSocket) runs at once")
	fs.IntVar(&c.MaxPerIP, "sub-per-ip", d.MaxPerIP, "subscriptions one client IP runs at once on a node")
	fs.IntVar(&c.MaxPerProject, "sub-per-project", d.MaxPerProject, "subscriptions one project has at once on a node")
	fs.Int64Var(&c.MaxMessageBytes, "sub-message-bytes", d.MaxMessageBytes, "largest message a subscription client sends (a subscribe with its document), in bytes")
	fs.IntVar(&c.QueueEvents, "sub-queue-events", d.QueueEvents, "events waiting for one subscription; past it the client is too slow and is closed (WebSocket 1013)")
	fs.IntVar(&c.QueueBytes, "sub-queue-bytes", d.QueueBytes, "bytes of events waiting for one subscription; past it the client is closed as too slow")
	fs.DurationVar(&c.InitTimeout, "sub-init-timeout", d.InitTimeout, "a WebSocket without connection_init for this long is closed (4408)")
	fs.DurationVar(&c.WriteTimeout, "sub-write-timeout", d.WriteTimeout, "a subscription client that does not take one message for this long is closed as too slow")
	fs.DurationVar(&c.PingInterval, "sub-ping-interval", d.PingInterval, "how often an idle subscription connection is pinged (SSE: a comment line)")
	fs.DurationVar(&c.IdleTimeout, "sub-idle-timeout", d.IdleTimeout, "a WebSocket that runs no operation for this long is closed")
}

// config returns the realtime config: the flags' positive values over the defaults.
func (c realtimeConfig) config() realtime.Config {
	d := realtime.DefaultConfig()
	setPositive(&d.MaxSubscriptions, c.MaxSubscriptions)
	setPositive(&d.MaxPerIP, c.MaxPerIP)
	setPositive(&d.MaxPerProject, c.MaxPerProject)
	setPositive(&d.QueueEvents, c.QueueEvents)
	setPositive(&d.QueueBytes, c.QueueBytes)
	for _, p := range []struct {
		to *time.Duration
		v  time.Duration
	}{{&d.InitTimeout, c.InitTimeout}, {&d.WriteTimeout, c.WriteTimeout},
		{&d.PingInterval, c.PingInterval}, {&d.IdleTimeout, c.IdleTimeout}} {
		if p.v > 0 {
			*p.to = p.v
		}
	}
	if c.MaxMessageBytes > 0 {
		d.MaxMessageBytes = c.MaxMessageBytes
	}
	return d
}
