package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// xssName is an operation name and a variable value that would run script
// if the board ever put data into HTML.
const xssName = `<img src=x onerror="window.__xss=1">`

// faultsOf reads the project's and its operations' fault settings.
func (sh *shop) faultsOf(t *testing.T) (project string, ops map[string]string) {
	t.Helper()
	d := sh.owner.must(`query($p:ID){ project(id:$p) { `+faultFields+` operations { name `+faultFields+` } } }`, map[string]any{"p": sh.project["id"]})
	ops = map[string]string{}
	for _, o := range get(d, "project", "operations").([]any) {
		ops[get(o, "name").(string)] = fmt.Sprint(get(o, "faults"))
	}
	return fmt.Sprint(get(d, "project", "faults")), ops
}

// logEntry returns the data-entry ID of the first log row whose text has want.
func (p *page) logEntry(want string) string {
	p.t.Helper()
	w, _ := json.Marshal(want)
	id := p.js(fmt.Sprintf(`(() => { const r = [...document.querySelectorAll("#logEntries tr[data-entry]")].find((x) => x.innerText.includes(%s)); return r ? r.dataset.entry : ""; })()`, w))
	if id == "" {
		p.t.Fatalf("no log entry shows %q; the log shows:\n%s", want, p.text("#log"))
	}
	return id.(string)
}

// runCurl runs a copied curl command in a shell with the key in
// $MGQ_API_KEY and returns the HTTP status it got.
func runCurl(t *testing.T, command, key string) string {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		skipOrFail(t, "no curl installed")
	}
	cmd := exec.Command("sh", "-c", command+` -o /dev/null -w '%{http_code}'`)
	cmd.Env = append(os.Environ(), "MGQ_API_KEY="+key)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v: %s", command, err, out)
	}
	return string(out)
}

