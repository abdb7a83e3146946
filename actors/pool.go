package actors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mockgql/mockgql/dataset"
	"github.com/mockgql/mockgql/ids"
	"github.com/mockgql/mockgql/persistence"
)

// Datasets are stored in two kinds: the catalog entry (DatasetMeta, kind
// "dataset", written by the dataset grain) and the encoded contents in
// chunks (kind "datablob", id "<code>/<blobID>/<chunk>"), written before the
// catalog entry points at them. A blob no entry points at is an abandoned
// upload and is deleted at start.
//
// The catalog is keyed by owner and code (catalogKey): a curated dataset
// under its code, an account's own under "<account>:<code>", so two
// accounts may each hold a code and neither can take it from the other.
// Entries written before codes were scoped are keyed by code whatever
// their owner, and read as before (see scopedPool.Dataset).
const (
	kindDataset  = "dataset"
	kindDataBlob = "datablob"
	blobChunk    = 1 << 20
)

// DatasetMeta is the catalog entry of a dataset.
type DatasetMeta struct {
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
	// gone; its owner may import the code again, which replaces the entry
	// (nodes that cached the old contents notice by the blob ID, see
	// Pool.entry).
	Deleted bool `json:"deleted,omitempty"`
	// DeletedBlob is the blob a deleted entry pointed at (its owner's
	// upload holds end when the catalog shows their blob, see
	// account_limits.go).
	DeletedBlob string `json:"deletedBlob,omitempty"`
	// Key is the entry's catalog key (not stored: the record's ID).
	Key string `json:"-"`
}

// VisibleTo reports whether the entry is listed for, and read by, account
// (empty: sessions, guests and anonymous callers).
func (m *DatasetMeta) VisibleTo(account string) bool {
	return !m.Deleted && (m.Owner == "" || m.Owner == account)
}

// catalogKey is the catalog key (and dataset grain identity) of code as
// owner's: the code itself in the curated pool, "<owner>:<code>" for an
// account's own. Neither account IDs nor import codes hold a ':'.
func catalogKey(owner, code string) string {
	if owner == "" {
		return code
	}
	return owner + ":" + code
}

// catalogRef is a catalog key taken apart, as the node's cache keys its
// entries (no key string is built on the query path).
type catalogRef struct{ owner, code string }

// refOf takes a catalog key apart.
func refOf(key string) catalogRef {
	if owner, code, ok := strings.Cut(key, ":"); ok {
		return catalogRef{owner, code}
	}
	return catalogRef{code: key}
}

// catalogKeys lists where code is looked for on behalf of account, first
// match wins: the account's own dataset, then the entry under the bare
// code (curated, or the account's own from before codes were scoped).
func catalogKeys(account, code string) []string {
	if account == "" {
		return []string{code}
	}
	return []string{catalogKey(account, code), code}
}

// Pool is a node's cache of datasets: each is decoded from the store once,
// on first use, and then shared read-only by every project bound to it. It
// implements graphql.Pool and is safe for concurrent use.
type Pool struct {
	store Store
	// scoped holds one *scopedPool per owner (For).
	scoped sync.Map
	mu     sync.Mutex
	// sets holds an entry per catalog key looked up, with or without a
	// dataset (absent counts the latter, bounded by maxAbsent).
	sets   map[catalogRef]*poolEntry
	absent int
	// missed remembers when a unit (a catalog entry, a blob) was last
	// looked for in vain on the other nodes, by unit key, so a table bound
	// to a dataset nobody has does not make every query ask the cluster.
	missed map[string]int64 // unix ns, of now
	now    func() int64     // unix ns, coarse (coarseNow); the pool's one clock
}

// coarseNow is the time in unix ns to within coarseTick, read from an
// atomic a ticker moves (started on first use, for the life of the
// process): a cache check on every query cannot afford time.Now, which
// costs as much as the rest of a lookup on some virtual machines.
func coarseNow() int64 {
	coarse.once.Do(func() {
		coarse.ns.Store(time.Now().UnixNano())
		go func() {
			for t := range time.Tick(coarseTick) {
				coarse.ns.Store(t.UnixNano())
			}
		}()
	})
	return coarse.ns.Load()
}

