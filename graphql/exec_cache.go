package graphql

import (
	"container/list"
	"sync"
)

// docCache is a small least-recently-used cache of prepared documents
// keyed by query text, safe for concurrent use. Clients repeat the same
// few queries, so parsing and validation mostly happen once per query.
type docCache struct {
	size  int
	mu    sync.Mutex
	order *list.List // of *document, most recent first
	items map[string]*list.Element
}

// maxCachedQuery is the longest query text the cache keeps: clients repeat
// short queries, while keeping long ones would let a client fill memory
// with a few distinct megabyte bodies.
const maxCachedQuery = 64 << 10

// newDocCache returns a cache of size entries; size < 0 disables it.
func newDocCache(size int) *docCache {
	return &docCache{size: size, order: list.New(), items: make(map[string]*list.Element)}
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
	if c.order.Len() > c.size {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*document).query)
	}
	return d
}
