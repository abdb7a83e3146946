package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// TestFullDiskLogRateLimited: of lines about a full disk the log keeps one
// a message an interval, with the number it dropped; other lines pass.
func TestFullDiskLogRateLimited(t *testing.T) {
	var buf bytes.Buffer
	log := quietFullDisk(slog.New(slog.NewTextHandler(&buf, nil)), time.Hour)
	full := fmt.Errorf("write x: %w", persistence.ErrStorageFull)
	for range 1000 {
		log.Warn("project checkpoint failed", "err", full)
		log.Error("replica", "err", full)
	}
	log.With("node", "a").Warn("project checkpoint failed", "err", full) // a derived logger shares the limit
	log.Warn("something else", "err", model.Errorf(model.CodeUnavailable, "moving"))
	log.Warn("something else", "err", model.Errorf(model.CodeUnavailable, "moving"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 lines (one per full-disk message, two others), got %d:\n%s", len(lines), buf.String())
	}
	for _, l := range lines[:2] {
		if !strings.Contains(l, "suppressed=0") {
			t.Fatalf("the first line of a message: %s", l)
		}
	}
}

// TestFullDiskLogCountsSuppressed: the line after an interval carries the
// number of lines dropped during it (records' own times, no sleeping).
func TestFullDiskLogCountsSuppressed(t *testing.T) {
	var buf bytes.Buffer
	h := quietFullDisk(slog.New(slog.NewTextHandler(&buf, nil)), time.Minute).Handler()
	full := fmt.Errorf("write x: %w", persistence.ErrStorageFull)
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for i := range 181 { // three minutes, one a second
		r := slog.NewRecord(t0.Add(time.Duration(i)*time.Second), slog.LevelWarn, "session checkpoint failed", 0)
		r.AddAttrs(slog.Any("err", full))
		if err := h.Handle(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(got) != 4 || !strings.Contains(got[1], "suppressed=59") || !strings.Contains(got[3], "suppressed=59") {
		t.Fatalf("181 lines in 3 minutes: want 4 with suppressed=59 after the first, got:\n%s", buf.String())
	}
}
