// Package actorstest sends grains what no use case sends, for the tests
// of the packages above actors (app's): a call resent with the request ID
// of an earlier one, a sweeper's deletion stopped half-way. The grain
// protocol stays internal to actors; these helpers are its only other
// users, and no non-test file may import them (app/boundary_test.go).
package actorstest

import (
	"context"
	"fmt"

	"github.com/mockgql/mockgql/actors"
	"github.com/mockgql/mockgql/actors/internal/pb"
)

// RuntimeAnswer is a project grain's answer to a runtime call.
type RuntimeAnswer struct {
	Status int
	Body   []byte
}

// Runtime sends the project grain projectID one runtime call whose API
// key the HTTP node checked, under requestID: sent twice with one ID, it
// is the same call resent (cluster.Request does that on a retry).
func Runtime(ctx context.Context, c actors.Caller, projectID, requestID, slug string, body []byte) (RuntimeAnswer, error) {
	msg := &pb.ProjectRuntime{Header: &pb.Header{RequestId: requestID}, Body: body, Slug: slug, KeyVerified: true}
	r, err := reply(c.Request(ctx, "project", projectID, msg))
	if err != nil {
		return RuntimeAnswer{}, err
	}
	return RuntimeAnswer{Status: int(r.Status), Body: r.Body}, nil
}

// Expire runs the first step of the sweeper's deletion of the project
// projectID (its expiry index entry expiryKey) under requestID, and
// nothing after it: what a sweeper that died half-way leaves.
func Expire(ctx context.Context, c actors.Caller, projectID, requestID, expiryKey string) error {
	r, err := reply(c.Request(ctx, "project", projectID, &pb.ProjectExpire{Header: &pb.Header{RequestId: requestID}, ExpiryKey: expiryKey}))
	if err == nil && r.ErrorCode != "" {
		err = fmt.Errorf("%s: %s", r.ErrorCode, r.ErrorMessage)
	}
	return err
}

// reply is the grain's reply message of a call.
func reply(res any, err error) (*pb.Reply, error) {
	if err != nil {
		return nil, err
	}
	r, ok := res.(*pb.Reply)
	if !ok {
		return nil, fmt.Errorf("unexpected reply %T", res)
	}
	return r, nil
}
