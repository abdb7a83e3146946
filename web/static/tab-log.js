// tab-log.js: the project's request log (Project.requestLog): its last
// runtime requests, newest first, with refresh (and an optional automatic
// one), "Clear log" (EDITOR and above), and per entry the query and
// variables, "Copy as curl" and "Replay" (through previewQuery, which does
// not enter the log).
import { h, gql, fill, status, action, card, copyButton, check } from "./dom.js";
import { curlOf } from "./tab-playground.js";
import { mayEdit } from "./role.js";
import { onLeave } from "./live.js";

const LOG_FIELDS = "id at operationName rootFields query variables status durationMs errorCode fault";
const AUTO_MS = 5000;

/** notReplayable says why an entry cannot be copied or replayed, or "". */
export function notReplayable(e) {
  if (!e.query) return "The request was refused before its body was read: there is no query to copy or replay.";
  if (new TextEncoder().encode(e.query).length > 4096) return "The query was longer than the log keeps (4 KiB): it is clipped here.";
  if (typeof e.variables === "string") return "The variables were longer than the log keeps (4 KiB): they are clipped here.";
  return "";
}

/** entryCurl is the entry as a runtime request: the project's credential
 * (an account project's key left to $MGQ_API_KEY) and, when a fault was
 * injected, the X-Mock-Fault header that injects it again. */
export function entryCurl(p, e) {
  return curlOf(p, e.query, e.variables || null, { auth: "X-API-Key: $MGQ_API_KEY", operationName: e.operationName,
    headers: e.fault ? [`X-Mock-Fault: ${e.fault}`] : [] });
}

