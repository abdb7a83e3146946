package engine

import (
	"container/list"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/mockgql/mockgql/dataset"
)

// cacheKey names one cached result. Datasets and overlays are held weakly,
// so a cache entry never keeps a replaced dataset (re-import) or a dropped
// overlay alive; a new dataset never matches an old entry.
type cacheKey struct {
	owner   uint64 // the Runtime (a shared Cache holds many)
	Kind    cacheKind
	Table   string
	Dataset weak.Pointer[dataset.Dataset]
	Overlay weak.Pointer[Overlay]
	Version int64
	Spec    string
}

// cacheKind tells what a cache entry holds.
type cacheKind uint8

// Kinds of cache entries.
const (
	cacheBase    cacheKind = iota // filtered, sorted dataset rows (no overlay)
	cacheList                     // the same with the overlay merged in
	cacheVariant                  // variant membership Bitset
	cacheOverlay                  // a table's overlay resolved against a dataset
	cacheMaxID                    // numeric-id statistics of a dataset
)

// lru is a size-bounded, concurrency-safe least-recently-used cache. Cost is
// in units of 4 bytes (one int32 row number); every entry costs at least
// entryCost so that the number of entries stays bounded too.
type lru struct {
	mu    sync.Mutex
	max   int64
	cost  int64
	items map[cacheKey]*list.Element
	order list.List // front = most recent
}

const entryCost = 32

type lruEntry struct {
	key   cacheKey
	value any
	cost  int64
}

func newLRU(max int64) *lru {
	return &lru{max: max, items: map[cacheKey]*list.Element{}}
}

// get returns the value under k and marks it recently used.
func (c *lru) get(k cacheKey) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).value, true
}

// put stores v under k with the given cost, evicting the least recently
// used entries beyond the bound. A value costing more than the whole bound
// is not stored.
func (c *lru) put(k cacheKey, v any, cost int64) {
	cost += entryCost
	if cost > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.cost -= e.Value.(*lruEntry).cost
		c.order.Remove(e)
	}
	c.items[k] = c.order.PushFront(&lruEntry{key: k, value: v, cost: cost})
	c.cost += cost
	for c.cost > c.max {
		e := c.order.Back()
		ent := e.Value.(*lruEntry)
		c.order.Remove(e)
		delete(c.items, ent.key)
		c.cost -= ent.cost
	}
}

// Cache is a query cache several Runtimes can share (graphql.Options.Cache): a
// node's one budget for all its projects, so that memory stays bounded
// however many projects are busy. The least recently used entries go
// first, whichever Runtime made them.
type Cache struct {
	l      *lru
	owners atomic.Uint64 // numbers the Runtimes sharing the cache, the owners of its entries
}

// NewCache returns a cache bounded at maxRows cached row numbers (4 bytes
// each).
func NewCache(maxRows int) *Cache { return &Cache{l: newLRU(int64(maxRows))} }

// Usage returns the cache's cost (cached row numbers plus a fixed cost per
// entry), its bound and its number of entries. It is safe for concurrent
// use.
func (c *Cache) Usage() (cost, bound int64, entries int) {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	return c.l.cost, c.l.max, len(c.l.items)
}

// View returns a new owner's part of the cache: the entries a Runtime makes
// through it are its own, under the cache's shared bound.
func (c *Cache) View() CacheView { return CacheView{l: c.l, owner: c.owners.Add(1)} }

// CacheView is one Runtime's part of a Cache: its keys carry the owner.
type CacheView struct {
	l     *lru
	owner uint64
}

// getOrMake returns the value under k, computing it with make on a miss and
// storing it unless make fails. Concurrent misses may compute twice; both
// results are equal.
func getOrMake[T any](c CacheView, k cacheKey, make func() (T, int64, error)) (T, error) {
	k.owner = c.owner
	if v, ok := c.l.get(k); ok {
		return v.(T), nil
	}
	v, cost, err := make()
	if err == nil {
		c.l.put(k, v, cost)
	}
	return v, err
}
