package app_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mockgql/mockgql/app"
	"github.com/mockgql/mockgql/model"
)

// faultRuntime sends query with an X-Mock-Fault header to the shop.
func faultRuntime(svc interface {
	Runtime(context.Context, model.RuntimeRequest) (*model.RuntimeResult, error)
}, slug, key, header, query string) (*model.RuntimeResult, error) {
	body, _ := json.Marshal(map[string]string{"query": query})
	return svc.Runtime(context.Background(), model.RuntimeRequest{Slug: slug, KeyValue: key, Body: body, FaultHeader: header})
}

// TestFaultsThroughTheService sets faults with the Service and runs runtime
// requests through the real runtime path on a real node (bbolt, grains):
// the project's and an operation's settings, the header, the request log,
// and that internal calls get no faults.
func TestFaultsThroughTheService(t *testing.T) {
	nd := startNode(t, "", nil)
	svc, ctx := nd.svc, context.Background()
	importProducts(t, svc, "products")
	s := newShop(t, nd, "faults@example.com", "fshop", "products")
	q := `{ products { total } }`

	if _, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, "", &model.FaultSettings{LatencyMinMs: 9, LatencyMaxMs: 3}); model.ErrorCode(err) != model.CodeBadUserInput {
		t.Fatalf("min above max: %v", err)
	}
	pr, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, "", &model.FaultSettings{LatencyMinMs: 200, LatencyMaxMs: 200, ErrorRate: 1, ErrorCode: model.CodeUnavailable})
	if err != nil || pr.Faults == nil || pr.Faults.ErrorCode != model.CodeUnavailable {
		t.Fatalf("SetFaults: %+v, %v", pr, err)
	}
	res, err := faultRuntime(svc.Runtime, "fshop", s.runtime.Value, "", q)
	if err != nil || res.Status != 200 || !strings.Contains(string(res.Body), `"code":"UNAVAILABLE"`) || res.Delay != 200*time.Millisecond ||
		res.Fault != "latency=200ms;error=UNAVAILABLE" {
		t.Fatalf("project fault: %+v, %v", res, err)
	}
	res, err = faultRuntime(svc.Runtime, "fshop", s.runtime.Value, "none", q)
	if err != nil || res.Fault != "" || strings.Contains(string(res.Body), "errors") {
		t.Fatalf("X-Mock-Fault: none: %+v, %v", res, err)
	}
	res, err = faultRuntime(svc.Runtime, "fshop", s.runtime.Value, "status=429", q)
	if err != nil || res.Refusal == nil || res.Refusal.Code != model.CodeTooManyRequests || res.Status != 429 {
		t.Fatalf("X-Mock-Fault: status=429: %+v, %v", res, err)
	}
	_, err = faultRuntime(svc.Runtime, "fshop", s.runtime.Value, "status=999", q)
	wantCode(t, err, model.CodeBadUserInput)

	// An operation's own settings replace the project's for it.
	cur, err := svc.Management.Project(ctx, s.owner.p, s.project.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	var op *model.Operation
	for _, o := range cur.Operations {
		if o.Name == "product" {
			op = o
		}
	}
	if op == nil {
		t.Fatalf("no operation product in %+v", cur.Operations)
	}
	if _, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, op.ID, &model.FaultSettings{ErrorRate: 1, HTTPStatus: 503}); err != nil {
		t.Fatal(err)
	}
	res, err = faultRuntime(svc.Runtime, "fshop", s.runtime.Value, "", `{ product(id: "p1") { id } }`)
	if err != nil || res.Refusal == nil || res.Refusal.Code != model.CodeUnavailable || res.Delay != 0 {
		t.Fatalf("operation fault: %+v, %v", res, err)
	}
	// Internal calls (the board's previewQuery) are never faulted.
	if _, err := svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, op.ID, nil); err != nil {
		t.Fatal(err)
	}
	res, err = svc.Management.PreviewQuery(ctx, s.owner.p, s.project.ID, "", []byte(`{"query":"{ products { total } }"}`))
	if err != nil || res.Fault != "" || strings.Contains(string(res.Body), "errors") {
		t.Fatalf("previewQuery: %+v, %v", res, err)
	}
	// A refusal before the fault step gets no fault, and is logged with its code.
	_, err = faultRuntime(svc.Runtime, "fshop", "", "error=INTERNAL", q)
	wantCode(t, err, model.CodeUnauthenticated)

	log, err := svc.Management.RequestLog(ctx, s.owner.p, s.project.ID, 200)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		code  model.Code
		fault string
	}{
		{model.CodeUnauthenticated, ""}, {model.CodeUnavailable, "status=503"}, {model.CodeBadUserInput, ""},
		{model.CodeTooManyRequests, "status=429"}, {"", ""}, {model.CodeUnavailable, "latency=200ms;error=UNAVAILABLE"},
	}
	if len(log) != len(want) {
		t.Fatalf("log has %d entries, want %d: %+v", len(log), len(want), log)
	}
	for i, w := range want {
		if log[i].Code != w.code || log[i].Fault != w.fault {
			t.Errorf("entry %d (newest first): code %q fault %q, want %q %q", i, log[i].Code, log[i].Fault, w.code, w.fault)
		}
	}
	if e := log[len(log)-1]; e.Query != q || len(e.RootFields) != 1 || e.RootFields[0] != "products" || e.DurationMs < 200 {
		t.Errorf("oldest entry %+v", e)
	}
	// clearRequestLog empties it.
	if _, err := svc.Management.ClearRequestLog(ctx, s.owner.p, s.project.ID); err != nil {
		t.Fatal(err)
	}
	if log, err := svc.Management.RequestLog(ctx, s.owner.p, s.project.ID, 5); err != nil || len(log) != 0 {
		t.Fatalf("after clearRequestLog: %+v, %v", log, err)
	}
}