// TestBoardFaultsAndRequestLog: on API design an editor sets the
// project's faults and an operation's own (a refused value shows the API's
// reason next to its field); the management API reports them; runtime
// requests (one forced with X-Mock-Fault: error=INTERNAL, one with markup
// as operation name and variable) show in the request log with their
// codes, as text; "Copy as curl" gives a command that gets the same
// status from the node; "Replay" answers through the preview without
// entering the log; "Clear log" empties it; a viewer sees all read-only.
func TestBoardFaultsAndRequestLog(t *testing.T) {
	s := startServer(t)
	sh := newShop(t, s, "faultsboard@example.com", "fb")
	pid := sh.project["id"].(string)
	p := newPage(t, s)
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", "#faults")

	// A refused value: the API's reason next to the field, nothing saved.
	p.set(`#faults [data-fault="latencyMinMs"]`, "500")
	p.set(`#faults [data-fault="latencyMaxMs"]`, "100")
	p.click(`[data-faults-save="project"]`)
	p.waitText(`#faults .field:has([data-fault="latencyMinMs"]) .field-error`, "latencyMinMs must not be above")
	if inv := p.js(`document.querySelector('#faults [data-fault="latencyMinMs"]').getAttribute("aria-invalid")`); inv != "true" {
		t.Errorf("the refused field is not marked invalid: %v", inv)
	}
	if pf, _ := sh.faultsOf(t); pf != "<nil>" {
		t.Fatalf("a refused setting was saved: %s", pf)
	}
	// The project's faults.
	p.set(`#faults [data-fault="latencyMinMs"]`, "5")
	p.set(`#faults [data-fault="latencyMaxMs"]`, "20")
	p.set(`#faults [data-fault="errorRate"]`, "50")
	p.choose(`#faults [data-fault="error"]`, "503 UNAVAILABLE")
	p.set(`#faults [data-fault="seed"]`, "7")
	p.click(`[data-faults-save="project"]`)
	p.waitText(`#faults .status`, "Saved for the project")
	p.waitText(`#projectFaults`, "latency 5–20 ms, 50% HTTP 503 · seed 7")
	p.waitText(`#faultHeader`, "X-Mock-Fault: latency=20ms;status=503")
	if p.text(`#faults .field:has([data-fault="latencyMinMs"]) .field-error`) != "" {
		t.Error("the earlier refusal stays after a save")
	}
	// An operation's own faults, in its row.
	op := `details[data-operation-faults="categories"]`
	p.js(`(document.querySelector('` + op + `').open = true, true)`)
	p.set(op+` [data-fault="errorRate"]`, "100")
	p.choose(op+` [data-fault="error"]`, "NOT_FOUND")
	p.set(op+` [data-fault="seed"]`, "1")
	p.click(`[data-faults-save="categories"]`)
	p.waitText(op+" .status", "Saved for operation categories")
	p.waitText(op+" summary", "100% NOT_FOUND")
	pf, ops := sh.faultsOf(t)
	if pf != "map[errorCode:<nil> errorRate:0.5 httpStatus:503 latencyMaxMs:20 latencyMinMs:5 seed:7]" ||
		ops["categories"] != "map[errorCode:NOT_FOUND errorRate:1 httpStatus:<nil> latencyMaxMs:0 latencyMinMs:0 seed:1]" || ops["products"] != "<nil>" {
		t.Fatalf("the management API reports project %s, operations %v", pf, ops)
	}
	p.js(`(document.getElementById("faults").scrollIntoView(), true)`)
	p.shot("faults-design")

	// Runtime requests: a long one (a 300-character name, a 5 KB comment:
	// the log clips it), the operation's fault, a forced INTERNAL, a forced
	// 503, and markup as operation name and variable value.
	long := "Q" + strings.Repeat("x", 299)
	body, _ := json.Marshal(map[string]any{"query": "# " + strings.Repeat("y", 5000) + "\nquery " + long + " { products { total } }", "operationName": long})
	if r := s.do("POST", sh.runtime, body, "Authorization", "Bearer "+sh.fullKey, "X-Mock-Fault", "none"); r.Status != 200 {
		t.Fatalf("the long query: %d %s", r.Status, r.Raw)
	}
	if r := sh.faulted(`{ categories { total } }`, ""); r.errCode() != "NOT_FOUND" {
		t.Fatalf("categories with its own faults: %d %s", r.Status, r.Raw)
	}
	if r := sh.faulted(`{ products { total } }`, "error=INTERNAL"); r.Status != 200 || r.errCode() != "INTERNAL" {
		t.Fatalf("forced INTERNAL: %d %s", r.Status, r.Raw)
	}
	sh.faulted(`{ products(pageSize: 1) { total } }`, "status=503").refusal(t, 503, "UNAVAILABLE")
	body, _ = json.Marshal(map[string]any{"query": `query Search($q: FilterValue) { searchProducts(q: $q) { total } }`, "variables": map[string]any{"q": xssName}})
	if r := s.do("POST", sh.runtime, body, "Authorization", "Bearer "+sh.fullKey, "X-Mock-Fault", "none"); r.Status != 200 {
		t.Fatalf("search: %d %s", r.Status, r.Raw)
	}
	body, _ = json.Marshal(map[string]any{"query": `{ products { total } }`, "operationName": xssName})
	s.do("POST", sh.runtime, body, "Authorization", "Bearer "+sh.fullKey, "X-Mock-Fault", "none")

	p.open("/board/projects/"+pid+"/log", `#logEntries tr[data-entry]`)
	p.waitText("#logCount", "6 of at most 200")
	log := p.text("#log")
	for _, want := range []string{"NOT_FOUND", "error=INTERNAL", "INTERNAL", "503", "UNAVAILABLE", "status=503", "Search", xssName} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if first := p.text(`#logEntries tr[data-entry]`); !strings.Contains(first, xssName) {
		t.Errorf("the newest entry is not first: %q", first)
	}

	// Copy as curl from the clipboard; the node answers it with the entry's status.
	p.allowClipboard()
	internal := p.logEntry("error=INTERNAL")
	p.click(`tr[data-entry="` + internal + `"] button`)
	p.click(`[data-curl="` + internal + `"]`)
	p.waitText(`[data-curl="`+internal+`"]`, "Copied")
	curl, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(curl, `-H "X-API-Key: $MGQ_API_KEY"`) || !strings.Contains(curl, `-H 'X-Mock-Fault: error=INTERNAL'`) || strings.Contains(curl, sh.fullKey) {
		t.Fatalf("copy as curl: %q (%v)", curl, err)
	}
	if got := runCurl(t, curl, sh.fullKey); got != "200" {
		t.Fatalf("the copied curl got %s, the entry 200", got)
	}
	// Replay answers with the data, through the preview: the log does not grow.
	p.click(`[data-replay="` + internal + `"]`)
	p.waitText(`tr#log-`+internal+` .log-answer`, `"total": 4`)
	if n := len(sh.requestLog(t, 200)); n != 7 { // six, and the copied curl
		t.Fatalf("after the replay the log has %d entries, want 7", n)
	}
	// The 503's command, read from the page; its variables and name show as text.
	refused := p.logEntry("status=503")
	p.click(`tr[data-entry="` + refused + `"] button`)
	if got := runCurl(t, p.text(`[data-curl-text="`+refused+`"]`), sh.fullKey); got != "503" {
		t.Fatalf("the 503 entry's curl got %s", got)
	}
	search := p.logEntry("Search")
	p.click(`tr[data-entry="` + search + `"] button`)
	p.waitText(`tr#log-`+search+` .log-vars`, `"q": "<img src=x onerror=\"window.__xss=1\">"`)
	if n := p.js(`document.querySelectorAll("#log img").length + (window.__xss ? 100 : 0)`); n != float64(0) {
		t.Fatalf("markup from the log became elements or ran: %v", n)
	}

	// A clipped query shows clipped, and is neither copied nor replayed.
	clipped := p.logEntry("Qxxx")
	p.click(`tr[data-entry="` + clipped + `"] button`)
	p.waitText(`tr#log-`+clipped, "it is clipped here")
	if n := p.js(`document.querySelectorAll('tr#log-` + clipped + ` [data-replay], tr#log-` + clipped + ` [data-curl]').length`); n != float64(0) {
		t.Errorf("a clipped entry offers %v copy or replay buttons", n)
	}

	// Refresh shows the newer requests (the 503 curl's is already there)
	// and keeps the open details with the replay's answer.
	p.click("#logRefresh")
	p.waitText("#logCount", "8 of at most 200")
	p.waitText(`tr#log-`+internal+` .log-answer`, `"total": 4`)
	p.js(`(document.querySelector('tr#log-` + internal + `').scrollIntoView(), true)`)
	p.shot("request-log")
	// The automatic refresh shows a new request without a click.
	p.click("#logAuto")
	sh.faulted(`{ products { total } }`, "none")
	p.waitText("#logCount", "9 of at most 200")

	// A viewer reads both, read-only.
	viewer := sh.member(t, "faultsviewer@example.com", "VIEWER")
	p.signedIn(viewer)
	p.open("/board/projects/"+pid+"/design", "#projectFaults")
	p.waitText("#projectFaults", "50% HTTP 503")
	if n := p.js(`document.querySelectorAll("#faults fieldset, [data-faults-save], [data-faults-clear]").length`); n != float64(0) {
		t.Errorf("a viewer gets %v fault forms, save or clear buttons", n)
	}
	p.open("/board/projects/"+pid+"/log", `#logEntries tr[data-entry]`)
	if p.js(`!!document.getElementById("logClear")`) != false {
		t.Error("a viewer gets Clear log")
	}

	// The editor clears the operation's faults and the log.
	p.signedIn(sh.owner)
	p.open("/board/projects/"+pid+"/design", op)
	p.js(`(document.querySelector('` + op + `').open = true, true)`)
	p.click(`[data-faults-clear="categories"]`)
	p.waitText(op+" summary", "Faults: the project's")
	if _, ops := sh.faultsOf(t); ops["categories"] != "<nil>" {
		t.Fatalf("after Clear the operation has %s", ops["categories"])
	}
	p.open("/board/projects/"+pid+"/log", "#logClear")
	p.click("#logClear")
	p.waitText("#logStatus", "The log is empty")
	p.waitText("#logEntries", "No runtime requests yet")
	if n := len(sh.requestLog(t, 200)); n != 0 {
		t.Fatalf("after Clear log the API lists %d entries", n)
	}
}

