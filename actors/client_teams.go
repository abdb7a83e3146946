package actors

import (
	"context"

	"github.com/mockgql/mockgql/actors/internal/pb"
)

// CheckSession asks the account grain whether userID is a member whose
// session tokens of version are current (AccountCheckSession): nil, or
// FORBIDDEN (no member) or UNAUTHENTICATED (revoked). The grain answers
// from its state; nothing is read from the store.
func (s *Client) CheckSession(ctx context.Context, accountID, userID string, version uint64) error {
	_, err := s.ask(ctx, kindAccount, accountID, &pb.AccountCheckSession{UserId: userID, Version: version})
	return err
}
