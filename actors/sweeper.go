package actors

import (
	"context"
	"strings"
	"time"

	"github.com/mockgql/mockgql/persistence"
)

// RunSweeper deletes expired session projects now and then every
// Config.SweepEvery until ctx ends. It works from the store's expiry index,
// so it does not depend on grains being active, and a project whose
// deadline passed while the node was down is deleted right after start.
func (s *Service) RunSweeper(ctx context.Context) {
	every := s.env.Config.SweepEvery
	if every <= 0 {
		return
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
func (s *Service) Sweep(ctx context.Context) error {
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
	for _, key := range due {
		projectID := key[strings.IndexByte(key, '/')+1:]
		var ex expired
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := s.call(cctx, KindProject, projectID, "expire", projectArgs{Access: access{System: true}, ExpiryKey: key}, &ex)
		if err == nil && ex.Slug != "" {
			_ = s.call(cctx, KindSlug, ex.Slug, "release", slugArgs{ProjectID: projectID}, nil)
		}
		if err == nil && ex.Session != "" {
			_ = s.call(cctx, KindSession, ex.Session, "releaseProject", sessionArgs{ProjectID: projectID}, nil)
		}
		cancel()
		if err != nil {
			return err
		}
		s.slugs.m.Delete(ex.Slug)
	}
	return nil
}
