package actors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/model/dataset"
	"github.com/mockgql/mockgql/persistence"
)

// Datasets are stored in two kinds: the catalog entry (datasetMeta, kind
// "dataset", written by the dataset grain) and the encoded contents in
// chunks (kind "datablob", id "<code>/<blobID>/<chunk>"), written before the
// catalog entry points at them. A blob no entry points at is an abandoned
// upload and is deleted at start.
const (
	kindDataset  = "dataset"
	kindDataBlob = "datablob"
	blobChunk    = 1 << 20
)

// datasetMeta is the catalog entry of a dataset.
type datasetMeta struct {
	ImportCode   string            `json:"importCode"`
	Name         string            `json:"name"`
	Format       string            `json:"format"`
	VariantField string            `json:"variantField,omitempty"`
	RecordCount  int               `json:"recordCount"`
	FieldPaths   []string          `json:"fieldPaths"`
	Variants     []dataset.Variant `json:"variants"`
	BlobID       string            `json:"blobId"`
	CreatedAt    time.Time         `json:"createdAt"`
	// Owner is the account whose dataset this is: only its projects read
	// it and only its members see it. Empty: the curated pool every
	// project, session and guest sees (the operator's: the demo data, and
	// uploads by --pool-curators accounts). Entries written before
	// datasets had owners have none, so they are curated.
	Owner string `json:"owner,omitempty"`
	// Bytes is the encoded size, counted against the owner's plan.
	Bytes int64 `json:"bytes,omitempty"`
	// Deleted marks a deleted dataset (deleteDataset): its contents are
	// gone and its code is not given out again, so no node's cache of the
	// old contents can ever be taken for a new upload's.
	Deleted bool `json:"deleted,omitempty"`
}

// visibleTo reports whether the entry is listed for, and read by, account
// (empty: sessions, guests and anonymous callers).
func (m *datasetMeta) visibleTo(account string) bool {
	return !m.Deleted && (m.Owner == "" || m.Owner == account)
}

// Pool is a node's cache of datasets: each is decoded from the store once,
// on first use, and then shared read-only by every project bound to it. It
// implements graphql.Pool and is safe for concurrent use.
type Pool struct {
	store Store
	// scoped holds one *scopedPool per owner (For).
	scoped sync.Map
	mu     sync.Mutex
	sets   map[string]*poolEntry
	// missed remembers when a unit (a catalog entry, a blob) was last
	// looked for in vain on the other nodes, by unit key, so a table bound
	// to a dataset nobody has does not make every query ask the cluster.
	missed map[string]time.Time
}

// fetcher is the cluster store's way to pull a grain every node should
// hold but this one lacks (cluster.Store.Fetch).
type fetcher interface {
	Fetch(key, kind, id string) bool
}

// fetchAgainAfter spaces the cluster lookups of a dataset no node has.
const fetchAgainAfter = 5 * time.Second

type poolEntry struct {
	once  sync.Once
	d     *dataset.Dataset
	err   error
	owner string // the catalog entry's Owner
}

// scopedPool is the pool as the projects of one account (or, with owner
// empty, sessions and guests) see it: curated datasets and their own.
type scopedPool struct {
	p     *Pool
	owner string
}

// Dataset implements graphql.Pool: a dataset of another account is none.
func (s *scopedPool) Dataset(code string) *dataset.Dataset {
	d, owner, _ := s.p.load(code)
	if d == nil || owner != "" && owner != s.owner {
		return nil
	}
	return d
}

// For returns the pool the projects of account see (graphql.Pool):
// curated datasets and account's own; account "" sees the curated ones.
func (p *Pool) For(account string) *scopedPool {
	if v, ok := p.scoped.Load(account); ok {
		return v.(*scopedPool)
	}
	v, _ := p.scoped.LoadOrStore(account, &scopedPool{p: p, owner: account})
	return v.(*scopedPool)
}

// NewPool returns an empty pool over store.
func NewPool(store Store) *Pool {
	return &Pool{store: store, sets: map[string]*poolEntry{}, missed: map[string]time.Time{}}
}

// Dataset returns the dataset with the import code, loading it if needed,
// or nil when there is none (or it cannot be read; the error is logged by
// Load's callers).
func (p *Pool) Dataset(code string) *dataset.Dataset {
	d, _ := p.Load(code)
	return d
}

