package persistence

import (
	bolt "go.etcd.io/bbolt"
)

// WriteOutcome is what ApplyWrite did with a replicated write.
type WriteOutcome int

const (
	// WriteApplied: the write's records and version are durable here.
	WriteApplied WriteOutcome = iota
	// WriteHeld: this copy holds the write's version or a newer one of
	// the same activation (a retry).
	WriteHeld
	// WriteFenced: a newer activation was promised or wrote here.
	WriteFenced
	// WriteBehind: this copy is not the one the write was made on.
	WriteBehind
)

// ApplyWrite judges a replicated write of key at version w, made on the
// copy at base (nil: on the copy one seq before w), against this copy,
// and applies puts with w when it fits — the judgement and the write in
// one transaction, so no other writer comes between them. Concurrent
// calls (writes of different grains arriving at once) share one commit
// (group.go). It returns the highest generation promised for key and the
// version found before the write.
//
// A promise for key held in memory (see Promise) is written with the
// records. The caller must not run Promise for key concurrently.
func (db *DB) ApplyWrite(key string, w Version, base *Version, puts []Put) (out WriteOutcome, promised uint64, have Version, err error) {
	db.pmu.Lock()
	mem := db.pending[key]
	db.pmu.Unlock()
	err = db.updateGrouped(func(tx *bolt.Tx) error {
		out, have = WriteFenced, Version{}
		if b := tx.Bucket(versionBucket); b != nil {
			have = decodeVersion(b.Get([]byte(key)))
		}
		durable := durablePromise(tx, key)
		promised = max(durable, mem)
		switch {
		case w.Gen < promised || w.Gen < have.Gen:
			return nil // fenced: a newer activation exists
		case !have.Less(w):
			out = WriteHeld
			return nil
		case base != nil && *base != have, base == nil && w.Seq != have.Seq+1:
			// Seq alone cannot tell (G-1, 100) from (G, 100), two
			// activations' different copies.
			out = WriteBehind
			return nil
		}
		if mem > durable {
			if err := putPromise(tx, key, mem); err != nil {
				return err
			}
		}
		out = WriteApplied
		return writeVersioned(tx, key, w, puts)
	})
	if err != nil {
		return WriteFenced, promised, have, err
	}
	if out == WriteApplied {
		db.promiseWritten(key, mem)
	}
	return out, promised, have, nil
}