// TestBoardRequestLogSessionProject: on a session project (opened by its
// adoption link) the board may edit the faults, and an entry's curl
// carries the share token in the runtime URL and no key; run, it gets the
// entry's status.
func TestBoardRequestLogSessionProject(t *testing.T) {
	s := startServer(t)
	seedPool(t, s)
	sp := buildSessionModel(t, &assistant{s: s})
	pid := sp["projectId"].(string)
	p := newPage(t, s)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(sp["adoptionUrl"].(string))); err != nil {
		t.Fatal(err)
	}
	p.wait(`section[data-table="Product"]`)
	p.open("/board/projects/"+pid+"/design", "#faults")
	if p.js(`document.querySelector("#faults fieldset").disabled`) != false || p.js(`!!document.querySelector('[data-faults-save="project"]')`) != true {
		t.Fatal("the session's own project shows its faults read-only")
	}
	runtime := strings.TrimPrefix(sp["runtimeUrl"].(string), s.base)
	body, _ := json.Marshal(map[string]any{"query": `{ products { total } }`})
	s.do("POST", runtime, body, "X-Mock-Fault", "status=429").refusal(t, 429, "TOO_MANY_REQUESTS")

	p.open("/board/projects/"+pid+"/log", `#logEntries tr[data-entry]`)
	id := p.logEntry("status=429")
	p.click(`tr[data-entry="` + id + `"] button`)
	curl := p.text(`[data-curl-text="` + id + `"]`)
	if !strings.Contains(curl, "?token="+sp["shareToken"].(string)) || strings.Contains(curl, "X-API-Key") {
		t.Fatalf("a session project's curl: %s", curl)
	}
	if got := runCurl(t, curl, ""); got != "429" {
		t.Fatalf("the copied curl got %s, the entry 429", got)
	}
}