export async function logTab(body, p) {
  const edit = mayEdit(p);
  const st = status();
  st.id = "logStatus";
  const tbody = h("tbody", { id: "logEntries" });
  const open = new Map(); // entry ID → its shown details, kept across refreshes (a replay's answer too)
  let loading = false;
  const load = async () => {
    if (loading) return;
    loading = true;
    try {
      const d = await gql(`query($id: ID) { project(id: $id) { requestLog { ${LOG_FIELDS} } } }`, { id: p.id });
      const entries = d.project.requestLog;
      for (const id of open.keys()) if (!entries.some((e) => e.id === id)) open.delete(id);
      fill(tbody, entries.length ? entries.map((e) => entryRows(p, e, edit, open)) : h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No runtime requests yet: call the runtime URL above, or open it in GraphiQL.")));
      count.textContent = `${entries.length} of at most 200, newest first; updated ${new Date().toLocaleTimeString()}.`;
    } catch (e) { st.fail(e); } finally { loading = false; }
  };
  const count = h("p", { class: "muted", id: "logCount" });
  const refresh = action(h("button", { type: "button", id: "logRefresh" }, "Refresh"), st, load);
  let timer = null;
  onLeave(() => clearInterval(timer));
  const auto = check(`Refresh every ${AUTO_MS / 1000} seconds`, false, (ev) => {
    clearInterval(timer);
    timer = ev.target.checked ? setInterval(load, AUTO_MS) : null;
  }, { id: "logAuto" });
  const clear = edit ? action(h("button", { type: "button", class: "danger", id: "logClear" }, "Clear log"), st, async () => {
    await gql(`mutation($p: ID!) { clearRequestLog(projectId: $p) { id } }`, { p: p.id });
    open.clear();
    await load();
    st.ok("The log is empty.");
  }) : null;
  fill(body, card("Request log",
    h("p", { class: "muted" }, "The last 200 requests to ", h("code", {}, `/mock/${p.slug}/graphql`),
      ", kept in memory (a restart of the project's node empties it). “Replay” runs an entry's query through the board's preview, like the Playground: it is not a runtime request, gets no fault and does not enter this log."),
    h("div", { class: "row tight log-tools" }, refresh, auto, clear), count, st,
    h("div", { class: "scroll" }, h("table", { class: "data stack log", id: "log" },
      h("thead", {}, h("tr", {}, ["Time", "Operation", "Status", "Duration", "Error code", "Fault", ""].map((c) => h("th", { scope: "col" }, c)))),
      tbody))));
  await load();
}

/** entryRows is an entry's row and, when open, its details row. */
function entryRows(p, e, edit, open) {
  const detailId = `log-${e.id}`;
  const detail = h("tr", { class: "log-detail", id: detailId, hidden: true }, h("td", { colspan: 7 }));
  const toggle = h("button", { type: "button", class: "secondary", "aria-expanded": "false", "aria-controls": detailId }, "Details");
  const show = (on) => {
    detail.hidden = !on;
    toggle.setAttribute("aria-expanded", String(on));
    if (!on) return open.delete(e.id);
    if (!open.has(e.id)) open.set(e.id, details(p, e, edit));
    detail.firstChild.replaceChildren(open.get(e.id));
  };
  toggle.addEventListener("click", () => show(detail.hidden));
  if (open.has(e.id)) show(true);
  const what = e.operationName || e.rootFields.join(", ") || "—";
  const failed = e.status >= 400 || e.errorCode;
  const td = (label, v, cls) => h("td", { "data-label": label, class: cls }, v);
  const row = h("tr", { dataset: { entry: e.id, status: e.status } },
    td("Time", h("time", { datetime: e.at }, new Date(e.at).toLocaleTimeString())),
    td("Operation", what, "mono"),
    td("Status", String(e.status), failed ? "notready" : "ready"),
    td("Duration", `${e.durationMs.toFixed(1)} ms`),
    td("Error code", e.errorCode || "—", "mono"),
    td("Fault", e.fault || "—", "mono"),
    h("td", {}, toggle));
  return [row, detail];
}

/** details shows an entry's query and variables, its curl and its replay. */
function details(p, e, edit) {
  const st = status();
  const why = notReplayable(e);
  const answer = h("pre", { class: "log-answer", tabindex: "0", "aria-label": "Replay answer", hidden: true });
  const copy = copyButton("Copy as curl", () => entryCurl(p, e));
  copy.dataset.curl = e.id;
  const curlText = h("pre", { class: "log-curl", tabindex: "0", "aria-label": "The request as curl", dataset: { curlText: e.id } }, entryCurl(p, e));
  const mutation = /^\s*mutation\b/.test(e.query);
  const replay = action(h("button", { type: "button", class: "secondary", dataset: { replay: e.id } }, "Replay"), st, async () => {
    const d = await gql(`mutation($p: ID!, $q: String!, $v: JSON, $o: String) { previewQuery(projectId: $p, query: $q, variables: $v, operationName: $o) }`,
      { p: p.id, q: e.query, v: e.variables || null, o: e.operationName || null });
    answer.textContent = JSON.stringify(d.previewQuery, null, 2);
    answer.hidden = false;
    st.ok("Replayed through the preview (not logged).");
  });
  const canReplay = !why && (edit || !mutation);
  return h("div", { class: "log-entry" },
    h("p", { class: "muted" }, `${new Date(e.at).toLocaleString()} · root fields: ${e.rootFields.join(", ") || "—"}`),
    h("h3", {}, "Query"), h("pre", { class: "log-query", tabindex: "0", "aria-label": "Query" }, e.query || "(none)"),
    h("h3", {}, "Variables"), h("pre", { class: "log-vars", tabindex: "0", "aria-label": "Variables" }, e.variables == null ? "(none)" : JSON.stringify(e.variables, null, 2)),
    why ? h("p", { class: "warning" }, why) : [
      h("h3", {}, "As curl"),
      h("p", { class: "muted" }, p.kind === "ACCOUNT" ? "Set MGQ_API_KEY to one of the project's API keys first; the board never puts a key in it." : "The share token in the URL is the credential.",
        e.fault ? ` The X-Mock-Fault header injects this entry's fault (${e.fault}) again.` : ""),
      curlText,
      h("div", { class: "row tight" }, copy, canReplay ? replay : null),
      mutation ? h("p", { class: "muted" }, canReplay ? "Replaying a mutation changes the mock data again." : "Replaying a mutation needs EDITOR or above.") : null,
    ],
    st, answer);
}
