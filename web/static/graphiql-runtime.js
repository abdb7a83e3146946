// GraphiQL on a project's runtime, served at GET /mock/{slug}/graphql to a
// browser. Every request goes to this same address: with ?token= (a guest
// or session project's share token) carried when the page was opened with
// one, and with the key typed into the labelled field (account projects)
// as Authorization: Bearer. The key stays in this tab's memory only.
// Subscriptions run over the same address's WebSocket (graphql-ws), the key
// in the connection_init payload. The look and the editors' labels are the
// board's playground's.
import { labelEditors } from "./tab-playground.js";
import { isSubscription, subscribe } from "./subscribe.js";

{
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const url = location.pathname + (token ? "?token=" + encodeURIComponent(token) : "");
  const key = document.getElementById("apiKey");
  document.getElementById("endpoint").textContent = location.origin + location.pathname;
  if (token) {
    document.getElementById("tokenNote").hidden = false;
    document.getElementById("keyBox").hidden = true;
  }

  /** fetcher posts one GraphQL request and returns its JSON answer; a
   * refusal's error body is shown as it is. A subscription returns the
   * events as they arrive instead. */
  async function fetcher(body, opts) {
    if (isSubscription(body.query || "", body.operationName)) {
      const init = key.value.trim() ? { Authorization: "Bearer " + key.value.trim() } : {};
      return subscribe(location.origin.replace(/^http/, "ws") + url, init, body);
    }
    const headers = Object.assign({ "Content-Type": "application/json", Accept: "application/json" }, (opts && opts.headers) || {});
    if (key.value.trim()) headers.Authorization = "Bearer " + key.value.trim();
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    return res.json();
  }

  const root = document.getElementById("graphiql");
  /** start mounts GraphiQL, which introspects the runtime at once. */
  const start = () => {
    root.hidden = false;
    labelEditors(root);
    window.ReactDOM.createRoot(root).render(window.React.createElement(window.GraphiQL, {
      fetcher,
      defaultQuery: params.get("query") || "# Ctrl-Enter runs the query; the Docs button lists the schema.\n{ __typename }\n",
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: true,
    }));
  };
  if (token) start();
  else {
    // Without a share token only an API key opens the runtime: ask for it
    // first rather than greet the person with a 401 from the introspection.
    const gate = document.getElementById("keyGate");
    const gateKey = document.getElementById("gateKey");
    root.hidden = true;
    gate.hidden = false;
    document.getElementById("keyBox").hidden = true;
    gateKey.focus();
    document.getElementById("keyGateForm").addEventListener("submit", (e) => {
      e.preventDefault();
      if (!gateKey.value.trim()) return;
      key.value = gateKey.value.trim();
      gate.hidden = true;
      document.getElementById("keyBox").hidden = false;
      start();
    });
  }
  key.addEventListener("change", () => { // introspect again with the key
    const btn = document.querySelector(".graphiql-toolbar-button[aria-label^='Re-fetch'], button[aria-label^='Re-fetch']");
    if (btn) btn.click();
  });
}
