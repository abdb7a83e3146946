package actors

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/model"
)

// TestFaultStateLog: the log keeps the newest model.RequestLogSize entries,
// newest first, and clear empties it.
func TestFaultStateLog(t *testing.T) {
	for _, n := range []int{0, 1, 5, model.RequestLogSize, model.RequestLogSize + 1, 3*model.RequestLogSize + 7} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			f := newFaultState()
			for i := 0; i < n; i++ {
				f.record(&model.RequestLogEntry{Query: strconv.Itoa(i)})
			}
			got := f.entries(1000)
			if want := min(n, model.RequestLogSize); len(got) != want {
				t.Fatalf("%d entries, want %d", len(got), want)
			}
			for i, e := range got {
				if e.Query != strconv.Itoa(n-1-i) {
					t.Fatalf("entry %d is request %s, want %d (newest first)", i, e.Query, n-1-i)
				}
			}
			if n > 2 {
				if two := f.entries(2); len(two) != 2 || two[0].ID != got[0].ID || two[1].ID != got[1].ID {
					t.Fatalf("entries(2) = %+v", two)
				}
			}
			f.clear()
			if len(f.entries(10)) != 0 {
				t.Fatal("not empty after clear")
			}
		})
	}
}

// TestFaultStateSeq: a scope's sequence counts from 0 and restarts when
// its settings change; scopes count apart.
func TestFaultStateSeq(t *testing.T) {
	f := newFaultState()
	a := model.FaultSettings{ErrorRate: 0.5, ErrorCode: model.CodeInternal, Seed: 1}
	b := a
	b.Seed = 2
	for _, tc := range []struct {
		scope string
		s     model.FaultSettings
		want  uint64
	}{
		{"", a, 0}, {"", a, 1}, {"op1", a, 0}, {"", a, 2}, {"", b, 0}, {"", b, 1}, {"op1", a, 1}, {"", a, 0},
	} {
		if got := f.seq(tc.scope, &tc.s); got != tc.want {
			t.Fatalf("seq(%q, seed %d) = %d, want %d", tc.scope, tc.s.Seed, got, tc.want)
		}
	}
}

// TestFaultScope: the first root field's operation with settings wins,
// a connection field counts as its list operation, else the project's.
func TestFaultScope(t *testing.T) {
	proj := &model.FaultSettings{Seed: 1}
	list := &model.FaultSettings{Seed: 2}
	single := &model.FaultSettings{Seed: 3}
	p := &model.Project{Faults: proj, Operations: []*model.Operation{
		{ID: "o1", Name: "products", Faults: list}, {ID: "o2", Name: "product", Faults: single}, {ID: "o3", Name: "categories"}}}
	for _, tc := range []struct {
		name      string
		fields    []string
		wantScope string
		want      *model.FaultSettings
	}{
		{"list", []string{"products"}, "o1", list},
		{"connection", []string{"productsConnection"}, "o1", list},
		{"first with settings", []string{"categories", "product", "products"}, "o2", single},
		{"none of its own", []string{"categories"}, "", proj},
		{"introspection", []string{"__schema"}, "", proj},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scope, s := faultScope(p, tc.fields)
			if scope != tc.wantScope || s != tc.want {
				t.Fatalf("got %q %+v", scope, s)
			}
		})
	}
}

// TestFaultReplyRoundTrip: a fault crosses the wire with its result (a
// request handed to the project's node comes back with it).
func TestFaultReplyRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  *model.RuntimeResult
	}{
		{"latency", &model.RuntimeResult{Status: 200, Body: []byte(`{"data":{}}`), Delay: 800 * time.Millisecond, Fault: "latency=800ms"}},
		{"graphql error", &model.RuntimeResult{Status: 200, Body: faultErrorBody(nil, model.CodeInternal), Fault: "error=INTERNAL"}},
		{"refusal with latency", &model.RuntimeResult{Status: 503, Delay: 5 * time.Millisecond, Fault: "latency=5ms;status=503",
			Refusal: model.FaultDecision{HTTPStatus: 503}.Refusal()}},
		{"bad request status", &model.RuntimeResult{Status: 400, Fault: "status=400", Refusal: model.FaultDecision{HTTPStatus: 400}.Refusal()}},
		{"no fault", &model.RuntimeResult{Status: 200, Body: []byte(`{"data":null}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := runtimeReply(tc.res, nil)
			if reply.ErrorCode != "" && reply.Status == 0 {
				t.Fatalf("the reply reads as an error: %+v", reply)
			}
			got, err := runtimeResult(reply, nil)
			if err != nil || got.Status != tc.res.Status || !bytes.Equal(got.Body, tc.res.Body) || got.Delay != tc.res.Delay || got.Fault != tc.res.Fault {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.res)
			}
			if (got.Refusal == nil) != (tc.res.Refusal == nil) || (got.Refusal != nil && (got.Refusal.Code != tc.res.Refusal.Code || got.Refusal.RetryAfter != tc.res.Refusal.RetryAfter)) {
				t.Fatalf("refusal %+v, want %+v", got.Refusal, tc.res.Refusal)
			}
		})
	}
}

func TestFirstErrorCode(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"data":{"a":1}}`, ""},
		{`{"data":null,"errors":[{"message":"m","extensions":{"code":"NOT_FOUND"}},{"extensions":{"code":"X"}}]}`, "NOT_FOUND"},
		{`{"data":{"errors":[{"extensions":{"code":"ALIAS"}}]},"errors":[{"message":"m","extensions":{"code":"BAD_USER_INPUT"}}]}`, "BAD_USER_INPUT"},
		{`{"data":null,"errors":[{"message":"no code"}]}`, ""},
		{`{"errors":[`, ""},
	} {
		if got := firstErrorCode([]byte(tc.body)); got != model.Code(tc.want) {
			t.Errorf("%s: %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestClipJSON: variables over the bound become a JSON string within the
// bound and its mark, however many characters need escaping.
func TestClipJSON(t *testing.T) {
	const max = 4 << 10
	for _, tc := range []struct {
		name string
		in   string
	}{
		{"short", `{"q":"x"}`},
		{"long", `{"q":"` + strings.Repeat("y", 9000) + `"}`},
		{"quotes", `{"q":[` + strings.Repeat(`"",`, 5000) + `""]}`},
		{"backslashes and html", `{"q":"` + strings.Repeat(`\\<&>`, 3000) + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := clipJSON([]byte(tc.in), max)
			if len(tc.in) <= max {
				if string(got) != tc.in {
					t.Fatalf("changed: %s", got)
				}
				return
			}
			var s string
			if err := json.Unmarshal(got, &s); err != nil || len(got) > max+32 || !strings.Contains(s, "bytes)") {
				t.Fatalf("%d bytes, %v: %.80s", len(got), err, got)
			}
		})
	}
}
