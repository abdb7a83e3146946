package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// RunSweeper deletes expired session and guest projects now and then every
// Config.SweepEvery until ctx ends. It works from the store's expiry index,
// so it does not depend on grains being active, and a project whose
// deadline passed while the node was down is deleted right after start.
func (s *Client) RunSweeper(ctx context.Context) {
	every := s.env.Config.SweepEvery
	if every <= 0 {
		return
	}
	if err := s.MigrateGuests(ctx); err != nil && ctx.Err() == nil {
		s.env.Log.Warn("giving stored guest projects an expiry", "err", err)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.env.Log.Warn("sweeping expired projects", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Sweep deletes every session project whose expiry has passed: its model,
// overlay, adoption tokens and counters (the project grain), its slug and
// its session's claim.
func (s *Client) Sweep(ctx context.Context) error {
	now := expiryKey(s.env.Clock.Now(), "")
	var due []string
	err := s.env.Store.Scan(kindExpiry, "", func(id string, _ []byte) error {
		if id >= now {
			return persistence.ErrStop
		}
		due = append(due, id)
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, key := range due {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := s.expire(cctx, key); err != nil {
			errs = append(errs, err) // the entry stays; the next sweep retries it
		}
		cancel()
	}
	return errors.Join(errs...)
}

// expire deletes one due project, then releases its slug and its session's
// claim, then drops its index entry (project_expiry.go).
func (s *Client) expire(ctx context.Context, key string) error {
	projectID := key[strings.IndexByte(key, '/')+1:]
	r, err := s.ask(ctx, kindProject, projectID, &pb.ProjectExpire{ExpiryKey: key})
	if err != nil {
		return fmt.Errorf("expire %s: %w", projectID, err)
	}
	ex := expiredOf(r)
	if !ex.Deleted {
		return nil
	}
	if ex.Slug != "" {
		if err := s.tell(ctx, kindSlug, ex.Slug, &pb.SlugRelease{ProjectId: projectID}); err != nil {
			return fmt.Errorf("release slug %s: %w", ex.Slug, err)
		}
		s.slugs.m.Delete(ex.Slug)
	}
	if ex.Session != "" {
		if err := s.tell(ctx, kindSession, ex.Session, &pb.SessionReleaseProject{ProjectId: projectID}); err != nil {
			return fmt.Errorf("release the session of %s: %w", projectID, err)
		}
	}
	return s.tell(ctx, kindProject, projectID, &pb.ProjectExpireDone{ExpiryKey: key})
}

// MigrateGuests gives every guest project stored before guest projects
// expired (one with no expiry) its expiry, Config.GuestTTL from now, by
// activating its grain once (extendGuest). RunSweeper runs it at start;
// once every such project has an expiry it finds none, so it costs one
// scan of this node's project records a start.
func (s *Client) MigrateGuests(ctx context.Context) error {
	if s.env.Config.GuestTTL <= 0 {
		return nil
	}
	var legacy []string
	err := s.env.Store.Scan(kindProject, "", func(id string, v []byte) error {
		if !bytes.Contains(v, []byte(`"GUEST"`)) {
			return nil // not a guest project: no need to decode it
		}
		var st struct {
			Project struct {
				Kind      model.ProjectKind `json:"kind"`
				ExpiresAt time.Time         `json:"expiresAt"`
			} `json:"project"`
			Kept bool `json:"kept"`
		}
		if json.Unmarshal(v, &st) == nil && st.Project.Kind == model.KindGuest && st.Project.ExpiresAt.IsZero() && !st.Kept {
			legacy = append(legacy, id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range legacy {
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := s.askProjectAs(cctx, id, Access{System: true}, &pb.ProjectOwnerQuery{})
		cancel()
		if err != nil && model.ErrorCode(err) != model.CodeNotFound {
			errs = append(errs, fmt.Errorf("guest project %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}
