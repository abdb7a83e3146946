package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/mockgql/mockgql/model"
)

// fullDiskLog passes log records through, except those about a full disk
// (an error attribute whose code is STORAGE_FULL): of those it passes the
// first of each message and then one per interval, with "suppressed", the
// number it dropped since the last one. A full disk fails every write of
// every grain, each flush tick; without this the log fills with the same
// line (a thousand in three minutes), on the disk that is full.
type fullDiskLog struct {
	next  slog.Handler
	every time.Duration
	st    *fullDiskState // shared by the handlers WithAttrs and WithGroup derive
}

type fullDiskState struct {
	mu      sync.Mutex
	last    map[string]time.Time
	dropped map[string]int
}

// quietFullDisk wraps l's handler in a fullDiskLog.
func quietFullDisk(l *slog.Logger, every time.Duration) *slog.Logger {
	return slog.New(fullDiskLog{next: l.Handler(), every: every,
		st: &fullDiskState{last: map[string]time.Time{}, dropped: map[string]int{}}})
}

// Enabled implements slog.Handler.
func (h fullDiskLog) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

// WithAttrs implements slog.Handler.
func (h fullDiskLog) WithAttrs(as []slog.Attr) slog.Handler {
	h.next = h.next.WithAttrs(as)
	return h
}

// WithGroup implements slog.Handler.
func (h fullDiskLog) WithGroup(name string) slog.Handler {
	h.next = h.next.WithGroup(name)
	return h
}

// Handle implements slog.Handler.
func (h fullDiskLog) Handle(ctx context.Context, r slog.Record) error {
	if !aboutFullDisk(r) {
		return h.next.Handle(ctx, r)
	}
	now := r.Time
	if now.IsZero() {
		now = time.Now()
	}
	h.st.mu.Lock()
	if last, ok := h.st.last[r.Message]; ok && now.Sub(last) < h.every {
		h.st.dropped[r.Message]++
		h.st.mu.Unlock()
		return nil
	}
	n := h.st.dropped[r.Message]
	h.st.last[r.Message], h.st.dropped[r.Message] = now, 0
	h.st.mu.Unlock()
	r = r.Clone()
	r.AddAttrs(slog.Int("suppressed", n), slog.Duration("at_most_one_per", h.every))
	return h.next.Handle(ctx, r)
}

// aboutFullDisk reports whether r carries an error whose code is STORAGE_FULL.
func aboutFullDisk(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && model.ErrorCode(err) == model.CodeStorageFull {
			found = true
		}
		return !found
	})
	return found
}
