package app

import (
	"context"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/actors/pb"
	"github.com/mockgql/mockgql/model"
)

// windowKind maps a window name to its grain kind and limit; "" for an
// unknown name or a window turned off.
func (s *Service) windowKind(window string) string {
	c := s.env.Config
	switch {
	case window == actors.WindowManagement && c.IPLimitManagement > 0:
		return actors.KindIPManagement
	case window == actors.WindowPublic && c.IPLimitPublic > 0:
		return actors.KindIPPublic
	case window == actors.WindowCreate && c.IPLimitCreate > 0:
		return actors.KindIPCreate
	}
	return ""
}

// CheckWindow counts a request of client ip against the named per-IP
// window (WindowManagement, WindowPublic, WindowCreate): 429
// TOO_MANY_REQUESTS with Retry-After once it is full. A window set to 0,
// or an unknown IP (""), is not counted.
func (s *Service) CheckWindow(ctx context.Context, window, ip string) error {
	kind := s.windowKind(window)
	if kind == "" || ip == "" {
		return nil
	}
	return s.Consume(ctx, kind, ip)
}

// admitLogin admits a login attempt for the normalised e-mail e, or
// refuses it (429 TOO_MANY_REQUESTS with Retry-After) while the address
// must wait: after --login-attempts consecutive failures, whatever the
// password and wherever the attempts come from, one minute, doubled by
// each further failure up to an hour. The caller must call done with the
// password check's error: UNAUTHENTICATED counts a failure, nil resets
// the count, anything else counts for nothing.
func (s *Service) admitLogin(ctx context.Context, e string) (done func(error), err error) {
	if s.env.Config.LoginAttempts <= 0 {
		return func(error) {}, nil
	}
	id := actors.HashSecret(e)
	if err := s.Tell(ctx, actors.KindLogin, id, &pb.LoginAdmit{}); err != nil {
		return nil, err
	}
	return func(checked error) {
		r := &pb.LoginReport{Failed: model.ErrorCode(checked) == model.ErrUnauthenticated, Succeeded: checked == nil}
		if err := s.Tell(context.WithoutCancel(ctx), actors.KindLogin, id, r); err != nil {
			s.env.Log.Warn("login back-off report failed", "err", err)
		}
	}, nil
}
