package persistence

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Replication bookkeeping: the version of each replicated grain's records
// on this node, and the highest generation this node promised for it.
var (
	versionBucket = []byte("_version")
	promiseBucket = []byte("_promise")
)

// Version orders the states of one grain's records (see cluster/pb).
type Version struct{ Gen, Seq uint64 }

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool { return v.Gen < w.Gen || v.Gen == w.Gen && v.Seq < w.Seq }

func encodeVersion(v Version) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, v.Gen)
	binary.BigEndian.PutUint64(b[8:], v.Seq)
	return b
}

func decodeVersion(b []byte) Version {
	if len(b) != 16 {
		return Version{}
	}
	return Version{Gen: binary.BigEndian.Uint64(b), Seq: binary.BigEndian.Uint64(b[8:])}
}

// Version returns the version of key's records here (zero if none).
func (db *DB) Version(key string) (Version, error) {
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(versionBucket); b != nil {
			v = decodeVersion(b.Get([]byte(key)))
		}
		return nil
	})
	return v, err
}

// Versions returns the version of every grain held here.
func (db *DB) Versions() (map[string]Version, error) {
	out := map[string]Version{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(versionBucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out[string(k)] = decodeVersion(v)
			return nil
		})
	})
	return out, err
}

// Apply writes puts and sets key's version, in one transaction.
//
// A promise for key held in memory (see Promise) is written in the same
// transaction: from its first records on, a grain's fencing survives a
// restart.
func (db *DB) Apply(key string, v Version, puts []Put) error {
	_, _, err := db.ApplyIf(key, v, puts, nil, nil)
	return err
}

// ApplyIf is Apply done only when ok (nil: always) accepts the version of
// key's records as the same transaction reads it, so that no other writer
// can come between the check and the write. With clear, every record in
// those ranges is deleted first (a snapshot replacing a copy). It returns
// whether it applied and the version it found.
func (db *DB) ApplyIf(key string, v Version, puts []Put, clear []Range, ok func(have Version) bool) (applied bool, have Version, err error) {
	db.pmu.Lock()
	mem := db.pending[key]
	db.pmu.Unlock()
	err = db.updateGrouped(func(tx *bolt.Tx) error {
		applied, have = false, Version{} // it may run again (group.go)
		if b := tx.Bucket(versionBucket); b != nil {
			have = decodeVersion(b.Get([]byte(key)))
		}
		if ok != nil && !ok(have) {
			return nil
		}
		if mem > durablePromise(tx, key) {
			if err := putPromise(tx, key, mem); err != nil {
				return err
			}
		}
		for _, r := range clear {
			if err := deleteRange(tx, r); err != nil {
				return err
			}
		}
		applied = true
		return writeVersioned(tx, key, v, puts)
	})
	if err != nil {
		return false, have, err
	}
	if applied {
		db.promiseWritten(key, mem)
	}
	return applied, have, nil
}

// writeVersioned writes puts and sets key's version to v in tx.
func writeVersioned(tx *bolt.Tx, key string, v Version, puts []Put) error {
	for _, p := range puts {
		if err := put(tx, p); err != nil {
			return fmt.Errorf("apply %s/%s: %w", p.Kind, p.ID, err)
		}
	}
	b, err := tx.CreateBucketIfNotExists(versionBucket)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), encodeVersion(v))
}

// promiseWritten forgets the in-memory promise mem for key once a
// committed transaction wrote it, unless a newer one came meanwhile.
func (db *DB) promiseWritten(key string, mem uint64) {
	if mem == 0 {
		return
	}
	db.pmu.Lock()
	if db.pending[key] == mem {
		delete(db.pending, key)
	}
	db.pmu.Unlock()
}

// deleteRange deletes every record in r.
func deleteRange(tx *bolt.Tx, r Range) error {
	switch {
	case r.Exact:
		return put(tx, Put{Kind: r.Kind, ID: r.Prefix})
	case r.Suffix == "":
		return deletePrefix(tx, r.Kind, r.Prefix)
	}
	b := tx.Bucket([]byte(r.Kind))
	if b == nil {
		return nil
	}
	var doomed [][]byte
	err := scanRange(tx, r, func(id string, _ []byte) error {
		doomed = append(doomed, []byte(id))
		return nil
	})
	for _, k := range doomed {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}

// ReadRanges reads, in one transaction, the version of key's records and
// the records in ranges (in order, each in key order) that come after the
// record afterID of kind afterKind (both empty: from the start), up to
// about limit bytes of values (at least one record). more reports that
// records were left for another page. Two pages read at different times
// belong to one copy only if their versions are equal.
func (db *DB) ReadRanges(key string, ranges []Range, afterKind, afterID string, limit int) (v Version, recs []Put, more bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(versionBucket); b != nil {
			v = decodeVersion(b.Get([]byte(key)))
		}
		size, skipping := 0, afterKind != ""
		for _, r := range ranges {
			err := scanRange(tx, r, func(id string, val []byte) error {
				if skipping {
					if r.Kind == afterKind && id == afterID {
						skipping = false
					}
					return nil
				}
				if size > 0 && size+len(val) > limit {
					more = true
					return ErrStop
				}
				size += len(val)
				recs = append(recs, Put{Kind: r.Kind, ID: id, Value: bytes.Clone(val)})
				return nil
			})
			if err != nil && !errors.Is(err, ErrStop) {
				return err
			}
			if more {
				return nil
			}
		}
		if skipping {
			// The record to continue after is gone: the copy changed
			// since the last page, and its version says so.
			recs = nil
		}
		return nil
	})
	return v, recs, more, err
}