// TestFaultsAcrossRestart: the settings are part of the project's record
// and survive a restart; the request log and the sequence of draws live
// with the grain's activation, so the new one starts with an empty log and
// the sequence from 0 (the same draws again).
func TestFaultsAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mockgql.db")
	clock := newTestClock()
	ctx := context.Background()
	first := startNode(t, path, clock)
	importProducts(t, first.svc, "products")
	s := newShop(t, first, "restart-faults@example.com", "rfshop", "products")
	settings := &model.FaultSettings{ErrorRate: 0.5, ErrorCode: model.CodeInternal, Seed: 11}
	if _, err := first.svc.Management.SetFaults(ctx, s.owner.p, s.project.ID, "", settings); err != nil {
		t.Fatal(err)
	}
	pattern := func(svc *app.Service) string {
		var b strings.Builder
		for range 16 {
			res, err := faultRuntime(svc.Runtime, "rfshop", s.runtime.Value, "", `{ products { total } }`)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(map[bool]string{true: "E", false: "."}[res.Fault != ""])
		}
		return b.String()
	}
	before := pattern(first.svc)
	first.stop()

	second := startNode(t, path, clock)
	pr, err := second.svc.Management.Project(ctx, s.owner.p, s.project.ID, "")
	if err != nil || pr.Faults == nil || pr.Faults.Seed != 11 || pr.Faults.ErrorCode != model.CodeInternal {
		t.Fatalf("settings after the restart: %+v, %v", pr, err)
	}
	if log, err := second.svc.Management.RequestLog(ctx, s.owner.p, s.project.ID, 200); err != nil || len(log) != 0 {
		t.Fatalf("log after the restart: %d entries, %v", len(log), err)
	}
	if after := pattern(second.svc); after != before || !strings.Contains(before, "E") || !strings.Contains(before, ".") {
		t.Fatalf("draws before the restart %s, after %s", before, after)
	}
}

// BenchmarkRequestLogCost measures what the fault step and the request log
// add to a runtime query, side by side in one run: the same request
// alternately as a client's (traced and logged; no faults set) and as
// MCP's run_query (NoFaults: neither). It reports both times, their ratio,
// and the allocations each makes.
//
//	go test ./actors -run XXX -bench RequestLogCost -benchtime 20000x
func BenchmarkRequestLogCost(b *testing.B) {
	nd := startNode(b, "", nil)
	svc, ctx := nd.svc, context.Background()
	importProducts(b, svc, "products")
	owner := signUp(b, svc, "bench@example.com")
	if _, err := svc.Management.SetPlan(ctx, owner.p, model.PlanEnterprise); err != nil { // no quota
		b.Fatal(err)
	}
	pr, err := svc.Management.CreateProject(ctx, owner.p, "Bench", "bench")
	if err != nil {
		b.Fatal(err)
	}
	buildShop(b, svc, owner.p, pr.ID, "products")
	key, err := svc.Management.CreateAPIKey(ctx, owner.p, pr.ID, "k", model.ScopeRuntime, time.Time{}, 0)
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"query":"{ products(pageSize: 2) { total items { id name } } }"}`)
	out := &model.RuntimeBuffers{}
	run := func(noFaults bool) time.Duration {
		start := time.Now()
		res, err := svc.Runtime.Runtime(ctx, model.RuntimeRequest{Slug: "bench", KeyValue: key.Value, Body: body, Out: out, NoFaults: noFaults})
		if err != nil || res.Status != 200 {
			b.Fatalf("%+v %v", res, err)
		}
		return time.Since(start)
	}
	for range 200 { // warm: compiled runtime, key cache, quota lease
		run(false)
		run(true)
	}
	logged := testing.AllocsPerRun(200, func() { run(false) })
	plain := testing.AllocsPerRun(200, func() { run(true) })
	var tLogged, tPlain time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 { // alternate which goes first
			tLogged += run(false)
			tPlain += run(true)
		} else {
			tPlain += run(true)
			tLogged += run(false)
		}
	}
	b.ReportMetric(float64(tLogged.Nanoseconds())/float64(b.N), "ns-logged/op")
	b.ReportMetric(float64(tPlain.Nanoseconds())/float64(b.N), "ns-plain/op")
	b.ReportMetric(float64(tLogged)/float64(tPlain), "logged/plain")
	b.ReportMetric(logged, "allocs-logged/op")
	b.ReportMetric(plain, "allocs-plain/op")
}
