package actors

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// ProtocolVersion names the grain protocol (actors/pb) this build speaks.
// Nodes of another version are not admitted to the cluster
// (cluster/provider.go): bump it with every change of the wire between
// nodes that an older node would misread.
const ProtocolVersion = 3

// Request is a grain request: a generated message whose field 1 is its
// pb.Header (TestProtocolRequests checks every one). What each grain kind
// accepts is the type switch of its behavior's handle.
type Request interface {
	proto.Message
	GetHeader() *pb.Header
}

// headerOf returns req's header, giving it one if it has none.
func headerOf(req Request) *pb.Header {
	if h := req.GetHeader(); h != nil {
		return h
	}
	h := &pb.Header{}
	r := req.ProtoReflect()
	r.Set(r.Descriptor().Fields().ByNumber(1), protoreflect.ValueOfMessage(h.ProtoReflect()))
	return h
}

// setAccess sets field 2 of req, its pb.Access (the requests of the
// project grain that check the caller; TestProtocolRequests checks that
// every request with an access has it there). A request without one is
// refused here rather than sent without its caller's rights.
func setAccess(req Request, a *pb.Access) error {
	r := req.ProtoReflect()
	f := r.Descriptor().Fields().ByNumber(2)
	if f == nil || f.Message() == nil || f.Message().FullName() != a.ProtoReflect().Descriptor().FullName() {
		return fmt.Errorf("%s carries no access", requestName(req))
	}
	r.Set(f, protoreflect.ValueOfMessage(a.ProtoReflect()))
	return nil
}

// requestName is a request's message name, for logs and errors.
func requestName(req Request) string { return string(req.ProtoReflect().Descriptor().Name()) }

// errUnknownRequest is what a grain answers a request its kind does not handle.
var errUnknownRequest = errors.New("unknown request")

// unknownRequest is the answer of a grain asked what its kind does not do.
func unknownRequest(g *grain, c *call) error {
	return fmt.Errorf("%s: %w %s", g.kind, errUnknownRequest, requestName(c.req))
}

// The documents that travel whole (pb.ProjectDoc and the like) carry their
// canonical stored encoding: the JSON grains checkpoint. encodeDoc and
// decodeDoc are that encoding's one pair of functions.

// encodeDoc encodes a document; the model's documents always encode.
func encodeDoc(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode %T: %v", v, err)) // a bug: safeHandle contains it
	}
	return b
}

// decodeDoc decodes a document; an absent one is T's zero value.
func decodeDoc[T any](b []byte) (*T, error) {
	v := new(T)
	if len(b) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("decode %T: %w", v, err)
	}
	return v, nil
}

// stamp and unstamp carry a time; the zero time stays zero.
func stamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}

func unstamp(ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	return ts.AsTime()
}

// resultOf puts a method's result into a Reply: the one conversion of
// results to the wire (the client's decoders are the other way).
func resultOf(res any) (*pb.Reply, error) {
	r := &pb.Reply{}
	if isNilSlice(res) {
		return r, nil // no result: the client's decoder answers a nil slice
	}
	switch v := res.(type) {
	case nil:
	case *pb.Reply:
		return v, nil
	case bool:
		r.Result = &pb.Reply_Done{Done: v}
	case string:
		r.Result = &pb.Reply_Sdl{Sdl: v}
	case *model.Project:
		r.Result = &pb.Reply_Project{Project: &pb.ProjectDoc{Json: encodeDoc(v)}}
	case *model.Table:
		r.Result = &pb.Reply_Table{Table: &pb.TableDoc{Json: encodeDoc(v)}}
	case []*model.Table:
		l := &pb.TableList{Tables: make([]*pb.TableDoc, 0, len(v))}
		for _, t := range v {
			l.Tables = append(l.Tables, &pb.TableDoc{Json: encodeDoc(t)})
		}
		r.Result = &pb.Reply_Tables{Tables: l}
	case *model.Attribute:
		r.Result = &pb.Reply_Attribute{Attribute: &pb.AttributeDoc{Json: encodeDoc(v)}}
	case *model.Relation:
		r.Result = &pb.Reply_Relation{Relation: &pb.RelationDoc{Json: encodeDoc(v)}}
	case *model.Operation:
		r.Result = &pb.Reply_Operation{Operation: &pb.OperationDoc{Json: encodeDoc(v)}}
	case []*model.Operation:
		l := &pb.OperationList{Operations: make([]*pb.OperationDoc, 0, len(v))}
		for _, o := range v {
			l.Operations = append(l.Operations, &pb.OperationDoc{Json: encodeDoc(o)})
		}
		r.Result = &pb.Reply_Operations{Operations: l}
	case []*model.View:
		l := &pb.ViewList{Views: make([]*pb.ViewDoc, 0, len(v))}
		for _, w := range v {
			l.Views = append(l.Views, &pb.ViewDoc{Json: encodeDoc(w)})
		}
		r.Result = &pb.Reply_Views{Views: l}
	default:
		return grainResultOf(r, res)
	}
	return r, nil
}

