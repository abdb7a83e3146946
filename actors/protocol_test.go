package actors

import (
	"errors"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
	"github.com/mockgql/mockgql/persistence"
)

// protocolRequests walks the generated registry: every message of the
// grain protocol whose field 1 is a pb.Header is a request.
func protocolRequests(tb testing.TB) []protoreflect.MessageType {
	tb.Helper()
	header := (&pb.Header{}).ProtoReflect().Descriptor().FullName()
	var out []protoreflect.MessageType
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		d := mt.Descriptor()
		if d.ParentFile().Package() != "mockgql.actors.v1" {
			return true
		}
		f := d.Fields().ByNumber(1)
		if f != nil && f.Message() != nil && f.Message().FullName() == header {
			out = append(out, mt)
		} else if h := d.Fields().ByName("header"); h != nil {
			tb.Errorf("%s has its header as field %d; it must be field 1 (headerOf)", d.Name(), h.Number())
		}
		return true
	})
	if len(out) < 60 {
		tb.Fatalf("found %d requests in the registry; is actors/pb linked?", len(out))
	}
	return out
}

// TestProtocolRequests: every request message of the generated registry
// is in the type switch of some grain kind's handle (a request no grain
// handles fails here), has its header as field 1 and, if it carries the
// caller's access, has it as field 2 (setAccess). A kind's handle is
// asked each request once, on a fresh unloaded grain over a real store:
// an answer other than unknownRequest's means the switch has the type.
func TestProtocolRequests(t *testing.T) {
	db, err := persistence.Open(filepath.Join(t.TempDir(), "mockgql.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	env := &Env{Store: db, Pool: NewPool(db), Local: &Local{}, Clock: SystemClock{}, Config: DefaultConfig(),
		Log: slog.New(slog.DiscardHandler)}
	env.Config.BcryptCost = 4
	kinds := Kinds(env)
	access := (&pb.Access{}).ProtoReflect().Descriptor().FullName()
	for _, mt := range protocolRequests(t) {
		d := mt.Descriptor()
		if f := d.Fields().ByName("access"); f != nil && (f.Number() != 2 || f.Message() == nil || f.Message().FullName() != access) {
			t.Errorf("%s carries access as field %d; it must be field 2 of type Access", d.Name(), f.Number())
		}
		var handledBy []string
		for kind, produce := range kinds {
			g := produce().(*grain)
			g.kind, g.id = kind, "protocol-test"
			req := mt.New().Interface().(grainRequest)
			_, err := g.safeHandle(&call{req: req, hdr: headerOf(req)})
			if !errors.Is(err, errUnknownRequest) {
				handledBy = append(handledBy, kind)
			}
		}
		if len(handledBy) == 0 {
			t.Errorf("no grain kind handles %s: add it to a handle's type switch", d.Name())
		}
		t.Logf("%-24s %s", d.Name(), strings.Join(handledBy, " "))
	}
}

// TestUnknownRequestRefused: a request a kind does not handle is refused
// with errUnknownRequest, not run.
func TestUnknownRequestRefused(t *testing.T) {
	g := &grain{kind: kindSlug, id: "s", b: &slugGrain{}}
	req := &pb.KeyAcquire{}
	if _, err := g.safeHandle(&call{req: req, hdr: headerOf(req)}); !errors.Is(err, errUnknownRequest) {
		t.Fatalf("a slug grain asked KeyAcquire: %v", err)
	}
}

// overTheWire is r after a hop between nodes: protoactor marshals remote
// messages with protobuf.
func overTheWire(tb testing.TB, r *pb.Reply) *pb.Reply {
	tb.Helper()
	b, err := proto.Marshal(r)
	if err != nil {
		tb.Fatal(err)
	}
	out := &pb.Reply{}
	if err := proto.Unmarshal(b, out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestResultsCrossTheWire: a result put on the wire (resultOf) and taken
// off by the client's decoders is what the grain returned, after a hop
// between nodes as in one process: a nil list stays nil and an empty one
// empty (as null and [] did in JSON), the zero time stays zero.
func TestResultsCrossTheWire(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 123456789, time.UTC)
	for _, tc := range []struct {
		name   string
		res    result
		decode func(*pb.Reply) (any, error)
	}{
		{"no operations generated", operationsReply(nil), func(r *pb.Reply) (any, error) {
			if r.GetOperations() == nil {
				return operationsReply(nil), nil
			}
			return operationsOf(decodeDocs[model.Operation](r.GetOperations().GetOperations()))
		}},
		{"an empty list of views", viewsReply{}, func(r *pb.Reply) (any, error) {
			if r.GetViews() == nil {
				return viewsReply(nil), nil
			}
			v, err := decodeDocs[model.View](r.GetViews().GetViews())
			return viewsReply(v), err
		}},
		{"a table", tableReply{&model.Table{ID: "p1t1", Name: "Products"}}, func(r *pb.Reply) (any, error) { return tableOf(editResult[model.Table](r, nil)) }},
		{"usage, a zero time", quotaUsage{Requests: 3, Quota: 500, Start: at}, func(r *pb.Reply) (any, error) { return usageOf(r), nil }},
		{"a lease grant", leaseGrant{Units: 50, Start: at, End: at.Add(time.Hour)}, func(r *pb.Reply) (any, error) { return leaseGrantOf(r), nil }},
		{"no live claims", sessionClaims(nil), func(r *pb.Reply) (any, error) { return sessionClaims(claimsOf(r)), nil }},
		{"claims", sessionClaims{{ProjectID: "p1", Expires: at}}, func(r *pb.Reply) (any, error) { return sessionClaims(claimsOf(r)), nil }},
		{"the owner", ProjectOwner{Kind: model.KindSession, Session: "h"}, func(r *pb.Reply) (any, error) { return ownerOf(r), nil }},
		{"an adoption", AdoptionState{ProjectID: "p1", Expires: at, Used: true}, func(r *pb.Reply) (any, error) { return adoptionOf(r), nil }},
		{"a release that freed nothing", doneReply(false), func(r *pb.Reply) (any, error) { return doneReply(r.GetDone()), nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := resultOf(tc.res)
			for where, reply := range map[string]*pb.Reply{"in process": r, "between nodes": overTheWire(t, r)} {
				got, err := tc.decode(reply)
				if err != nil || !reflect.DeepEqual(got, tc.res) {
					t.Errorf("%s: got %#v (%v), want %#v", where, got, err, tc.res)
				}
			}
		})
	}
}

// TestSetAccessOnlyWhereAccessIs: Client.askProjectAs puts the caller's
// access into field 2 of requests that carry one, and refuses, before
// sending, a request whose field 2 is something else or absent (it would
// otherwise reach the grain without its caller's rights, or panic).
func TestSetAccessOnlyWhereAccessIs(t *testing.T) {
	a := Access{AccountID: "acc1", Role: model.RoleEditor}
	for _, tt := range []struct {
		name string
		req  grainRequest
		ok   bool
	}{
		{"project get", &pb.ProjectGet{}, true},
		{"edit", &pb.EditCreateTable{Name: "T"}, true},
		{"field 2 is a string", &pb.ProjectEvictKey{KeyHash: "h"}, false},
		{"no field 2", &pb.SlugGet{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := setAccess(tt.req, a.wire())
			if (err == nil) != tt.ok {
				t.Fatalf("setAccess: %v, want ok=%v", err, tt.ok)
			}
			if !tt.ok {
				return
			}
			got := accessOf(tt.req.(interface{ GetAccess() *pb.Access }).GetAccess())
			if got != a {
				t.Fatalf("the request carries %+v, want %+v", got, a)
			}
		})
	}
}