const coarseTick = 50 * time.Millisecond

var coarse struct {
	once sync.Once
	ns   atomic.Int64
}

// fetcher is the cluster store's way to pull a grain every node should
// hold but this one lacks (cluster.Store.Fetch).
type fetcher interface {
	Fetch(key, kind, id string) bool
}

const (
	// fetchAgainAfter spaces the cluster lookups of a dataset no node has.
	fetchAgainAfter = 5 * time.Second
	// recheckAfter is how long a cached entry is used before it is
	// compared with the catalog again: how long another node's deletion,
	// re-import or new upload of a code may take to show here (plus
	// coarseTick).
	recheckAfter = time.Second
	// maxAbsent bounds the remembered catalog keys without a dataset
	// (tables bound to codes nobody has); past it they are forgotten.
	maxAbsent = 4096
)

// poolEntry is what a node knows of one catalog key.
type poolEntry struct {
	once   sync.Once
	d      *dataset.Dataset
	err    error
	owner  string // the catalog entry's Owner
	blobID string // the contents d holds; "" when the key has no dataset
	// checked is when the entry was last compared with the catalog (unix
	// ns); the one caller that moves it on rechecks (due).
	checked atomic.Int64
}

// due reports whether the caller should compare e with the catalog now;
// one caller a recheckAfter wins, the others go on with e.
func (e *poolEntry) due(now int64) bool {
	t := e.checked.Load()
	return now-t >= int64(recheckAfter) && e.checked.CompareAndSwap(t, now)
}

// scopedPool is the pool as the projects of one account (or, with owner
// empty, sessions and guests) see it: curated datasets and their own.
type scopedPool struct {
	p     *Pool
	owner string
}

// Dataset implements graphql.Pool: the account's own dataset with the
// code, else a curated one (or the account's own from before codes were
// scoped); another account's is none. An own catalog entry whose contents
// cannot be read is nil too, never the curated dataset of the same code,
// so a bound table never switches owners.
func (s *scopedPool) Dataset(code string) *dataset.Dataset {
	if strings.IndexByte(code, ':') >= 0 {
		return nil // not a code: it would name another account's key
	}
	if s.owner != "" { // catalogKeys, without building the keys
		e, err := s.p.entry(catalogRef{s.owner, code})
		if err != nil {
			return nil
		}
		if e.blobID != "" {
			return e.d
		}
	}
	e, err := s.p.entry(catalogRef{code: code})
	if err != nil || e.blobID == "" || e.owner != "" && e.owner != s.owner {
		return nil
	}
	return e.d
}

// forAccount returns the pool the projects of account see (graphql.Pool):
// curated datasets and account's own; account "" sees the curated ones.
func (p *Pool) forAccount(account string) *scopedPool {
	if v, ok := p.scoped.Load(account); ok {
		return v.(*scopedPool)
	}
	v, _ := p.scoped.LoadOrStore(account, &scopedPool{p: p, owner: account})
	return v.(*scopedPool)
}

// NewPool returns an empty pool over store.
func NewPool(store Store) *Pool {
	return &Pool{store: store, sets: map[catalogRef]*poolEntry{}, missed: map[string]int64{}, now: coarseNow}
}

// Dataset returns the dataset under the catalog key (for a curated
// dataset, its import code), loading it if needed, or nil when there is
// none (or it cannot be read; the error is logged by load's callers).
func (p *Pool) Dataset(key string) *dataset.Dataset {
	d, _ := p.load(key)
	return d
}

// load is Dataset with the error.
func (p *Pool) load(key string) (*dataset.Dataset, error) {
	e, err := p.entry(refOf(key))
	if err != nil || e.blobID == "" {
		return nil, err
	}
	return e.d, nil
}

