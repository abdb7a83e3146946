package dataset

import (
	"sync"
	"sync/atomic"
)

// lazyIndex is an index of one path, built once on first use: get waits
// for the build, getReady never does (it starts the build in the
// background and gives nil until it is done).
type lazyIndex[T any] struct {
	once    sync.Once
	v       *T
	ready   atomic.Pointer[T]
	started atomic.Bool
}

func (l *lazyIndex[T]) get(build func() *T) *T {
	l.once.Do(func() {
		l.v = build()
		l.ready.Store(l.v)
	})
	return l.v
}

func (l *lazyIndex[T]) getReady(build func() *T) *T {
	if v := l.ready.Load(); v != nil {
		return v
	}
	if l.started.CompareAndSwap(false, true) {
		go l.get(build)
	}
	return nil
}

// lazyEntry returns the entry of path in *m, adding it, under d.mu.
func lazyEntry[T any](d *Dataset, m *map[string]*lazyIndex[T], path string) *lazyIndex[T] {
	d.mu.Lock()
	defer d.mu.Unlock()
	if *m == nil {
		*m = map[string]*lazyIndex[T]{}
	}
	l := (*m)[path]
	if l == nil {
		l = &lazyIndex[T]{}
		(*m)[path] = l
	}
	return l
}
