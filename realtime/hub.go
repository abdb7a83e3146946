package realtime

import (
	"context"
	"errors"
	"sync"
)

// Event is one change published to the subscribers of a topic (a project).
// Data is what the subscription's Runtime makes its result from; Size is
// what the event counts against a subscriber's QueueBytes.
type Event struct {
	Topic string
	Data  any
	Size  int
}

// ErrSlowConsumer is returned by Subscriber.Next once events came faster
// than the subscriber took them and its queue overflowed: it has lost
// events and must start again (resubscribe and read the current state).
var ErrSlowConsumer = errors.New("realtime: subscriber too slow, events dropped")

// ErrClosed is returned by Subscriber.Next after Close.
var ErrClosed = errors.New("realtime: subscriber closed")

// Hub fans events out to the subscribers of their topic on this node. Its
// methods are safe for concurrent use. Publish never blocks on a
// subscriber: each has a bounded queue, and one that overflows is told so
// by ErrSlowConsumer instead of holding the publisher or memory.
type Hub struct {
	cfg    Config
	mu     sync.Mutex
	topics map[string]map[*Subscriber]struct{}
}

// NewHub returns a hub whose subscribers queue at most cfg.QueueEvents
// events and cfg.QueueBytes bytes each.
func NewHub(cfg Config) *Hub {
	return &Hub{cfg: cfg, topics: map[string]map[*Subscriber]struct{}{}}
}

// Subscribe returns a subscriber to topic's events that match (nil: all).
// match runs on the publisher's goroutine and must be quick. The caller
// must Close it.
func (h *Hub) Subscribe(topic string, match func(Event) bool) *Subscriber {
	s := &Subscriber{hub: h, topic: topic, match: match, ready: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.topics[topic] == nil {
		h.topics[topic] = map[*Subscriber]struct{}{}
	}
	h.topics[topic][s] = struct{}{}
	return s
}

// Publish queues e for every subscriber of e.Topic that matches it and
// returns how many took it (a subscriber whose queue overflows is counted
// out and gets ErrSlowConsumer). Events of one topic published by one
// goroutine reach each subscriber in order.
func (h *Hub) Publish(e Event) int {
	h.mu.Lock()
	subs := make([]*Subscriber, 0, len(h.topics[e.Topic]))
	for s := range h.topics[e.Topic] {
		subs = append(subs, s)
	}
	h.mu.Unlock()
	n := 0
	for _, s := range subs {
		if (s.match == nil || s.match(e)) && s.offer(e, h.cfg) {
			n++
		}
	}
	return n
}

// Subscribers returns the number of subscribers of topic.
func (h *Hub) Subscribers(topic string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.topics[topic])
}

func (h *Hub) remove(s *Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.topics[s.topic], s)
	if len(h.topics[s.topic]) == 0 {
		delete(h.topics, s.topic)
	}
}

// Subscriber receives the events of one topic, in order, through Next.
type Subscriber struct {
	hub   *Hub
	topic string
	match func(Event) bool
	ready chan struct{} // a token when the queue went from empty to not

	mu       sync.Mutex
	queue    []Event
	bytes    int
	overflow bool
	closed   bool
}

// offer queues e unless s is closed or overflowing; it reports whether s
// took it.
func (s *Subscriber) offer(e Event, cfg Config) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.overflow {
		return false
	}
	if len(s.queue) >= cfg.QueueEvents || s.bytes+e.Size > cfg.QueueBytes {
		s.overflow, s.queue, s.bytes = true, nil, 0
		s.signal()
		return false
	}
	s.queue = append(s.queue, e)
	s.bytes += e.Size
	s.signal()
	return true
}

func (s *Subscriber) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next returns the next event, waiting for one until ctx is done. It
// returns ErrSlowConsumer once the queue overflowed and ErrClosed after
// Close.
func (s *Subscriber) Next(ctx context.Context) (Event, error) {
	for {
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return Event{}, ErrClosed
		case s.overflow:
			s.mu.Unlock()
			return Event{}, ErrSlowConsumer
		case len(s.queue) > 0:
			e := s.queue[0]
			s.queue[0] = Event{}
			s.queue = s.queue[1:]
			s.bytes -= e.Size
			s.mu.Unlock()
			return e, nil
		}
		s.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// Close stops s: it leaves the hub, its queue is dropped, and Next
// returns ErrClosed. Close may be called more than once.
func (s *Subscriber) Close() {
	s.mu.Lock()
	already := s.closed
	s.closed, s.queue, s.bytes = true, nil, 0
	s.signal()
	s.mu.Unlock()
	if !already {
		s.hub.remove(s)
	}
}
