package http

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestDeadlineContext: the lazily made deadline context answers as
// context.WithDeadline's would, whether or not Done was asked for: its
// deadline passing, its parent cancelled, its cancel function called, and
// a child context following it.
func TestDeadlineContext(t *testing.T) {
	t.Parallel()
	for _, waited := range []bool{false, true} {
		name := map[bool]string{false: "Err only", true: "Done asked"}[waited]
		t.Run(name, func(t *testing.T) {
			t.Run("live", func(t *testing.T) {
				d := time.Now().Add(time.Hour)
				ctx, cancel := withDeadline(context.Background(), d)
				defer cancel()
				if waited {
					_ = ctx.Done()
				}
				if got, ok := ctx.Deadline(); !ok || !got.Equal(d) || ctx.Err() != nil {
					t.Fatalf("deadline %v %v, err %v", got, ok, ctx.Err())
				}
			})
			t.Run("deadline passed", func(t *testing.T) {
				ctx, cancel := withDeadline(context.Background(), time.Now().Add(-time.Millisecond))
				defer cancel()
				if waited {
					<-ctx.Done()
				}
				if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
					t.Fatalf("err %v", ctx.Err())
				}
			})
			t.Run("parent cancelled", func(t *testing.T) {
				parent, stop := context.WithCancel(context.Background())
				ctx, cancel := withDeadline(parent, time.Now().Add(time.Hour))
				defer cancel()
				if waited {
					_ = ctx.Done()
				}
				stop()
				if waited {
					<-ctx.Done()
				}
				if !errors.Is(ctx.Err(), context.Canceled) {
					t.Fatalf("err %v", ctx.Err())
				}
			})
			t.Run("cancelled", func(t *testing.T) {
				ctx, cancel := withDeadline(context.Background(), time.Now().Add(time.Hour))
				if waited {
					_ = ctx.Done()
				}
				cancel()
				<-ctx.Done() // made after the cancel: already closed
				if !errors.Is(ctx.Err(), context.Canceled) {
					t.Fatalf("err %v", ctx.Err())
				}
			})
			t.Run("a child follows it", func(t *testing.T) {
				ctx, cancel := withDeadline(context.Background(), time.Now().Add(time.Hour))
				if waited {
					_ = ctx.Done()
				}
				child, stopChild := context.WithCancel(ctx)
				defer stopChild()
				cancel()
				<-child.Done()
				if !errors.Is(child.Err(), context.Canceled) {
					t.Fatalf("child err %v", child.Err())
				}
			})
		})
	}
}
