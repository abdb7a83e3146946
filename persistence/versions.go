package persistence

import (
	"encoding/binary"
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

// Apply writes puts and sets key's version, in one transaction. With
// replace, every record listed by prefixes is deleted first (a snapshot's
// first page).
//
// A promise for key held in memory (see Promise) is written in the same
// transaction: from its first records on, a grain's fencing survives a
// restart.
func (db *DB) Apply(key string, v Version, puts []Put, replace []Put) error {
	db.pmu.Lock()
	mem := db.pending[key]
	db.pmu.Unlock()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if mem > durablePromise(tx, key) {
			if err := putPromise(tx, key, mem); err != nil {
				return err
			}
		}
		for _, p := range replace {
			if err := put(tx, p); err != nil {
				return err
			}
		}
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
	})
	if err == nil && mem > 0 {
		db.pmu.Lock()
		if db.pending[key] == mem {
			delete(db.pending, key)
		}
		db.pmu.Unlock()
	}
	return err
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
	err = db.bolt.Update(func(tx *bolt.Tx) error { return putPromise(tx, key, gen) })
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

// ScanRange calls fn for every record in r, in key order.
func (db *DB) ScanRange(r Range, fn func(id string, v []byte) error) error {
	if r.Exact {
		v, err := db.Get(r.Kind, r.Prefix)
		if err != nil || v == nil {
			return err
		}
		return fn(r.Prefix, v)
	}
	return db.Scan(r.Kind, r.Prefix, func(id string, v []byte) error {
		if r.Suffix != "" && (len(id) < len(r.Suffix) || id[len(id)-len(r.Suffix):] != r.Suffix) {
			return nil
		}
		return fn(id, v)
	})
}