// Load is Dataset with the error.
func (p *Pool) Load(code string) (*dataset.Dataset, error) {
	d, _, err := p.load(code)
	return d, err
}

// load is Load with the dataset's owner.
func (p *Pool) load(code string) (*dataset.Dataset, string, error) {
	p.mu.Lock()
	e := p.sets[code]
	p.mu.Unlock()
	if e == nil {
		meta, err := p.meta(code)
		if err == nil && meta == nil && p.fetch(code) {
			meta, err = p.meta(code)
		}
		if err != nil || meta == nil || meta.Deleted {
			return nil, "", err
		}
		p.mu.Lock()
		if e = p.sets[code]; e == nil {
			e = &poolEntry{owner: meta.Owner}
			p.sets[code] = e
		}
		p.mu.Unlock()
		e.once.Do(func() { e.d, e.err = p.read(meta) })
	}
	e.once.Do(func() {}) // wait for a load under way
	if e.err != nil {
		// Not kept: the cause may pass (a blob that had not reached this
		// node, a peer that did not answer); the next use tries again.
		p.mu.Lock()
		if p.sets[code] == e {
			delete(p.sets, code)
		}
		p.mu.Unlock()
	}
	return e.d, e.owner, e.err
}

// fetch asks the other nodes for a dataset's catalog entry this node lacks.
func (p *Pool) fetch(code string) bool {
	return p.fetchUnit(KindDataset+"/"+code, kindDataset, code)
}

// fetchUnit asks the other nodes for the replication unit key, which
// should hold record kind/id, at most once every fetchAgainAfter per unit:
// a dataset no node has (or whose blob none has) costs its users a round
// of calls to every peer once in that time, not on every request.
func (p *Pool) fetchUnit(key, kind, id string) bool {
	f, ok := p.store.(fetcher)
	if !ok {
		return false
	}
	p.mu.Lock()
	if t, seen := p.missed[key]; seen && time.Since(t) < fetchAgainAfter {
		p.mu.Unlock()
		return false
	}
	p.missed[key] = time.Now()
	p.mu.Unlock()
	if !f.Fetch(key, kind, id) {
		return false
	}
	p.mu.Lock()
	delete(p.missed, key)
	p.mu.Unlock()
	return true
}

// evict drops a deleted dataset from this node's cache.
func (p *Pool) evict(code string) {
	p.mu.Lock()
	delete(p.sets, code)
	p.mu.Unlock()
}

// put adds a dataset just imported on this node, so it is not decoded again.
func (p *Pool) put(d *dataset.Dataset, owner string) {
	e := &poolEntry{d: d, owner: owner}
	e.once.Do(func() {})
	p.mu.Lock()
	p.sets[d.ImportCode()] = e
	p.mu.Unlock()
}

func (p *Pool) meta(code string) (*datasetMeta, error) {
	b, err := p.store.Get(kindDataset, code)
	if err != nil || b == nil {
		return nil, err
	}
	var m datasetMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("dataset %s catalog entry: %w", code, err)
	}
	return &m, nil
}

// read decodes a dataset's contents, fetched from the other nodes first
// if this one lacks them (they are a replication unit of their own, see
// GrainKeyOf).
func (p *Pool) read(m *datasetMeta) (*dataset.Dataset, error) {
	prefix := m.ImportCode + "/" + m.BlobID + "/"
	var buf bytes.Buffer
	scan := func() error {
		return p.store.Scan(kindDataBlob, prefix, func(_ string, v []byte) error {
			buf.Write(v)
			return nil
		})
	}
	err := scan()
	if err == nil && buf.Len() == 0 {
		if key, _ := GrainKeyOf(kindDataBlob, prefix); p.fetchUnit(key, kindDataBlob, prefix+"000000") {
			err = scan()
		}
	}
	if err != nil {
		return nil, err
	}
	d, err := dataset.Decode(&buf)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", m.ImportCode, err)
	}
	return d, nil
}

