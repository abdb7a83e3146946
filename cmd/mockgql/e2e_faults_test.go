package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// faultFields selects every field of FaultSettings.
const faultFields = `faults { latencyMinMs latencyMaxMs errorRate errorCode httpStatus seed }`

// logFields selects every field of RequestLogEntry.
const logFields = `id at operationName rootFields query variables status durationMs errorCode fault`

// setFaults sets the project's faults (operationID "": the project's) and
// returns the answer.
func (sh *shop) setFaults(operationID string, faults map[string]any) response {
	vars := map[string]any{"p": sh.project["id"], "f": faults}
	if operationID != "" {
		vars["o"] = operationID
	}
	return sh.owner.gql(`mutation($p:ID!,$o:ID,$f:FaultSettingsInput){ setFaults(projectId:$p, operationId:$o, faults:$f) { id `+faultFields+` operations { id name `+faultFields+` } } }`, vars)
}

// requestLog reads the project's request log, newest first.
func (sh *shop) requestLog(t *testing.T, limit int) []map[string]any {
	t.Helper()
	d := sh.owner.must(`query($p:ID,$n:Int){ project(id:$p) { requestLog(limit:$n) { `+logFields+` } } }`, map[string]any{"p": sh.project["id"], "n": limit})
	var out []map[string]any
	for _, e := range get(d, "project", "requestLog").([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// faulted runs q on the runtime with the FULL key and an X-Mock-Fault header ("" none).
func (sh *shop) faulted(q, header string) response {
	b, _ := json.Marshal(map[string]any{"query": q})
	h := []string{"Authorization", "Bearer " + sh.fullKey}
	if header != "" {
		h = append(h, "X-Mock-Fault", header)
	}
	return sh.s.do("POST", sh.runtime, b, h...)
}

// operationID returns the ID of the shop's operation name.
func (sh *shop) operationID(t *testing.T, name string) string {
	t.Helper()
	d := sh.owner.must(`query($p:ID){ project(id:$p) { operations { id name } } }`, map[string]any{"p": sh.project["id"]})
	for _, o := range get(d, "project", "operations").([]any) {
		if get(o, "name") == name {
			return get(o, "id").(string)
		}
	}
	t.Fatalf("no operation %s", name)
	return ""
}

// TestFaults drives latency and error injection and the request log on a
// real node through the management API and the runtime over HTTP.
func TestFaults(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "faults@example.com", "flt")
	q := `{ products { total } }`

	t.Run("bad settings are refused, naming the field", func(t *testing.T) {
		for _, tc := range []struct {
			faults map[string]any
			names  string
		}{
			{map[string]any{"latencyMinMs": 500, "latencyMaxMs": 100}, "latencyMinMs"},
			{map[string]any{"latencyMaxMs": 10001}, "latencyMaxMs"},
			{map[string]any{"errorRate": 1.5, "errorCode": "INTERNAL"}, "errorRate"},
			{map[string]any{"errorRate": 1, "errorCode": "TEAPOT"}, "errorCode"},
			{map[string]any{"errorRate": 1, "httpStatus": 418}, "httpStatus"},
			{map[string]any{"errorRate": 1, "errorCode": "INTERNAL", "httpStatus": 500}, "not both"},
			{map[string]any{"errorRate": 0.5}, "needs errorCode or httpStatus"},
		} {
			r := sh.setFaults("", tc.faults)
			msg := fmt.Sprint(get(r.JSON, "errors", 0, "message"))
			if r.errCode() != "BAD_USER_INPUT" || !strings.Contains(msg, tc.names) {
				t.Errorf("%v: %s", tc.faults, r.Raw)
			}
		}
		if d := sh.owner.must(`query($p:ID){ project(id:$p) { `+faultFields+` } }`, map[string]any{"p": sh.project["id"]}); get(d, "project", "faults") != nil {
			t.Fatalf("a refused setting was kept: %v", d)
		}
	})

	t.Run("roles: VIEWER reads, EDITOR sets and clears; the schema does not change", func(t *testing.T) {
		pid := sh.project["id"]
		sh.owner.must(`mutation($p:ID!){ setSchemaBaseline(projectId:$p) }`, map[string]any{"p": pid})
		viewer := sh.member(t, "fault-viewer@example.com", "VIEWER")
		editor := sh.member(t, "fault-editor@example.com", "EDITOR")
		set := `mutation($p:ID!){ setFaults(projectId:$p, faults:{latencyMinMs: 5, latencyMaxMs: 5}) { id } }`
		if r := viewer.gql(set, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("VIEWER setFaults: %s", r.Raw)
		}
		if r := viewer.gql(`mutation($p:ID!){ clearRequestLog(projectId:$p) { id } }`, map[string]any{"p": pid}); r.errCode() != "FORBIDDEN" {
			t.Fatalf("VIEWER clearRequestLog: %s", r.Raw)
		}
		viewer.must(`query($p:ID){ project(id:$p) { faults { seed } requestLog { id } } }`, map[string]any{"p": pid})
		editor.must(set, map[string]any{"p": pid})
		editor.must(`mutation($p:ID!){ clearRequestLog(projectId:$p) { id } }`, map[string]any{"p": pid})
		if d := sh.owner.must(`query($p:ID!){ schemaChanges(projectId:$p) { path } }`, map[string]any{"p": pid}); len(d["schemaChanges"].([]any)) != 0 {
			t.Fatalf("setFaults changed the runtime schema: %v", d)
		}
		sh.setFaults("", nil).data(t)
	})

	t.Run("a GraphQL error, HTTP 200", func(t *testing.T) {
		d := sh.setFaults("", map[string]any{"errorRate": 1, "errorCode": "INTERNAL", "seed": 3}).data(t)
		if got := fmt.Sprint(get(d, "setFaults", "faults")); got != "map[errorCode:INTERNAL errorRate:1 httpStatus:<nil> latencyMaxMs:0 latencyMinMs:0 seed:3]" {
			t.Fatalf("faults read back as %s", got)
		}
		r := sh.faulted(q, "")
		if r.Status != 200 || r.errCode() != "INTERNAL" || get(r.JSON, "data") != nil || r.Header.Get("X-Mock-Fault-Applied") != "error=INTERNAL" {
			t.Fatalf("got %d %v %s", r.Status, r.Header, r.Raw)
		}
	})

	t.Run("an HTTP refusal, and a mutation under it writes nothing", func(t *testing.T) {
		sh.setFaults("", map[string]any{"errorRate": 1, "httpStatus": 503}).data(t)
		r := sh.faulted(`mutation { createProduct(input: {name: "Ghost", price: 1}) { id } }`, "")
		r.refusal(t, 503, "UNAVAILABLE")
		if r.Header.Get("Retry-After") != "1" || r.Header.Get("X-Mock-Fault-Applied") != "status=503" {
			t.Fatalf("headers %v", r.Header)
		}
		d := sh.faulted(`{ products(pageSize: 100) { total items { name } } }`, "none").data(t)
		if strings.Contains(fmt.Sprint(d), "Ghost") || get(d, "products", "total") != float64(4) {
			t.Fatalf("the faulted mutation wrote: %v", d)
		}
	})

	t.Run("the management API is never faulted", func(t *testing.T) {
		sh.owner.must(`query($p:ID){ project(id:$p) { id sdl } }`, map[string]any{"p": sh.project["id"]})
		d := sh.owner.must(`mutation($p:ID!){ previewQuery(projectId:$p, query:"{ products { total } }") }`, map[string]any{"p": sh.project["id"]})
		if strings.Contains(fmt.Sprint(d), "errors") {
			t.Fatalf("previewQuery was faulted: %v", d)
		}
	})

	t.Run("the header forces and suppresses", func(t *testing.T) {
		if r := sh.faulted(q, "none"); r.Status != 200 || r.errCode() != "" || r.Header.Get("X-Mock-Fault-Applied") != "" {
			t.Fatalf("none: %d %s", r.Status, r.Raw)
		}
		sh.setFaults("", nil).data(t)
		if r := sh.faulted(q, "error=NOT_FOUND"); r.Status != 200 || r.errCode() != "NOT_FOUND" {
			t.Fatalf("error=NOT_FOUND: %d %s", r.Status, r.Raw)
		}
		sh.faulted(q, "status=429").refusal(t, 429, "TOO_MANY_REQUESTS")
		sh.faulted(q, "status=500").refusal(t, 500, "INTERNAL")
		for _, bad := range []string{"latency=20s", "error=OOPS", "status=418", "boom", "error=INTERNAL;status=500"} {
			r := sh.faulted(q, bad)
			r.refusal(t, 400, "BAD_USER_INPUT")
			if !strings.Contains(fmt.Sprint(r.JSON["detail"]), "X-Mock-Fault") {
				t.Errorf("%q: the refusal does not name the header: %s", bad, r.Raw)
			}
		}
		if r := sh.faulted(q, ""); r.Status != 200 || r.errCode() != "" {
			t.Fatalf("cleared faults still apply: %s", r.Raw)
		}
	})

	t.Run("latency is reported, not asserted on the clock", func(t *testing.T) {
		r := sh.faulted(q, "latency=300ms")
		if r.Status != 200 || r.errCode() != "" || r.Header.Get("Server-Timing") != "fault;dur=300" || r.Header.Get("X-Mock-Fault-Applied") != "latency=300ms" {
			t.Fatalf("header latency: %d %v %s", r.Status, r.Header, r.Raw)
		}
		sh.setFaults("", map[string]any{"latencyMinMs": 120, "latencyMaxMs": 120}).data(t)
		r = sh.faulted(q, "")
		if r.Header.Get("Server-Timing") != "fault;dur=120" {
			t.Fatalf("settings latency: %v", r.Header)
		}
		r = sh.faulted(q, "latency=50ms;error=UNAVAILABLE")
		if r.errCode() != "UNAVAILABLE" || r.Header.Get("Server-Timing") != "fault;dur=50" || r.Header.Get("X-Mock-Fault-Applied") != "latency=50ms;error=UNAVAILABLE" {
			t.Fatalf("combined: %v %s", r.Header, r.Raw)
		}
		log := sh.requestLog(t, 3)
		if get(log[0], "fault") != "latency=50ms;error=UNAVAILABLE" || get(log[1], "fault") != "latency=120ms" || get(log[2], "fault") != "latency=300ms" {
			t.Fatalf("log %v", log)
		}
		if d, _ := log[2]["durationMs"].(float64); d < 300 {
			t.Fatalf("durationMs %v does not include the injected 300ms", d)
		}
		sh.setFaults("", nil).data(t)
	})

	t.Run("draws are deterministic per seed", func(t *testing.T) {
		pattern := func(seed int) string {
			sh.setFaults("", map[string]any{"errorRate": 0.5, "errorCode": "INTERNAL", "seed": seed}).data(t)
			var b strings.Builder
			for i := 0; i < 24; i++ {
				if sh.faulted(q, "").errCode() == "INTERNAL" {
					b.WriteByte('E')
				} else {
					b.WriteByte('.')
				}
			}
			return b.String()
		}
		a, other, again := pattern(7), pattern(8), pattern(7)
		if a != again || a == other || !strings.Contains(a, "E") || !strings.Contains(a, ".") {
			t.Fatalf("seed 7: %s, seed 8: %s, seed 7 again: %s", a, other, again)
		}
		sh.setFaults("", nil).data(t)
	})

	t.Run("an operation's settings replace the project's", func(t *testing.T) {
		op := sh.operationID(t, "product")
		d := sh.setFaults(op, map[string]any{"errorRate": 1, "httpStatus": 404}).data(t)
		if !strings.Contains(fmt.Sprint(get(d, "setFaults", "operations")), "httpStatus:404") || get(d, "setFaults", "faults") != nil {
			t.Fatalf("setFaults answered %v", d)
		}
		sh.faulted(`{ product(id: "1") { name } }`, "").refusal(t, 404, "PROJECT_NOT_FOUND")
		sh.faulted(q, "").data(t)
		sh.setFaults(op, nil).data(t)
		sh.faulted(`{ product(id: "1") { name } }`, "").data(t)
	})

	t.Run("a mutation runs in the grain and still gets its latency", func(t *testing.T) {
		r := sh.faulted(`mutation { deleteProduct(id: "999") { name } }`, "latency=20ms")
		if r.errCode() != "NOT_FOUND" || r.Header.Get("Server-Timing") != "fault;dur=20" {
			t.Fatalf("got %v %s", r.Header, r.Raw)
		}
		e := sh.requestLog(t, 1)[0]
		if e["errorCode"] != "NOT_FOUND" || e["fault"] != "latency=20ms" || fmt.Sprint(e["rootFields"]) != "[deleteProduct]" {
			t.Fatalf("log %v", e)
		}
	})

	t.Run("right after a model edit, operation settings still apply", func(t *testing.T) {
		op := sh.operationID(t, "products")
		sh.setFaults(op, map[string]any{"errorRate": 1, "errorCode": "NOT_READY"}).data(t)
		sh.owner.must(`mutation($t:ID!){ createOperation(input:{tableId:$t, name:"cheapProducts", kind: LIST}) { id } }`,
			map[string]any{"t": sh.tables["Product"]})
		if r := sh.faulted(q, ""); r.errCode() != "NOT_READY" {
			t.Fatalf("first request after the edit: %s", r.Raw)
		}
		sh.setFaults(op, nil).data(t)
	})

	t.Run("the request log: newest first, codes, refusals, clipped", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ clearRequestLog(projectId:$p) { id } }`, map[string]any{"p": sh.project["id"]})
		s.do("POST", sh.runtime, []byte(`{"query":"{ products { total } }"}`)).refusal(t, 401, "UNAUTHENTICATED")
		sh.faulted(`{ nope }`, "").refusal(t, 400, "Bad Request")
		long := "query Long($q: FilterValue) { searchProducts(q: $q) { total } } #" + strings.Repeat("x", 5000)
		b, _ := json.Marshal(map[string]any{"query": long, "variables": map[string]any{"q": strings.Repeat("y", 5000)}, "operationName": "Long"})
		s.do("POST", sh.runtime, b, "X-API-Key", sh.rtKey).data(t)
		log := sh.requestLog(t, 200)
		if len(log) != 3 {
			t.Fatalf("log after clearRequestLog and 3 requests: %v", log)
		}
		e := log[0]
		if e["operationName"] != "Long" || fmt.Sprint(e["rootFields"]) != "[searchProducts]" || e["status"] != float64(200) || e["errorCode"] != nil {
			t.Errorf("newest %v", e)
		}
		if qs := e["query"].(string); len(qs) > 4200 || !strings.Contains(qs, "bytes)") {
			t.Errorf("query not clipped to 4 KiB: %d bytes", len(qs))
		}
		if v, ok := e["variables"].(string); !ok || len(v) > 4200 {
			t.Errorf("variables not clipped: %T %v", e["variables"], len(fmt.Sprint(e["variables"])))
		}
		if log[1]["status"] != float64(400) || log[1]["errorCode"] != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("refused document %v", log[1])
		}
		if log[2]["status"] != float64(401) || log[2]["errorCode"] != "UNAUTHENTICATED" || log[2]["query"] != "" {
			t.Errorf("refused credential %v", log[2])
		}
	})

	t.Run("the request log is bounded at 200", func(t *testing.T) {
		for i := 0; i < 205; i++ {
			sh.faulted(fmt.Sprintf(`query N%d { products { total } }`, i), "")
		}
		log := sh.requestLog(t, 500)
		if len(log) != 200 || log[0]["operationName"] != "N204" || log[199]["operationName"] != "N5" {
			t.Fatalf("%d entries, newest %v, oldest %v", len(log), log[0]["operationName"], log[len(log)-1]["operationName"])
		}
		if got := sh.requestLog(t, 2); len(got) != 2 || got[0]["id"] != log[0]["id"] {
			t.Fatalf("limit 2: %v", got)
		}
	})

	t.Run("CORS lets pages send the header and read what was applied", func(t *testing.T) {
		sh.owner.must(`mutation($p:ID!){ updateProject(projectId:$p, allowedOrigins:["http://localhost:5173"]) { id } }`, map[string]any{"p": sh.project["id"]})
		r := s.do("OPTIONS", sh.runtime, nil, "Origin", "http://localhost:5173", "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "x-mock-fault, authorization")
		if r.Status != 204 || !strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-Mock-Fault") {
			t.Fatalf("preflight %d %v", r.Status, r.Header)
		}
		r = sh.s.do("POST", sh.runtime, []byte(`{"query":"{ products { total } }"}`), "Authorization", "Bearer "+sh.fullKey,
			"Origin", "http://localhost:5173", "X-Mock-Fault", "latency=1ms")
		if !strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "X-Mock-Fault-Applied") {
			t.Fatalf("expose %v", r.Header)
		}
	})
}

// TestFaultsCountAgainstQuota: an injected error is a served request, so it
// counts against the plan's quota; past it the quota's 429 comes first.
func TestFaultsCountAgainstQuota(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.QuotaPro = 3 })
	sh := newShop(t, s, "faultquota@example.com", "fq")
	clearOfWindowEdge(t, 24*time.Hour, time.Minute)
	for i := 0; i < 3; i++ {
		if r := sh.faulted(`{ products { total } }`, "error=INTERNAL"); r.errCode() != "INTERNAL" {
			t.Fatalf("request %d: %s", i, r.Raw)
		}
	}
	r := sh.faulted(`{ products { total } }`, "error=INTERNAL")
	r.refusal(t, 429, "TOO_MANY_REQUESTS")
	if r.Header.Get("X-Mock-Fault-Applied") != "" {
		t.Fatalf("a refused request got a fault: %v", r.Header)
	}
	if u := sh.owner.must(`{ account { usage { requests } } }`, nil); get(u, "account", "usage", "requests") != float64(3) {
		t.Fatalf("usage %v", u)
	}
	if log := sh.requestLog(t, 1); log[0]["errorCode"] != "TOO_MANY_REQUESTS" || log[0]["status"] != float64(429) || log[0]["fault"] != nil {
		t.Fatalf("log %v", log)
	}
}

// TestMCPRequestLog: get_request_log shows an assistant what reached the
// session project's runtimeUrl, faults included; run_query is not logged.
func TestMCPRequestLog(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	a := newAgent(t, mcpConnect(t, s.base))
	b := buildShop(t, a) // ends with run_query calls, which are not logged
	if d := a.must("get_request_log", map[string]any{"session": b.session}); len(d["entries"].([]any)) != 0 {
		t.Fatalf("run_query was logged: %v", d)
	}
	path := strings.TrimPrefix(b.runtimeURL, s.base)
	s.do("POST", path, []byte(`{"query":"query Few { products(pageSize: 1) { total } }"}`), "X-Mock-Fault", "error=UNAVAILABLE")
	s.do("POST", path, []byte(`{"query":"{ categories { total } }"}`))
	d := a.must("get_request_log", map[string]any{"session": b.session, "limit": 5})
	es := d["entries"].([]any)
	if len(es) != 2 || fmt.Sprint(get(es[0], "rootFields")) != "[categories]" || get(es[1], "operationName") != "Few" ||
		get(es[1], "errorCode") != "UNAVAILABLE" || get(es[1], "fault") != "error=UNAVAILABLE" || get(es[0], "status") != 200.0 {
		t.Fatalf("get_request_log: %v", d)
	}
	a.refused("BAD_USER_INPUT", "get_request_log", map[string]any{"session": b.session, "limit": 500})
}

// TestClusterFaults: on three processes, a request through a node that
// does not hold the project's grain is handed to the owner, and its fault
// and latency come back with the answer; the sequence of draws is the
// owner's, so the pattern does not depend on the node a request arrives
// at; the log read through any node holds every request.
func TestClusterFaults(t *testing.T) {
	t.Parallel() // its nodes are processes: see startProc
	if testing.Short() {
		t.Skip("starts three processes")
	}
	tr := startTrio(t)
	sh := newShop(t, tr.procs[0].server, "cfaults@example.com", "cf")
	via := func(i int) *shop { return sh.on(tr.procs[i%3].server) }
	q := `{ products { total } }`
	for i := range 3 {
		r := via(i).faulted(q, "latency=40ms;status=503")
		r.refusal(t, 503, "UNAVAILABLE")
		if r.Header.Get("Server-Timing") != "fault;dur=40" || r.Header.Get("X-Mock-Fault-Applied") != "latency=40ms;status=503" {
			t.Fatalf("through node %d: %v", i, r.Header)
		}
	}
	pattern := func(node func(i int) *shop) string {
		sh.setFaults("", map[string]any{"errorRate": 0.5, "errorCode": "INTERNAL", "seed": 7}).data(t)
		var b strings.Builder
		for i := 0; i < 18; i++ {
			switch r := node(i).faulted(q, ""); {
			case r.errCode() == "INTERNAL":
				b.WriteByte('E')
			case r.Status == 200 && r.errCode() == "":
				b.WriteByte('.')
			default:
				t.Fatalf("request %d: %d %s", i, r.Status, r.Raw)
			}
		}
		return b.String()
	}
	one, rotating := pattern(func(int) *shop { return sh }), pattern(via)
	if one != rotating || !strings.Contains(one, "E") || !strings.Contains(one, ".") {
		t.Fatalf("through one node %s, through all three %s", one, rotating)
	}
	log := via(2).requestLog(t, 200)
	if len(log) != 3+18+18 || log[len(log)-1]["fault"] != "latency=40ms;status=503" {
		t.Fatalf("%d log entries, oldest %v", len(log), log[len(log)-1])
	}
}

// TestNoRequestLog: with --no-request-log faults still apply and the log
// stays empty.
func TestNoRequestLog(t *testing.T) {
	s := startServer(t, func(c *serveConfig) { c.NoRequestLog = true })
	sh := newShop(t, s, "nolog@example.com", "nl")
	if r := sh.faulted(`{ products { total } }`, "error=INTERNAL"); r.errCode() != "INTERNAL" {
		t.Fatalf("fault: %s", r.Raw)
	}
	sh.faulted(`{ products { total } }`, "").data(t)
	if log := sh.requestLog(t, 200); len(log) != 0 {
		t.Fatalf("log kept: %v", log)
	}
}
