// tab-playground.js: run queries and mutations against the project's
// runtime from the board in GraphiQL (vendored, web/vendor), through
// previewQuery (the member's session, no API key in the browser; counted as
// preview requests), and copy the same request as curl with the credential
// the runtime wants. ?query= in the address opens it with that query.
import { h, gql, fill, status, action, card, copyButton, GqlError, field } from "./dom.js";
import { isSubscription, subscribe, wsURL } from "./subscribe.js";
import { mayEdit } from "./role.js";
import { onLeave } from "./live.js";
import { contractStarter, generatedNote } from "./schema-start.js";

/** curlOf is the request as a shell command; account projects need a key.
 * opts: auth, the key's header line with a shell variable in double quotes
 * (default Authorization: Bearer $MGQ_API_KEY); headers, more header lines
 * (quoted here); operationName, sent in the body when set. */
export function curlOf(p, query, variables, opts = {}) {
  const body = JSON.stringify({ query, ...(variables ? { variables } : {}), ...(opts.operationName ? { operationName: opts.operationName } : {}) });
  const q = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  // Double quotes, so that the shell puts the key in from its variable.
  const auth = p.kind === "ACCOUNT" ? ` \\\n  -H "${opts.auth || "Authorization: Bearer $MGQ_API_KEY"}"` : "";
  const more = (opts.headers || []).map((x) => ` \\\n  -H ${q(x)}`).join("");
  return `curl -s ${q(p.runtimeUrl)}${auth}${more} \\\n  -H 'Content-Type: application/json' \\\n  -d ${q(body)}`;
}

function starter(p) {
  const list = p.operations.find((o) => o.kind === "LIST" && o.enabled);
  if (!list) return "{ __typename }";
  const t = p.tables.find((x) => x.id === list.tableId);
  const fields = t.attributes.filter((a) => a.mappingType !== "COMPUTED" && a.name !== "id").slice(0, 4).map((a) => a.name); // id is always selected
  return `query {\n  ${list.name}(pageSize: 5) {\n    total\n    items { id ${fields.join(" ")} }\n  }\n}`;
}

const VENDOR = "/board/vendor";

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const el = h("script", { src });
    el.addEventListener("load", resolve);
    el.addEventListener("error", () => reject(new Error(`cannot load ${src}`)));
    document.head.append(el);
  });
}

/** loadGraphiQL loads the vendored GraphiQL, the React it needs and the
 * graphql-ws client subscriptions run on, once. */
let graphiql = null;
function loadGraphiQL() {
  if (!graphiql) {
    document.head.append(h("link", { rel: "stylesheet", href: `${VENDOR}/graphiql@3.9.0/graphiql.min.css` }));
    graphiql = loadScript(`${VENDOR}/react@18.3.1/react.production.min.js`)
      .then(() => loadScript(`${VENDOR}/react-dom@18.3.1/react-dom.production.min.js`))
      .then(() => loadScript(`${VENDOR}/graphiql@3.9.0/graphiql.min.js`))
      .then(() => loadScript(`${VENDOR}/graphql-ws@6.4.2/graphql-ws.min.js`))
      .then(() => window.GraphiQL);
  }
  return graphiql;
}

/** projectStorage keeps GraphiQL's tabs and history per project. */
function projectStorage(id) {
  const key = (k) => `mgq:${id}:${k}`;
  const mine = () => Object.keys(localStorage).filter((k) => k.startsWith(`mgq:${id}:`));
  return {
    getItem: (k) => localStorage.getItem(key(k)),
    setItem: (k, v) => { try { localStorage.setItem(key(k), v); } catch { /* full: keep going */ } },
    removeItem: (k) => localStorage.removeItem(key(k)),
    clear: () => mine().forEach((k) => localStorage.removeItem(k)),
    get length() { return mine().length; },
  };
}

/** labelEditors names GraphiQL's editors for assistive technology (its
 * CodeMirror textareas have no label) and lets the keyboard reach their
 * scrolling areas; it runs again whenever GraphiQL re-renders. */