// List returns the catalog, in import-code order.
func (p *Pool) List() ([]datasetMeta, error) {
	var out []datasetMeta
	err := p.store.Scan(kindDataset, "", func(_ string, v []byte) error {
		var m datasetMeta
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

// blobPuts encodes d into chunked puts under a fresh blob ID, which
// carries the time of the upload (see CollectGarbage).
func blobPuts(d *dataset.Dataset, now time.Time) (string, []persistence.Put, error) {
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		return "", nil, err
	}
	blobID := strconv.FormatInt(now.Unix(), 36) + "." + randomString(10)
	b := buf.Bytes()
	var puts []persistence.Put
	for i := 0; len(b) > 0; i++ {
		n := min(blobChunk, len(b))
		puts = append(puts, persistence.Put{Kind: kindDataBlob, ID: fmt.Sprintf("%s/%s/%06d", d.ImportCode(), blobID, i), Value: b[:n]})
		b = b[n:]
	}
	return blobID, puts, nil
}

// CollectGarbage deletes dataset blobs no catalog entry points at (uploads
// abandoned by a crash between writing the blob and committing the entry)
// once they are older than minAge. The deletion reaches every node (blobs
// are on all of them), so a young blob is left alone: it may be an upload
// under way on another node, whose entry comes last, or one whose entry
// has not reached this node yet. Blobs from before blob IDs carried their
// time count as old.
func (p *Pool) CollectGarbage(now time.Time, minAge time.Duration) error {
	keep := map[string]bool{}
	metas, err := p.List()
	if err != nil {
		return err
	}
	for _, m := range metas {
		keep[m.ImportCode+"/"+m.BlobID+"/"] = true
	}
	drop := map[string]bool{}
	err = p.store.Scan(kindDataBlob, "", func(id string, _ []byte) error {
		if prefix := blobPrefix(id); !keep[prefix] && !drop[prefix] && !blobYoung(prefix, now, minAge) {
			drop[prefix] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	for prefix := range drop {
		if err := p.store.DeletePrefix(kindDataBlob, prefix); err != nil {
			return err
		}
	}
	return nil
}

// blobYoung reports whether the blob "code/blobID/" was uploaded less than
// minAge before now, by the time its ID carries ("<unix base 36>.<random>").
func blobYoung(prefix string, now time.Time, minAge time.Duration) bool {
	id := strings.TrimSuffix(prefix, "/")
	id = id[strings.LastIndexByte(id, '/')+1:]
	stamp, _, ok := strings.Cut(id, ".")
	if !ok {
		return false
	}
	sec, err := strconv.ParseInt(stamp, 36, 64)
	return err == nil && now.Sub(time.Unix(sec, 0)) < minAge
}

// blobPrefix cuts the chunk number off a blob key: "code/blob/000001" → "code/blob/".
func blobPrefix(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '/' {
			return id[:i+1]
		}
	}
	return id
}

// datasetGrain makes import codes unique: it commits a catalog entry only
// if the code is free.
type datasetGrain struct {
	meta  datasetMeta
	found bool
}

func (d *datasetGrain) load(g *grain) (err error) {
	d.found, err = g.loadJSON(&d.meta)
	return err
}

func (d *datasetGrain) handle(g *grain, c *call) (any, error) {
	switch req := c.req.(type) {
	case *pb.DatasetGet:
		if !d.found {
			return nil, model.Errorf(model.ErrNotFound, "no dataset %q", g.id)
		}
		return d.meta, nil
	case *pb.DatasetDelete:
		if !d.found || d.meta.Deleted {
			return nil, nil
		}
		gone := datasetMeta{ImportCode: d.meta.ImportCode, Owner: d.meta.Owner, Deleted: true, CreatedAt: d.meta.CreatedAt}
		return nil, commit(g, gone, func(v datasetMeta) { d.meta = v })
	case *pb.DatasetCommit:
		m, err := decodeDoc[datasetMeta](req.Dataset.GetJson())
		if err != nil {
			return nil, err
		}
		if d.found {
			if d.meta.BlobID == m.BlobID {
				return d.meta, nil // a retried commit
			}
			return nil, codeTaken(d.meta, g.id)
		}
		if err := commit(g, *m, func(v datasetMeta) { d.meta, d.found = v, true }); err != nil {
			return nil, err
		}
		return d.meta, nil
	}
	return nil, unknownRequest(g, c)
}

// codeTaken is the refusal of an import code in use, or deleted.
func codeTaken(m datasetMeta, code string) error {
	if m.Deleted {
		return model.Errorf(model.ErrConflict, "importCode %q belonged to a deleted dataset; codes are not given out again, choose another", code)
	}
	return model.Errorf(model.ErrConflict, "a dataset with importCode %q exists", code)
}
