package actors

import (
	"bytes"
	"sync"

	"github.com/mockgql/mockgql/model"
)

// projectDocs keeps the decoded form of large projects read lately, so
// that reading an unchanged project again (100 aliases of project(id) in
// one request, a board polling) costs a comparison of its bytes, not a
// decode of up to its size bound (model.ModelLimits). Projects it hands
// out are shared: callers must not change them (none does; the grain is a
// project's only writer). Safe for concurrent use.
type projectDocs struct {
	mu    sync.Mutex
	m     map[string]projectDoc
	bytes int
}

type projectDoc struct {
	raw []byte // the encoded project as the grain answered it; never changed
	pr  *model.Project
}

const (
	// minCachedDoc: smaller projects decode about as fast as they compare.
	minCachedDoc = 64 << 10
	// maxCachedDocs bounds the encoded bytes kept (the decoded projects
	// take about as much again).
	maxCachedDocs = 16 << 20
)

// decode returns the project raw encodes, from the cache when the project
// with this ID was decoded from the same bytes before.
func (c *projectDocs) decode(id string, raw []byte) (*model.Project, error) {
	if len(raw) < minCachedDoc || len(raw) > maxCachedDocs {
		return decodeDoc[model.Project](raw)
	}
	c.mu.Lock()
	d, ok := c.m[id]
	c.mu.Unlock()
	if ok && bytes.Equal(d.raw, raw) {
		return d.pr, nil
	}
	pr, err := decodeDoc[model.Project](raw)
	if err != nil {
		return nil, err
	}
	c.put(id, projectDoc{raw: raw, pr: pr})
	return pr, nil
}

// put keeps d, dropping other entries (in the map's order, which is as
// good as any) until the kept bytes fit maxCachedDocs.
func (c *projectDocs) put(id string, d projectDoc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]projectDoc{}
	}
	if old, ok := c.m[id]; ok {
		c.bytes -= len(old.raw)
		delete(c.m, id)
	}
	for k, e := range c.m {
		if c.bytes+len(d.raw) <= maxCachedDocs {
			break
		}
		c.bytes -= len(e.raw)
		delete(c.m, k)
	}
	c.m[id] = d
	c.bytes += len(d.raw)
}
