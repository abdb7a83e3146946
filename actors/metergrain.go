package actors

import (
	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// Kinds of the grains that only count.
const (
	// kindIP is a client IP's per-minute runtime window: ip/<address>.
	kindIP = "ip"
	// kindSession is a browser or assistant session: session/<sha256 of
	// the mgq_session cookie>. It holds the session's daily runtime quota.
	kindSession = "session"
)

// meterGrain is a grain whose state is one meter (a client IP's window). The meter is published on the grain's node so
// the local path counts without a round trip.
type meterGrain struct {
	p     period
	limit func(Config) int64
	// persist checkpoints the meter at most once a second, so that a
	// crash or failover forgets at most that much of the window.
	persist bool
	m       *meter
}

type meterCheckpoint struct {
	Meter meterState `json:"meter"`
}

func (mg *meterGrain) load(g *grain) error {
	var st meterCheckpoint
	if mg.persist {
		if _, err := g.loadJSON(&st); err != nil {
			return err
		}
	}
	mg.m = newMeter(mg.p, mg.limit(g.env.Config), st.Meter)
	g.env.Local.publishMeter(g.kind, g.id, mg.m)
	return nil
}

func (mg *meterGrain) handle(g *grain, c *call) (result, error) {
	switch m := c.req.(type) {
	case *pb.Consume:
		ok, retry := mg.m.take(g.env.Clock.Now())
		if !ok {
			return nil, limitError(g.kind, retry)
		}
		return nil, nil
	case *pb.Lease:
		return serveLease(mg.m, m, g.env.Clock.Now(), func(retry int) error { return limitError(g.kind, retry) })
	case *pb.UsageQuery:
		n, q, start, end := mg.m.usage(g.env.Clock.Now())
		return quotaUsage{Requests: n, Quota: q, Start: start, ResetsAt: end}, nil
	}
	return nil, unknownRequest(g, c)
}

// limitError is the 429 of a full window or a used-up quota.
func limitError(kind string, retry int) error {
	switch kind {
	case kindIP:
		if retry >= 0 && retry < len(ipLimitErrors) {
			return ipLimitErrors[retry]
		}
		return ipLimitError(retry)
	case kindIPManagement, kindIPPublic, kindIPCreate:
		return windowError(kind, retry)
	}
	return quotaError(retry)
}

func ipLimitError(retry int) *model.Error {
	return &model.Error{Code: model.CodeTooManyRequests, RetryAfter: retry,
		Message: "too many runtime requests from this IP address this minute"}
}

// ipLimitErrors are the per-IP window's refusals for each Retry-After of a
// minute, made once: a flood of refusals should not allocate them one by
// one. They are shared, so nobody may modify them.
var ipLimitErrors = func() []*model.Error {
	v := make([]*model.Error, 61)
	for i := range v {
		v[i] = ipLimitError(i)
	}
	return v
}()

func (mg *meterGrain) flush(g *grain) {
	if !mg.persist || mg.m == nil {
		return
	}
	if st, dirty := mg.m.checkpoint(); dirty {
		if err := g.saveJSON(meterCheckpoint{Meter: st}); err != nil {
			g.env.Log.Warn("meter checkpoint failed", "kind", g.kind, "err", err)
		}
	}
}

// stopped checkpoints the meter; a per-minute window is deleted instead:
// a grain stops after minutes without calls, when its window is long over,
// so keeping it would only leave a record per client IP ever seen.
func (mg *meterGrain) stopped(g *grain) {
	if mg.persist && mg.p == perMinute {
		if err := g.saveJSON(nil); err != nil {
			g.env.Log.Warn("meter checkpoint failed", "kind", g.kind, "err", err)
		}
	} else {
		mg.flush(g)
	}
	g.env.Local.withdrawMeter(g.kind, g.id, mg.m)
}
