package exec

import (
	"container/list"
	"runtime"
	"sync"
	"sync/atomic"
)

// docCache is a least-recently-used cache of prepared documents keyed by
// query text, safe for concurrent use, bounded by the bytes its documents
// hold (estimated: docCost) rather than by a count, so that a client
// cycling through thousands of distinct queries still parses each once
// while memory stays bounded. The key is the text alone: requests that
// differ only in their variables share one parse. Each operation is O(1).
type docCache struct {
	size     int   // most entries
	maxBytes int64 // most estimated bytes
	mu       sync.Mutex
	bytes    *atomic.Int64 // estimated bytes held; allocated apart for the cleanup
	order    *list.List    // of *document, most recent first
	items    map[string]*list.Element
}

// DocCacheBytes bounds the estimated bytes of an Executor's prepared
// documents: about 1,100 list queries of 120 bytes.
const DocCacheBytes = 8 << 20

// DocCacheProcessBytes bounds the prepared documents of all Executors of
// the process together (a node serves many projects, each with its own
// runtime): past it, a cache that adds a document evicts its own least
// recently used ones first, down to its newest (at most 1.6 MB: texts
// over 64 KB are not kept).
const DocCacheProcessBytes = 128 << 20

// docBytes is the estimated bytes held by all live doc caches; a cache
// that is collected gives its share back.
var docBytes atomic.Int64

// docCost estimates what a prepared document holds: its text, the AST
// (about 24 bytes per byte of text) and its plans: about 7 KB for a
// 120-byte list query (TestDocCacheBytes measures it).
func docCost(query string) int64 { return 4096 + 25*int64(len(query)) }

// cost estimates what d holds: a shape's document is the parse of a text
// of the shape, which may be longer than its key, and its shape
// (TestShapeCacheBytes measures it).
func (d *document) cost() int64 {
	if d.shape == nil {
		return docCost(d.query)
	}
	return 4096 + 25*int64(d.shape.textLen) + 2*int64(len(d.query)) + 4*int64(len(d.shape.starts)) + 64*int64(len(d.shape.lits))
}

// maxCachedQuery is the longest query text the cache keeps: clients repeat
// short queries, while keeping long ones would let a client fill memory
// with a few distinct megabyte bodies.
const maxCachedQuery = 64 << 10

// newDocCache returns a cache of size entries; size < 0 disables it.
func newDocCache(size int) *docCache {
	c := &docCache{size: size, maxBytes: DocCacheBytes, bytes: new(atomic.Int64), order: list.New(), items: make(map[string]*list.Element)}
	runtime.AddCleanup(c, func(held *atomic.Int64) { docBytes.Add(-held.Load()) }, c.bytes)
	return c
}

// add counts n more estimated bytes, in the cache and in the process.
func (c *docCache) add(n int64) {
	c.bytes.Add(n)
	docBytes.Add(n)
}

// get returns the document for query, or nil.
func (c *docCache) get(query string) *document {
	if c.size <= 0 || len(query) > maxCachedQuery {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[query]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*document)
}

// getKey is get for a key in bytes, without copying it.
func (c *docCache) getKey(key []byte) *document {
	if c.size <= 0 || len(key) > maxCachedQuery {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[string(key)]
	if !ok {
		return nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*document)
}

// put adds d, evicting the least recently used document when full. If
// another goroutine added the same query meanwhile, put returns that one,
// so that all callers share one document and its plans.
func (c *docCache) put(d *document) *document {
	if c.size <= 0 || len(d.query) > maxCachedQuery {
		return d
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[d.query]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*document)
	}
	c.items[d.query] = c.order.PushFront(d)
	c.add(d.cost())
	for c.order.Len() > 1 && (c.order.Len() > c.size || c.bytes.Load() > c.maxBytes || docBytes.Load() > DocCacheProcessBytes) {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		od := oldest.Value.(*document)
		delete(c.items, od.query)
		c.add(-od.cost())
	}
	return d
}