export function labelEditors(root) {
  const names = [[".graphiql-query-editor", "GraphQL query"], [".graphiql-editor-tool", "Variables (JSON)"], [".result-window", "Result"]];
  const apply = () => {
    for (const [sel, name] of names) {
      for (const el of root.querySelectorAll(`${sel} .CodeMirror textarea`)) if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", name);
      for (const el of root.querySelectorAll(`${sel} .CodeMirror-scroll`)) {
        if (el.getAttribute("tabindex") !== "0") { el.setAttribute("tabindex", "0"); el.setAttribute("aria-label", `${name}, scrollable`); } // CodeMirror sets -1
      }
    }
  };
  new MutationObserver(apply).observe(root, { childList: true, subtree: true });
  apply();
}

export async function playgroundTab(body, p) {
  const st = status();
  let query = new URLSearchParams(location.search).get("query");
  // A project serving an imported schema starts with a list its report names.
  if (!query && p.contract) query = await contractStarter(p).catch(() => null);
  const state = { query: query || starter(p), variables: "" };
  // A sandbox (docs/using/testing.md): runs read and write its overlay of the data.
  const sandbox = h("input", { id: "pgSandbox", type: "text", maxlength: "64", autocomplete: "off", pattern: "[A-Za-z0-9._\\-]{1,64}", placeholder: "none: the project's own data" });
  const curl = copyButton("Copy as curl", () => {
    let vars = null;
    if (state.variables.trim()) { try { vars = JSON.parse(state.variables); } catch { vars = null; } }
    const sb = sandbox.value.trim();
    return curlOf(p, state.query, vars, sb ? { headers: [`X-Mock-Sandbox: ${sb}`] } : {});
  });
  curl.id = "pgCurl";
  const mount = h("div", { id: "graphiql", class: "graphiql-box" });
  const sub = subscriptionParts(p, () => sandbox.value.trim());
  fill(body, generatedNote(p), card("Playground",
    h("p", { class: "muted" }, `Runs against ${p.runtimeUrl.split("?")[0]} with your board session (no key in the browser; subscriptions, which run on the runtime itself, excepted). Each run, and the schema read when the page opens, counts as a preview request against the quota.` +
      (p.kind === "ACCOUNT" ? " Outside the board the runtime needs an API key: “Copy as curl” leaves $MGQ_API_KEY for it." : "") +
      (mayEdit(p) ? "" : " With your role, queries run; mutations, which change the mock data, need the Editor role.")),
    h("div", { class: "row tight" }, field("Sandbox", sandbox, "X-Mock-Sandbox: runs read and write this sandbox's own copy of the data; empty for the project's."), curl), sub.key, st, mount),
  sub.card, sharingCard(p));
  const fetcher = async (params) => {
    if (isSubscription(params.query, params.operationName)) return sub.run(params);
    const d = await gql(`mutation($p: ID!, $q: String!, $v: JSON, $o: String, $s: String) { previewQuery(projectId: $p, query: $q, variables: $v, operationName: $o, sandbox: $s) }`,
      { p: p.id, q: params.query, v: params.variables || null, o: params.operationName || null, s: sandbox.value.trim() || null });
    return d.previewQuery;
  };
  labelEditors(mount);
  try {
    const GraphiQL = await loadGraphiQL();
    const { React, ReactDOM } = window;
    const root = ReactDOM.createRoot(mount);
    onLeave(() => root.unmount());
    root.render(React.createElement(GraphiQL, {
      fetcher: refusalsAsErrors(fetcher), query: state.query, defaultEditorToolsVisibility: true, isHeadersEditorEnabled: false,
      shouldPersistHeaders: false, storage: projectStorage(p.id),
      onEditQuery: (q) => { state.query = q; }, onEditVariables: (v) => { state.variables = v; },
    }));
  } catch (e) { st.fail(e); }
}

/** refusalsAsErrors makes a refusal of the board's request (a viewer's
 * mutation: FORBIDDEN) a GraphQL result with that error, which GraphiQL
 * shows as it shows any error — not as a thrown exception with its stack
 * trace. Results that are not promises (a subscription's) pass through. */
function refusalsAsErrors(fetch) {
  const asErrors = (e) => {
    if (!(e instanceof GqlError)) throw e;
    return { errors: [{ message: e.message, extensions: { code: e.code } }] };
  };
  return (params, opts) => {
    const r = fetch(params, opts);
    return r && typeof r.then === "function" ? r.catch(asErrors) : r;
  };
}

