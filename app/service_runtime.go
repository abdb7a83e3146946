package app

import (
	"context"

	"github.com/mockgql/mockgql/model"
)

// Runtime runs one /mock/{slug}/graphql request (RuntimePath.Run).
func (s *core) serveRuntime(ctx context.Context, r model.RuntimeRequest) (*model.RuntimeResult, error) {
	return s.runtime.Run(ctx, r)
}
