package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// subscriptionsBench (issue 24, docs/using/realtime.md) opens 1,000
// graphql-transport-ws subscribers of smallCreated on one node and
// measures (1) the events delivered a second while mutations follow one
// another, each event going to every subscriber, and (2) per event and
// subscriber, the time from the mutation's acknowledgement (its HTTP
// answer) to the event's arrival: p50 and p99. An event that arrives
// before its acknowledgement (the grain publishes once the write is
// durable, just before it answers) counts as 0.
func subscriptionsBench(bin, dir string, o options, rep *report) error {
	const subscribers = 1000
	m, err := startMockgql(bin, filepath.Join(dir, "subs"), "--ip-limit", "0", "--ip-limit-management", "0", "--max-conns-per-ip", "0",
		"--sub-per-ip", "5000", "--sub-per-project", "5000")
	if err != nil {
		return err
	}
	defer m.stop()
	if err := benchAccount(m); err != nil {
		return err
	}
	if _, err := m.post("/datasets/small?format=json", string(rows(1000))); err != nil {
		return err
	}
	key, err := project(m, "Subs", "subs", false)
	if err != nil {
		return err
	}
	if err := subscriptionsOn(m); err != nil {
		return err
	}
	subs, err := openSubscribers(m.addr, key, subscribers)
	if err != nil {
		return err
	}
	defer subs.close()
	mutate := func(i int) (time.Time, error) {
		_, err := m.post("/mock/subs/graphql", fmt.Sprintf(`{"query":"mutation { createSmall(input: {name: \"ev %d\"}) { id } }"}`, i), "X-API-Key", key)
		return time.Now(), err
	}
	// Every subscriber must be in the hub before the measurement: one
	// event that all of them receive.
	if err := subs.await(func() error { _, err := mutate(-1); return err }, 30*time.Second); err != nil {
		return err
	}
	// (1) throughput: mutations back to back for the duration.
	start, n, cpu0 := time.Now(), 0, m.cpu()
	for time.Since(start) < o.duration {
		if _, err := mutate(n); err != nil {
			return err
		}
		n++
	}
	want := int64(subscribers * n)
	if err := subs.waitTotal(want, 60*time.Second); err != nil {
		return err
	}
	elapsed, cpu := time.Since(start), m.cpu()-cpu0
	rep.note("subscriptions: %d mutations in %v to %d subscribers on one node (one core): %.0f events delivered a second (%.0f mutations a second); server CPU %.0f%%, %v an event",
		n, elapsed.Round(time.Millisecond), subscribers, float64(subscribers*n)/elapsed.Seconds(), float64(n)/elapsed.Seconds(),
		100*cpu.Seconds()/elapsed.Seconds(), (cpu / time.Duration(subscribers*n)).Round(100*time.Nanosecond))
	// (2) latency: one mutation at a time, every subscriber's arrival.
	var lat []time.Duration
	for i := range 20 {
		subs.reset()
		acked, err := mutate(100000 + i)
		if err != nil {
			return err
		}
		if err := subs.waitTotal(subscribers, 30*time.Second); err != nil {
			return err
		}
		lat = append(lat, subs.since(acked)...)
	}
	slices.Sort(lat)
	rep.note("subscriptions: acknowledged mutation to event at each of %d subscribers (%d events): p50 %v, p99 %v",
		subscribers, len(lat), lat[len(lat)/2].Round(10*time.Microsecond), lat[len(lat)*99/100].Round(10*time.Microsecond))
	return nil
}

// subscriptionsOn turns the subscriptions option on for searchSmall.
func subscriptionsOn(m *mockgql) error {
	d, err := m.gql(`{ project(slug: "subs") { operations { id name } } }`, nil)
	if err != nil {
		return err
	}
	for _, o := range d["project"].(map[string]any)["operations"].([]any) {
		if op := o.(map[string]any); op["name"] == "searchSmall" {
			_, err := m.gql(`mutation($o:ID!){ updateOperation(input:{operationId:$o, options:{subscriptions: true}}) { id } }`, map[string]any{"o": op["id"]})
			return err
		}
	}
	return fmt.Errorf("no operation searchSmall")
}

// subscriberSet is the bench's subscribers and what they received.
type subscriberSet struct {
	conns []*websocket.Conn
	total atomic.Int64
	mu    sync.Mutex
	at    []time.Time // arrival times since reset
	wg    sync.WaitGroup
}

// openSubscribers opens n connections, each subscribed to smallCreated.
func openSubscribers(addr, key string, n int) (*subscriberSet, error) {
	s := &subscriberSet{}
	init, _ := json.Marshal(map[string]any{"type": "connection_init", "payload": map[string]any{"X-API-Key": key}})
	sub := []byte(`{"type":"subscribe","id":"1","payload":{"query":"subscription { smallCreated { id name price } }"}}`)
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, _, err := websocket.Dial(ctx, "ws://"+addr+"/mock/subs/graphql", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err == nil {
			err = c.Write(ctx, websocket.MessageText, init)
		}
		if err == nil {
			_, _, err = c.Read(ctx) // connection_ack
		}
		if err == nil {
			err = c.Write(ctx, websocket.MessageText, sub)
		}
		cancel()
		if err != nil {
			s.close()
			return nil, fmt.Errorf("subscriber %d: %w", len(s.conns), err)
		}
		s.conns = append(s.conns, c)
		s.wg.Add(1)
		go s.read(c)
	}
	return s, nil
}

func (s *subscriberSet) read(c *websocket.Conn) {
	defer s.wg.Done()
	for {
		_, data, err := c.Read(context.Background())
		if err != nil {
			return
		}
		if strings.Contains(string(data), `"type":"next"`) {
			now := time.Now()
			s.mu.Lock()
			s.at = append(s.at, now)
			s.mu.Unlock()
			s.total.Add(1)
		}
	}
}

// await repeats fire until every subscriber received an event.
func (s *subscriberSet) await(fire func() error, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		s.reset()
		if err := fire(); err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
		s.mu.Lock()
		got := len(s.at)
		s.mu.Unlock()
		if got >= len(s.conns) {
			s.total.Store(0)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d subscribers got the warm-up event", got, len(s.conns))
		}
	}
}

// waitTotal waits until the subscribers received want events in all.
func (s *subscriberSet) waitTotal(want int64, within time.Duration) error {
	deadline := time.Now().Add(within)
	for s.total.Load() < want {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d events arrived", s.total.Load(), want)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// reset forgets the arrivals and the total.
func (s *subscriberSet) reset() {
	s.mu.Lock()
	s.at = s.at[:0]
	s.mu.Unlock()
	s.total.Store(0)
}

// since returns each arrival's delay after t (0 when it came first).
func (s *subscriberSet) since(t time.Time) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]time.Duration, len(s.at))
	for i, a := range s.at {
		out[i] = max(a.Sub(t), 0)
	}
	return out
}

func (s *subscriberSet) close() {
	for _, c := range s.conns {
		c.CloseNow()
	}
	s.wg.Wait()
}