/** subscriptionParts are the playground's subscriptions (docs/using/
 * realtime.md): they run over the runtime's WebSocket, not previewQuery,
 * so an account project needs an API key, typed here and kept in the page
 * only (a guest or session project's runtime URL carries its token). Each
 * arriving event is listed in the events card, newest first. */
function subscriptionParts(p, sandboxOf) {
  const keyIn = h("input", { type: "password", id: "subKey", autocomplete: "off", spellcheck: false });
  const key = p.kind === "ACCOUNT" ? h("div", { class: "row tight" },
    field("API key for subscriptions", keyIn, "RUNTIME or FULL. Subscriptions run on the runtime itself; the key stays in this page.")) : null;
  const list = h("ol", { id: "subEvents", class: "events", tabindex: "0", "aria-label": "Subscription events, newest first" });
  const live = h("p", { class: "muted", "aria-live": "polite", id: "subEventsStatus" }, "No subscription running.");
  const card_ = card("Subscription events", h("p", { class: "muted" },
    "Run a subscription above (turn Subscriptions on for a list operation in API design); the events a mutation or “Send event” fires appear here and in the result pane. Starting one counts as a runtime request; events do not."),
  live, list);
  const note = (result) => {
    const at = new Date().toLocaleTimeString();
    list.prepend(h("li", {}, h("span", { class: "muted" }, at + " "), h("code", {}, JSON.stringify(result))));
    while (list.children.length > 20) list.lastChild.remove();
    live.textContent = `${list.children.length} event${list.children.length === 1 ? "" : "s"} received; the newest first.`;
  };
  async function* run(params) {
    if (p.kind === "ACCOUNT" && !keyIn.value.trim()) {
      yield { errors: [{ message: "Enter an API key (RUNTIME or FULL) above to run subscriptions: they run on the runtime itself." }] };
      return;
    }
    const init = p.kind === "ACCOUNT" ? { Authorization: "Bearer " + keyIn.value.trim() } : {};
    const sb = sandboxOf();
    if (sb) init["X-Mock-Sandbox"] = sb; // its events only
    live.textContent = "Subscription running: waiting for events.";
    const it = subscribe(wsURL(p.runtimeUrl), init, { query: params.query, variables: params.variables || undefined, operationName: params.operationName || undefined });
    try {
      for await (const r of it) { note(r); yield r; }
    } finally {
      await it.return();
      live.textContent = "Subscription ended.";
    }
  }
  return { key, card: card_, run };
}

/** sharingCard shows the preview link; on an account project an editor
 * turns it on, replaces it (older links stop working) or turns it off. */
export function sharingCard(p) {
  const st = status();
  st.id = "shareStatus";
  const link = h("a", { id: "previewLink", rel: "noreferrer", target: "_blank" });
  const on = h("button", { type: "button", id: "shareOn" }, "Share a preview link");
  const again = h("button", { type: "button", id: "shareNew", class: "secondary" }, "New link");
  const off = h("button", { type: "button", id: "shareOff", class: "danger" }, "Stop sharing");
  const show = () => {
    link.textContent = p.previewSharing ? p.previewUrl : "";
    link.href = p.previewSharing ? p.previewUrl : "#";
    link.hidden = !p.previewSharing;
    const account = p.kind === "ACCOUNT" && mayEdit(p);
    on.hidden = !account || p.previewSharing;
    again.hidden = off.hidden = !account || !p.previewSharing;
  };
  const set = (enabled, msg) => async () => {
    const d = await gql(`mutation($p: ID!, $on: Boolean!) { setPreviewSharing(projectId: $p, enabled: $on) { previewUrl previewSharing } }`, { p: p.id, on: enabled });
    Object.assign(p, d.setPreviewSharing);
    show();
    st.ok(msg);
  };
  action(on, st, set(true, "Anyone with the link can open the preview page."));
  action(again, st, set(true, "A new link: earlier links no longer work."));
  action(off, st, set(false, "The preview link no longer works."));
  show();
  return card("Preview link", h("p", { class: "muted" }, "A read-only page with the model, the schema and a sample of each table. It never opens the API of an account project; each opening counts against the quota."),
    h("p", {}, link, p.previewSharing || mayEdit(p) ? null : "Not shared."), h("div", { class: "row tight" }, on, again, off), st);
}
