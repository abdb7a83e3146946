package actors

import (
	"bytes"
	"testing"
	"time"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// TestRuntimeReplyRoundTrip: a runtime result or refusal crosses the wire
// (runtimeReply) and comes back (runtimeResult) unchanged.
func TestRuntimeReplyRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		res      *model.RuntimeResult
		err      error
		wantCode model.Code // the error's code, when the result is an error
	}{
		{name: "answer", res: &model.RuntimeResult{Status: 200, Body: []byte(`{"data":{}}`)}},
		{name: "refusal", res: &model.RuntimeResult{Status: 400, Body: []byte(`{"errors":[]}`), GraphQLCode: "GRAPHQL_VALIDATION_FAILED"}},
		{name: "error", err: model.Errorf(model.CodeScopeInsufficient, "no"), wantCode: model.CodeScopeInsufficient},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := runtimeReply(tc.res, tc.err)
			var sendErr error
			if reply.ErrorCode != "" && reply.Status == 0 {
				sendErr = replyError(reply) // as grains.send does
			}
			got, err := runtimeResult(reply, sendErr)
			if tc.wantCode != "" {
				if model.ErrorCode(err) != tc.wantCode || got != nil {
					t.Fatalf("got %v, %v; want the error %s", got, err, tc.wantCode)
				}
				return
			}
			if err != nil || got.Status != tc.res.Status || !bytes.Equal(got.Body, tc.res.Body) || got.GraphQLCode != tc.res.GraphQLCode {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.res)
			}
		})
	}
}

// TestServedRequestCarriesBodyError: a body the receiving node could not
// read reaches the project's node as its error, read in its turn.
func TestServedRequestCarriesBodyError(t *testing.T) {
	r := servedRequest(&pb.ProjectServe{Slug: "s", ApiKey: "k", BodyErrorCode: string(model.CodePayloadTooLarge), BodyErrorMessage: "too big"})
	if r.Slug != "s" || r.KeyValue != "k" || r.Body != nil || r.BodyFrom == nil {
		t.Fatalf("request %+v", r)
	}
	_, err := r.BodyFrom.ReadBody()
	if me := model.AsError(err); me == nil || me.Code != model.CodePayloadTooLarge || me.Message != "too big" {
		t.Fatalf("body error %v", err)
	}
}

// TestCallContextDeadline: a call's deadline bounds its work; without one
// the default applies.
func TestCallContextDeadline(t *testing.T) {
	dl := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	ctx, cancel := callContext(&pb.Header{DeadlineUnixMs: dl.UnixMilli()})
	defer cancel()
	if got, ok := ctx.Deadline(); !ok || !got.Equal(dl) {
		t.Fatalf("deadline %v, want %v", got, dl)
	}
	ctx2, cancel2 := callContext(&pb.Header{})
	defer cancel2()
	if got, ok := ctx2.Deadline(); !ok || time.Until(got) > defaultCallTimeout || time.Until(got) <= 0 {
		t.Fatalf("default deadline %v", got)
	}
}
