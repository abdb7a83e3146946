package exec

import (
	"context"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Check parses and validates query as Prepare does — the same document
// bounds, validation slots and ctx — without selecting an operation or
// coercing variables: the errors a client's document meets on this
// executor's schema, nil when it is valid (the drift check's
// checkOperations).
func (e *Executor) Check(ctx context.Context, query string) []*gqlerror.Error {
	if d := e.document(ctx, query); d.refused != nil {
		return d.refused.Errors
	}
	return nil
}
