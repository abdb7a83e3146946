package persistence

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mockgql/mockgql/model"
)

// ErrStorageFull is in the chain of every write refused because the disk
// (or the file system's quota) is full; its code is STORAGE_FULL. Nothing
// of such a write was applied: bbolt rolls the transaction back.
var ErrStorageFull = &model.Error{Code: model.CodeStorageFull,
	Message: "the service's storage is full; nothing was written. Retry later, or delete what you no longer need"}

// update is bolt's Update that turns a full disk into ErrStorageFull and
// remembers it (Full) until a write succeeds again.
func (db *DB) update(fn func(*bolt.Tx) error) error {
	err := db.bolt.Update(fn)
	switch {
	case err == nil:
		db.fullSince.Store(0)
	case noSpace(err):
		db.fullSince.CompareAndSwap(0, time.Now().UnixNano())
		return fmt.Errorf("%w (%v)", ErrStorageFull, err)
	}
	return err
}

// Full reports whether the latest write failed because the disk is full.
func (db *DB) Full() bool { return db.fullSince.Load() != 0 }

// noSpace reports whether err says the disk or quota is full. bbolt wraps
// some of its file errors with %s (growing the file), so the text is the
// fallback where the chain was cut.
func noSpace(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "no space left on device") || strings.Contains(s, "disk quota exceeded")
}
