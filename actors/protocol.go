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
)

// ProtocolVersion names the grain protocol (actors/pb) this build speaks.
// Nodes of another version are not admitted to the cluster
// (cluster/provider.go): bump it with every change of the wire between
// nodes that an older node would misread (5: a project record may hold
// its contract document compressed, project_stored.go; 6: runtime calls
// and events carry a sandbox, which an older node would drop, serving the
// project's data instead and sending a sandbox's events to everyone; 7:
// named states, ProjectMockState and the runtime call's state).
const ProtocolVersion = 7

// grainRequest is a grain request: a generated message whose field 1 is its
// pb.Header (TestProtocolRequests checks every one). What each grain kind
// accepts is the type switch of its behavior's handle.
type grainRequest interface {
	proto.Message
	GetHeader() *pb.Header
}

// headerOf returns req's header, giving it one if it has none.
func headerOf(req grainRequest) *pb.Header {
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
func setAccess(req grainRequest, a *pb.Access) error {
	r := req.ProtoReflect()
	f := r.Descriptor().Fields().ByNumber(2)
	if f == nil || f.Message() == nil || f.Message().FullName() != a.ProtoReflect().Descriptor().FullName() {
		return fmt.Errorf("%s carries no access", requestName(req))
	}
	r.Set(f, protoreflect.ValueOfMessage(a.ProtoReflect()))
	return nil
}

// requestName is a request's message name, for logs and errors.
func requestName(req grainRequest) string { return string(req.ProtoReflect().Descriptor().Name()) }

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