// maxPending bounds the promises kept in memory for keys with no records
// (see Promise): 64k entries of a key of at most MaxGrainKey bytes.
const maxPending = 1 << 16

// MaxGrainKey is the longest grain key Promise accepts. Grain identities
// are validated far below it before a grain is touched (model.CheckID).
const MaxGrainKey = 1024

// Promise records that this node refuses generations below gen for key;
// it fails (ok false) when it promised gen or a higher one already (two
// activations must never share a generation), and returns the highest.
//
// A promise for a key that has no records here (a grain that was never
// written: a lookup of an unknown ID activates one) is kept in memory
// only, so that a read of something that does not exist writes nothing;
// the key's first records (Apply) make it durable in the same transaction.
// A restart forgets such promises, as does eviction past maxPending: the
// fencing of a grain that holds no records then rests on the replicas
// that still remember theirs (a majority of them must promise anew).
func (db *DB) Promise(key string, gen uint64) (promised uint64, ok bool, err error) {
	if len(key) > MaxGrainKey {
		return 0, false, fmt.Errorf("grain key of %d bytes: the limit is %d", len(key), MaxGrainKey)
	}
	db.pmu.Lock()
	defer db.pmu.Unlock()
	var held bool
	err = db.bolt.View(func(tx *bolt.Tx) error {
		promised = max(durablePromise(tx, key), db.pending[key])
		if b := tx.Bucket(versionBucket); b != nil {
			held = b.Get([]byte(key)) != nil
		}
		return nil
	})
	if err != nil || gen <= promised {
		return promised, false, err
	}
	if !held {
		db.remember(key, gen)
		return gen, true, nil
	}
	err = db.update(func(tx *bolt.Tx) error { return putPromise(tx, key, gen) })
	if err != nil {
		return promised, false, err
	}
	delete(db.pending, key)
	return gen, true, nil
}

// remember keeps an in-memory promise; past maxPending it drops one at
// random first. The caller holds pmu.
func (db *DB) remember(key string, gen uint64) {
	if db.pending == nil {
		db.pending = map[string]uint64{}
	}
	if _, ok := db.pending[key]; !ok && len(db.pending) >= maxPending {
		for k := range db.pending {
			delete(db.pending, k)
			break
		}
	}
	db.pending[key] = gen
}

// Promised returns the highest generation promised for key.
func (db *DB) Promised(key string) (uint64, error) {
	db.pmu.Lock()
	mem := db.pending[key]
	db.pmu.Unlock()
	var g uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		g = durablePromise(tx, key)
		return nil
	})
	return max(g, mem), err
}

// PendingPromises is how many promises are held in memory only.
func (db *DB) PendingPromises() int {
	db.pmu.Lock()
	defer db.pmu.Unlock()
	return len(db.pending)
}

func durablePromise(tx *bolt.Tx, key string) uint64 {
	if b := tx.Bucket(promiseBucket); b != nil {
		if cur := b.Get([]byte(key)); len(cur) == 8 {
			return binary.BigEndian.Uint64(cur)
		}
	}
	return 0
}

func putPromise(tx *bolt.Tx, key string, gen uint64) error {
	b, err := tx.CreateBucketIfNotExists(promiseBucket)
	if err != nil {
		return err
	}
	v := make([]byte, 8)
	binary.BigEndian.PutUint64(v, gen)
	return b.Put([]byte(key), v)
}

// Range is a set of records: the keys of Kind that start with Prefix and
// end with Suffix (either may be empty; Exact means the key equals Prefix).
type Range struct {
	Kind, Prefix, Suffix string
	Exact                bool
}

// scanRange calls fn for every record in r, in key order, inside tx;
// fn's ErrStop is returned as is.
func scanRange(tx *bolt.Tx, r Range, fn func(id string, v []byte) error) error {
	b := tx.Bucket([]byte(r.Kind))
	if b == nil {
		return nil
	}
	if r.Exact {
		if v := b.Get([]byte(r.Prefix)); v != nil {
			return fn(r.Prefix, v)
		}
		return nil
	}
	c := b.Cursor()
	for k, v := c.Seek([]byte(r.Prefix)); k != nil && bytes.HasPrefix(k, []byte(r.Prefix)); k, v = c.Next() {
		if r.Suffix != "" && !bytes.HasSuffix(k, []byte(r.Suffix)) {
			continue
		}
		if err := fn(string(k), v); err != nil {
			return err
		}
	}
	return nil
}