// isNilSlice says whether res is a nil list result. A list result that is
// empty but not nil travels as an empty list message (message fields of a
// oneof keep their presence on the wire), so the caller sees the
// difference as it did when results travelled as JSON (null and []).
func isNilSlice(res any) bool {
	switch v := res.(type) {
	case []*model.Table:
		return v == nil
	case []*model.Operation:
		return v == nil
	case []*model.View:
		return v == nil
	case []SessionClaim:
		return v == nil
	}
	return false
}

// grainResultOf puts the results of grains other than the model edits into r.
func grainResultOf(r *pb.Reply, res any) (*pb.Reply, error) {
	switch v := res.(type) {
	case ProjectOwner:
		r.Result = &pb.Reply_Owner{Owner: &pb.ProjectOwnerInfo{Kind: string(v.Kind), AccountId: v.AccountID, Session: v.Session}}
	case expired:
		r.Result = &pb.Reply_Expired{Expired: &pb.Expired{Deleted: v.Deleted, Slug: v.Slug, Session: v.Session}}
	case AccountState:
		r.Result = &pb.Reply_Account{Account: &pb.AccountRecordDoc{Json: encodeDoc(v)}}
	case quotaUsage:
		r.Result = &pb.Reply_Usage{Usage: &pb.Usage{Requests: v.Requests, Quota: v.Quota, Start: stamp(v.Start), ResetsAt: stamp(v.ResetsAt)}}
	case leaseGrant:
		r.Result = &pb.Reply_LeaseGrant{LeaseGrant: &pb.LeaseGrant{Units: v.Units, Start: stamp(v.Start), End: stamp(v.End)}}
	case model.APIKey:
		r.Result = &pb.Reply_ApiKey{ApiKey: &pb.APIKeyDoc{Json: encodeDoc(v)}}
	case ActorGrant:
		r.Result = &pb.Reply_ActorGrant{ActorGrant: &pb.ActorGrant{ActorToken: v.ActorToken, ExpiresInSeconds: int32(v.ExpiresInSeconds),
			MaxActors: int32(v.MaxActors), CurrentActors: int32(v.CurrentActors)}}
	case UserState:
		r.Result = &pb.Reply_User{User: &pb.UserRecordDoc{Json: encodeDoc(v)}}
	case []SessionClaim:
		l := &pb.SessionClaims{}
		for _, c := range v {
			l.Claims = append(l.Claims, &pb.SessionClaim{ProjectId: c.ProjectID, Expires: stamp(c.Expires)})
		}
		r.Result = &pb.Reply_Claims{Claims: l}
	case AdoptionState:
		r.Result = &pb.Reply_Adoption{Adoption: &pb.Adoption{ProjectId: v.ProjectID, Expires: stamp(v.Expires), Used: v.Used}}
	case slugState:
		r.Result = &pb.Reply_SlugOwner{SlugOwner: &pb.SlugOwner{ProjectId: v.ProjectID}}
	case DatasetMeta:
		r.Result = &pb.Reply_Dataset{Dataset: &pb.DatasetDoc{Json: encodeDoc(v)}}
	case []model.RequestLogEntry:
		r.Result = &pb.Reply_RequestLog{RequestLog: wireRequestLog(v)}
	default:
		return nil, fmt.Errorf("no reply encoding for a result of type %T", res)
	}
	return r, nil
}