// entry returns what the catalog holds under key, its contents loaded:
// from the node's cache, compared with the catalog at most once every
// recheckAfter (a changed blob ID, a deletion or a new upload replaces the
// cached entry), or read from the store, fetched from the other nodes if
// this one lacks it. An entry whose contents failed to load is returned
// with its error and forgotten, so the next use tries again.
func (p *Pool) entry(ref catalogRef) (*poolEntry, error) {
	now := p.now()
	p.mu.Lock()
	e := p.sets[ref]
	p.mu.Unlock()
	if e != nil && !e.due(now) {
		e.once.Do(func() {}) // wait for a load under way
		return e, e.err
	}
	key := catalogKey(ref.owner, ref.code)
	meta, err := p.meta(key)
	if err == nil && meta == nil && p.fetch(key) {
		meta, err = p.meta(key)
	}
	if err != nil {
		if e != nil { // the catalog could not be read: go on with what we had
			return e, e.err
		}
		return nil, err
	}
	n := &poolEntry{}
	if meta != nil && !meta.Deleted {
		n.owner, n.blobID = meta.Owner, meta.BlobID
	}
	n.checked.Store(now)
	e = p.install(ref, n)
	if e == n && n.blobID != "" {
		n.once.Do(func() { n.d, n.err = p.read(meta) })
	}
	e.once.Do(func() {}) // wait for a load under way
	if e.err != nil {
		// Not kept: the cause may pass (a blob that had not reached this
		// node, a peer that did not answer); the next use tries again.
		p.mu.Lock()
		if p.sets[ref] == e {
			delete(p.sets, ref)
		}
		p.mu.Unlock()
	}
	return e, e.err
}

// install caches n under key and returns it, unless the cached entry
// already holds the same contents, which is returned (rechecked now).
func (p *Pool) install(ref catalogRef, n *poolEntry) *poolEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.sets[ref]; cur != nil && cur.owner == n.owner && cur.blobID == n.blobID {
		cur.checked.Store(n.checked.Load())
		return cur
	}
	if n.blobID == "" {
		n.once.Do(func() {})
		if p.absent++; p.absent > maxAbsent {
			for k, e := range p.sets {
				if e.blobID == "" {
					delete(p.sets, k)
				}
			}
			p.absent = 1
		}
	}
	p.sets[ref] = n
	return n
}

// fetch asks the other nodes for a dataset's catalog entry this node lacks.
func (p *Pool) fetch(key string) bool {
	return p.fetchUnit(kindDataset+"/"+key, kindDataset, key)
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
	now := p.now()
	if t, seen := p.missed[key]; seen && time.Duration(now-t) < fetchAgainAfter {
		p.mu.Unlock()
		return false
	}
	p.missed[key] = now
	p.mu.Unlock()
	if !f.Fetch(key, kind, id) {
		return false
	}
	p.mu.Lock()
	delete(p.missed, key)
	p.mu.Unlock()
	return true
}

// Evict drops a deleted dataset from this node's cache.
func (p *Pool) Evict(key string) {
	p.mu.Lock()
	delete(p.sets, refOf(key))
	p.mu.Unlock()
}

// Put adds a dataset just imported on this node under its catalog entry m,
// so it is not decoded again.
func (p *Pool) Put(m DatasetMeta, d *dataset.Dataset) {
	e := &poolEntry{d: d, owner: m.Owner, blobID: m.BlobID}
	e.once.Do(func() {})
	e.checked.Store(p.now())
	p.mu.Lock()
	p.sets[refOf(m.Key)] = e
	p.mu.Unlock()
}

func (p *Pool) meta(key string) (*DatasetMeta, error) {
	b, err := p.store.Get(kindDataset, key)
	if err != nil || b == nil {
		return nil, err
	}
	var m DatasetMeta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("dataset %s catalog entry: %w", key, err)
	}
	m.Key = key
	return &m, nil
}

// read decodes a dataset's contents, fetched from the other nodes first
// if this one lacks them (they are a replication unit of their own, see
// GrainKeyOf).
func (p *Pool) read(m *DatasetMeta) (*dataset.Dataset, error) {
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

// List returns the catalog, in catalog-key order, each entry with its Key.
func (p *Pool) List() ([]DatasetMeta, error) {
	var out []DatasetMeta
	err := p.store.Scan(kindDataset, "", func(key string, v []byte) error {
		var m DatasetMeta
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		m.Key = key
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
	blobID := strconv.FormatInt(now.Unix(), 36) + "." + ids.RandomString(10)
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
