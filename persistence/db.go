// Package persistence keeps mockgql's state in bbolt: grain checkpoints
// (projects, accounts, users, keys, datasets), project overlay rows and
// dataset contents, one bucket per kind.
//
// A DB is safe for concurrent use. Every Write is one bbolt transaction,
// fsynced before it returns: a write that returned nil survives kill -9.
// Writes that arrive while another commits share the next commit.
//
//	db, err := persistence.Open(filepath.Join(dir, "mockgql.db"))
//	err = db.Write(persistence.Put{Kind: "project", ID: "p1", Value: b})
//	v, err := db.Get("project", "p1")
package persistence

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// schemaVersion is the layout version written to the meta bucket; Open
// migrates older layouts step by step (there are none yet).
const schemaVersion = 1

var metaBucket = []byte("_meta")

// DB is the node's bbolt database.
type DB struct {
	bolt *bolt.DB

	pmu     sync.Mutex
	pending map[string]uint64 // promises for keys with no records (see Promise)

	fullSince atomic.Int64 // unix ns of the first of the writes failing for a full disk; 0: none (full.go)

	group grouper // concurrent replicated writes share commits (group.go)
}

// Put is one key write in a batch; a nil Value deletes the key, and with
// Prefix set every key of Kind starting with ID.
type Put struct {
	Kind   string
	ID     string
	Value  []byte
	Prefix bool
}

// Open opens (creating if needed) the database file at path. It fails after
// a few seconds rather than hanging when another process holds the file.
func Open(path string) (*DB, error) {
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 3 * time.Second, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db := &DB{bolt: b}
	if err := db.migrate(); err != nil {
		b.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) migrate() error {
	return db.update(func(tx *bolt.Tx) error {
		m, err := tx.CreateBucketIfNotExists(metaBucket)
		if err != nil {
			return err
		}
		v := m.Get([]byte("schema"))
		switch {
		case v == nil:
			return m.Put([]byte("schema"), []byte{schemaVersion})
		case len(v) != 1 || v[0] > schemaVersion:
			return fmt.Errorf("database layout %v is unknown or newer than this binary's %d", v, schemaVersion)
		}
		return nil
	})
}

// Close closes the file. Writes after Close fail.
func (db *DB) Close() error { return db.bolt.Close() }

// Get returns a copy of the value under kind/id, or nil if there is none.
func (db *DB) Get(kind, id string) ([]byte, error) {
	var out []byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(kind)); b != nil {
			if v := b.Get([]byte(id)); v != nil {
				out = bytes.Clone(v)
			}
		}
		return nil
	})
	return out, err
}

// Write applies every Put in one transaction: all of them or none.
// Concurrent writes share one commit (group.go).
func (db *DB) Write(puts ...Put) error {
	if len(puts) == 0 {
		return nil
	}
	return db.updateGrouped(func(tx *bolt.Tx) error {
		for _, p := range puts {
			if err := put(tx, p); err != nil {
				return fmt.Errorf("write %s/%s: %w", p.Kind, p.ID, err)
			}
		}
		return nil
	})
}

func put(tx *bolt.Tx, p Put) error {
	if p.Prefix {
		return deletePrefix(tx, p.Kind, p.ID)
	}
	if p.Value == nil {
		if b := tx.Bucket([]byte(p.Kind)); b != nil {
			return b.Delete([]byte(p.ID))
		}
		return nil
	}
	b, err := tx.CreateBucketIfNotExists([]byte(p.Kind))
	if err != nil {
		return err
	}
	return b.Put([]byte(p.ID), p.Value)
}

// DeletePrefix deletes every key of kind that starts with prefix, in one transaction.
func (db *DB) DeletePrefix(kind, prefix string) error {
	return db.update(func(tx *bolt.Tx) error { return deletePrefix(tx, kind, prefix) })
}

func deletePrefix(tx *bolt.Tx, kind, prefix string) error {
	b := tx.Bucket([]byte(kind))
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Seek([]byte(prefix)) {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// ErrStop ends a Scan early without an error.
var ErrStop = errors.New("stop scan")

// Scan calls fn for every key of kind starting with prefix, in key order.
// The value is only valid during the call; fn must copy what it keeps.
func (db *DB) Scan(kind, prefix string, fn func(id string, v []byte) error) error {
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(kind))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			if err := fn(string(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}
