package actors

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/engine"
	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/graphql/exec"
	"github.com/mockgql/mockgql/model"
)

// The node's answer cache: the bytes of a query's answer, kept for the
// next request with the same body to the same project while nothing it
// read has changed. A repeated query then costs the checks of the runtime
// path (credential, quota, request log, faults) and the write of its
// bytes, not a decode, a document lookup and an execution (issue 33).
//
// An answer is a function of the request body, the project's compiled
// runtime, its overlay version and the datasets the query bound (graphql
// and engine are pure: no clock, no randomness but seeded). An entry keeps
// all four and is served only while each is still the current one, so a
// hit gives the bytes an execution would give, exactly. Only answers
// without errors, of at most maxCachedAnswer bytes (the response budget's
// free allowance, so a hit holds no budget, as its execution would not),
// to bodies of at most maxCachedBody bytes are kept. The cache holds at
// most Config.AnswerCacheBytes (docs/reference/bounds.md), least recently used
// first out (a clock: a hit only sets a bit). Its references are weak, so
// an entry never keeps a replaced runtime or dataset alive.

// DefaultAnswerCacheBytes is the default bound of the node's answer cache
// (Config.AnswerCacheBytes): bodies, answers and a fixed cost per entry.
const DefaultAnswerCacheBytes = 16 << 20

const (
	// maxCachedAnswer is the largest answer kept.
	maxCachedAnswer = 32 << 10
	// maxCachedBody is the largest request body whose answer is kept.
	maxCachedBody = 16 << 10
	// answerEntryCost is what an entry costs beyond its bytes.
	answerEntryCost = 512
)

// answerCache is the node's answer cache. Safe for concurrent use.
type answerCache struct {
	seed  maphash.Seed
	max   int64
	mu    sync.RWMutex
	m     map[uint64]*cachedAnswer
	ring  []*cachedAnswer // insertion order, for the clock hand
	hand  int
	bytes int64
	puts  atomic.Int64 // entries stored, for tests
	hits  atomic.Int64
}

// cachedAnswer is one kept answer and what it was computed from.
type cachedAnswer struct {
	hash    uint64
	project string
	body    []byte // the request body
	answer  []byte
	rt      weak.Pointer[graphql.Runtime]
	ov      weak.Pointer[engine.Overlay] // zero for a project without one
	version int64                        // the overlay's
	sets    []boundDataset
	roots   []string // the operation's root fields, for the fault step
	log     loggedRequest
	cost    int64
	idx     int // in the ring
	used    atomic.Bool
}

// boundDataset is a dataset the query read, by the code it asked for.
type boundDataset struct {
	code string
	d    weak.Pointer[dataset.Dataset]
}

// loggedRequest is what the request log notes of a request
// (runtimeTrace.request), kept with the answer so that a hit logs the
// same without decoding and preparing the body.
type loggedRequest struct {
	query, operationName string
	rootFields           []string
	variables            json.RawMessage
}

// newAnswerCache returns a cache of max bytes, or nil (none) when max is 0.
func newAnswerCache(max int64) *answerCache {
	if max <= 0 {
		return nil
	}
	return &answerCache{seed: maphash.MakeSeed(), max: max, m: map[uint64]*cachedAnswer{}}
}

func (c *answerCache) key(project string, body []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	_, _ = h.WriteString(project)
	_ = h.WriteByte(0)
	_, _ = h.Write(body)
	return h.Sum64()
}

// get returns the entry for body to project that is still valid for the
// snapshot v and the pool, or nil.
func (c *answerCache) get(project string, body []byte, v *projectView, pool engine.Pool) *cachedAnswer {
	if c == nil || len(body) > maxCachedBody {
		return nil
	}
	h := c.key(project, body)
	c.mu.RLock()
	e := c.m[h]
	c.mu.RUnlock()
	if e == nil || e.project != project || !bytes.Equal(e.body, body) || !e.current(v, pool) {
		return nil
	}
	e.used.Store(true)
	c.hits.Add(1)
	return e
}

// current reports whether what e was computed from is still what a query
// of v would read.
func (e *cachedAnswer) current(v *projectView, pool engine.Pool) bool {
	if e.rt.Value() != v.rt || e.ov.Value() != v.ov || v.ov.State().Version() != e.version {
		return false
	}
	for _, s := range e.sets {
		if pool.Dataset(s.code) != s.d.Value() {
			return false
		}
	}
	return true
}

