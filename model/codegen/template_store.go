package codegen

// storeSource is api/store.go of the generated module: the storage
// interface every table's handlers use and its in-memory implementation.
const storeSource = `package api

import (
	"context"
	"errors"
	"strconv"
	"sync"
)

// ErrNotFound is returned by a Store when no row has the id.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned by Store.Create when a row with the id exists.
var ErrConflict = errors.New("a row with this id exists")

// Store keeps the rows of one table. Replace MemoryStore with an
// implementation over your database; the handlers need only this.
// Implementations must be safe for concurrent use.
type Store[T any] interface {
	// List returns up to limit rows from offset, in a stable order, and the
	// number of rows in all.
	List(ctx context.Context, offset, limit int) (rows []T, total int, err error)
	// Get returns the row with the id, or ErrNotFound.
	Get(ctx context.Context, id string) (T, error)
	// Create adds row, choosing an id when it has none; ErrConflict when
	// the id is taken.
	Create(ctx context.Context, row T) (T, error)
	// Update sets the fields that patch sets on the row with the id, or
	// returns ErrNotFound. The id does not change.
	Update(ctx context.Context, id string, patch T) (T, error)
	// Delete removes the row with the id and returns it, or ErrNotFound.
	Delete(ctx context.Context, id string) (T, error)
	// Find returns the rows that where matches (every row for a nil
	// filter) in storage order, the order List pages through. Over a
	// database, translate where into its query (see Filter).
	Find(ctx context.Context, where *Filter) ([]T, error)
}

// Record is what the generic code needs of a row type: implemented by the
// pointer type of every generated row.
type Record[T any] interface {
	*T
	// rowKey points at the row's id.
	rowKey() *string
	// applyPatch sets the fields that patch sets.
	applyPatch(patch T)
	// value returns the JSON value of a field (nil when unset: numbers as
	// float64, times as text); ok is false for a field the row type lacks.
	value(field string) (v any, ok bool)
	// numericFields names the Int and Float fields, which aggregates sum.
	numericFields() []string
}

// MemoryStore is a Store in memory, in insertion order. It is safe for
// concurrent use; its rows are lost when the process ends.
type MemoryStore[T any, P Record[T]] struct {
	mu    sync.RWMutex
	rows  map[string]T
	order []string
	next  int
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore[T any, P Record[T]]() *MemoryStore[T, P] {
	return &MemoryStore[T, P]{rows: map[string]T{}}
}

// List implements Store.
func (s *MemoryStore[T, P]) List(_ context.Context, offset, limit int) ([]T, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := []T{}
	for i := offset; i >= 0 && i < len(s.order) && len(rows) < limit; i++ {
		rows = append(rows, s.rows[s.order[i]])
	}
	return rows, len(s.order), nil
}

// Get implements Store.
func (s *MemoryStore[T, P]) Get(_ context.Context, id string) (T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	row, ok := s.rows[id]
	if !ok {
		return row, ErrNotFound
	}
	return row, nil
}

// Create implements Store: a row without id gets the next free number.
func (s *MemoryStore[T, P]) Create(_ context.Context, row T) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := P(&row).rowKey()
	if *key == "" {
		for *key == "" || s.taken(*key) {
			s.next++
			*key = strconv.Itoa(s.next)
		}
	}
	if s.taken(*key) {
		var zero T
		return zero, ErrConflict
	}
	s.rows[*key] = row
	s.order = append(s.order, *key)
	return row, nil
}

func (s *MemoryStore[T, P]) taken(id string) bool {
	_, ok := s.rows[id]
	return ok
}

// Update implements Store.
func (s *MemoryStore[T, P]) Update(_ context.Context, id string, patch T) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	row, ok := s.rows[id]
	if !ok {
		return row, ErrNotFound
	}
	P(&row).applyPatch(patch)
	*P(&row).rowKey() = id
	s.rows[id] = row
	return row, nil
}

// Find implements Store.
func (s *MemoryStore[T, P]) Find(_ context.Context, where *Filter) ([]T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows := []T{}
	for _, id := range s.order {
		row := s.rows[id]
		if where.Match(func(f string) any { v, _ := P(&row).value(f); return v }) {
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// Delete implements Store.
func (s *MemoryStore[T, P]) Delete(_ context.Context, id string) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	row, ok := s.rows[id]
	if !ok {
		return row, ErrNotFound
	}
	delete(s.rows, id)
	for i, k := range s.order {
		if k == id {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	return row, nil
}
`
