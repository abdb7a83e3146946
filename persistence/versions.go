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
func (db *DB) Apply(key string, v Version, puts []Put, replace []Put) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
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
}

// Promise records that this node refuses generations below gen for key;
// it fails (ok false) when it promised gen or a higher one already (two
// activations must never share a generation), and returns the highest.
func (db *DB) Promise(key string, gen uint64) (promised uint64, ok bool, err error) {
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(promiseBucket)
		if err != nil {
			return err
		}
		if cur := b.Get([]byte(key)); len(cur) == 8 {
			promised = binary.BigEndian.Uint64(cur)
		}
		if gen <= promised {
			return nil
		}
		ok, promised = true, gen
		v := make([]byte, 8)
		binary.BigEndian.PutUint64(v, gen)
		return b.Put([]byte(key), v)
	})
	return promised, ok, err
}

// Promised returns the highest generation promised for key.
func (db *DB) Promised(key string) (uint64, error) {
	var g uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(promiseBucket); b != nil {
			if cur := b.Get([]byte(key)); len(cur) == 8 {
				g = binary.BigEndian.Uint64(cur)
			}
		}
		return nil
	})
	return g, err
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
