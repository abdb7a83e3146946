package graphql

import (
	"container/list"
	"sync"
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
	bytes    int64
	order    *list.List // of *document, most recent first
	items    map[string]*list.Element
}

// DocCacheBytes bounds the estimated bytes of an Executor's prepared
// documents: about 1,100 list queries of 120 bytes.
const DocCacheBytes = 8 << 20

// docCost estimates what a prepared document holds: its text, the AST
// (about 24 bytes per byte of text) and its plans: about 7 KB for a
// 120-byte list query (TestDocCacheBytes measures it).
func docCost(query string) int64 { return 4096 + 25*int64(len(query)) }

// maxCachedQuery is the longest query text the cache keeps: clients repeat
// short queries, while keeping long ones would let a client fill memory
// with a few distinct megabyte bodies.
const maxCachedQuery = 64 << 10

// newDocCache returns a cache of size entries; size < 0 disables it.
func newDocCache(size int) *docCache {
	return &docCache{size: size, maxBytes: DocCacheBytes, order: list.New(), items: make(map[string]*list.Element)}
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
	c.bytes += docCost(d.query)
	for c.order.Len() > c.size || (c.bytes > c.maxBytes && c.order.Len() > 1) {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		q := oldest.Value.(*document).query
		delete(c.items, q)
		c.bytes -= docCost(q)
	}
	return d
}