// put keeps e, evicting entries not used since the hand last passed them.
func (c *answerCache) put(e *cachedAnswer) {
	e.cost = int64(len(e.body)+len(e.answer)+len(e.project)+len(e.log.query)+len(e.log.variables)) + answerEntryCost
	if c == nil || e.cost > c.max {
		return
	}
	e.hash = c.key(e.project, e.body)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[e.hash]; old != nil { // a stale answer: e takes its place
		c.bytes -= old.cost
		e.idx, c.ring[old.idx] = old.idx, e
	} else {
		for c.bytes+e.cost > c.max && len(c.ring) > 0 {
			c.evictOne()
		}
		e.idx = len(c.ring)
		c.ring = append(c.ring, e)
	}
	c.m[e.hash] = e
	c.bytes += e.cost
	c.puts.Add(1)
}

// evictOne moves the clock hand past used entries (clearing their bit)
// to the first unused one and removes it. The caller holds mu.
func (c *answerCache) evictOne() {
	for {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		e := c.ring[c.hand]
		if e.used.Swap(false) {
			c.hand++
			continue
		}
		last := len(c.ring) - 1
		if c.hand != last {
			c.ring[c.hand] = c.ring[last]
			c.ring[c.hand].idx = c.hand
		}
		c.ring[last] = nil
		c.ring = c.ring[:last]
		delete(c.m, e.hash)
		c.bytes -= e.cost
		return
	}
}

// recordingPool is a pool that notes the datasets a query bound, so that
// its answer is served again only while they are the pool's.
type recordingPool struct {
	pool engine.Pool
	mu   sync.Mutex
	sets []boundDataset
}

// Dataset implements engine.Pool.
func (r *recordingPool) Dataset(code string) *dataset.Dataset {
	d := r.pool.Dataset(code)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sets {
		if s.code == code {
			return d
		}
	}
	var wp weak.Pointer[dataset.Dataset]
	if d != nil {
		wp = weak.Make(d)
	}
	r.sets = append(r.sets, boundDataset{code: code, d: wp})
	return d
}

// cacheable reports whether the answer of a query made from snapshot v at
// overlay version before may be kept: no errors, small, and the overlay
// did not move while it ran.
func cacheable(qr *exec.Result, v *projectView, before int64, answer []byte) bool {
	return qr != nil && len(qr.Errors) == 0 && len(answer) <= maxCachedAnswer && v.ov.State().Version() == before
}

// newCachedAnswer builds the entry of an answer computed from v through
// the recording pool rec.
func newCachedAnswer(project string, body, answer []byte, v *projectView, version int64, rec *recordingPool, req exec.Request, prep *exec.Prepared) *cachedAnswer {
	e := &cachedAnswer{project: project, body: bytes.Clone(body), answer: bytes.Clone(answer), rt: weak.Make(v.rt),
		version: version, sets: rec.sets, roots: prep.RootFields()}
	if v.ov != nil {
		e.ov = weak.Make(v.ov)
	}
	e.log = logged(req, prep)
	return e
}

// logged is what the request log notes of a prepared request.
func logged(req exec.Request, prep *exec.Prepared) loggedRequest {
	l := loggedRequest{query: model.Clip(prep.Source(), model.MaxLoggedQuery), operationName: model.Clip(prep.OperationName(), model.MaxLoggedName),
		rootFields: prep.RootFields()}
	if len(l.rootFields) > model.MaxLoggedRootFields {
		l.rootFields = append([]string(nil), l.rootFields[:model.MaxLoggedRootFields]...)
	}
	if len(req.Variables) > 0 {
		if b, err := json.Marshal(req.Variables); err == nil {
			l.variables = clipJSON(b, model.MaxLoggedVariables)
		}
	}
	return l
}

// answerCached makes the rest of steps 6 and 7 for a request whose answer
// is cached: the request log and the fault step as for any request, then
// the kept bytes instead of an execution.
func answerCached(e *cachedAnswer, v *projectView, r *model.RuntimeRequest, out *model.RuntimeBuffers, t *runtimeTrace) (*model.RuntimeResult, bool, error) {
	t.requestLogged(e.log)
	if res, done, err := t.inject(v.project, e.roots, r.FaultHeader, r.Sandbox, out); done {
		return res, true, err
	}
	t.resultCode(nil) // kept answers have no errors
	out.Body = append(out.Body[:0], e.answer...)
	return t.finish(&model.RuntimeResult{Status: 200, Body: out.Body}), true, nil
}

// AnswerCacheStats is what the node's answer cache holds and has served.
type AnswerCacheStats struct {
	Hits, Stored int64 // answers served from it, answers stored, since the start
	Entries      int
	Bytes, Bound int64 // its cost (bodies, answers, a fixed cost per entry) and bound
}

// AnswerCache returns the answer cache's statistics. Safe for concurrent use.
func (p *RuntimePath) AnswerCache() AnswerCacheStats {
	c := p.answers
	if c == nil {
		return AnswerCacheStats{}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return AnswerCacheStats{Hits: c.hits.Load(), Stored: c.puts.Load(), Entries: len(c.m), Bytes: c.bytes, Bound: c.max}
}
