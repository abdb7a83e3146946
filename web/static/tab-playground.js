// tab-playground.js: run queries and mutations against the project's
// runtime from the board, through previewQuery (the member's session, no
// API key in the browser; counted as preview requests), and copy the same
// request as curl with the credential the runtime wants.
import { h, gql, fill, field, status, action, card, copyButton } from "./dom.js";

/** curlOf is the request as a shell command; account projects need a key. */
export function curlOf(p, query, variables) {
  const body = JSON.stringify(variables ? { query, variables } : { query });
  const q = (s) => "'" + s.replace(/'/g, "'\\''") + "'";
  const auth = p.kind === "ACCOUNT" ? ` \\\n  -H ${q("Authorization: Bearer $MGQ_API_KEY")}` : "";
  return `curl -s ${q(p.runtimeUrl)}${auth} \\\n  -H 'Content-Type: application/json' \\\n  -d ${q(body)}`;
}

function starter(p) {
  const list = p.operations.find((o) => o.kind === "LIST" && o.enabled);
  if (!list) return "{ __typename }";
  const t = p.tables.find((x) => x.id === list.tableId);
  const fields = t.attributes.filter((a) => a.mappingType !== "COMPUTED").slice(0, 4).map((a) => a.name);
  return `query {\n  ${list.name}(pageSize: 5) {\n    total\n    items { id ${fields.join(" ")} }\n  }\n}`;
}

export async function playgroundTab(body, p) {
  const query = h("textarea", { id: "pgQuery", spellcheck: "false", rows: 12 }, );
  query.value = starter(p);
  const vars = h("textarea", { id: "pgVariables", spellcheck: "false", rows: 3, placeholder: "{}" });
  const result = h("pre", { id: "pgResult", tabindex: "0", "aria-live": "polite" });
  const st = status();
  const run = action(h("button", { type: "button", id: "pgRun" }, "Run"), st, async () => {
    let variables = null;
    if (vars.value.trim()) {
      try { variables = JSON.parse(vars.value); } catch { throw new Error("Variables must be a JSON object, e.g. {\"id\": \"1\"}."); }
    }
    const d = await gql(`mutation($p: ID!, $q: String!, $v: JSON) { previewQuery(projectId: $p, query: $q, variables: $v) }`, { p: p.id, q: query.value, v: variables });
    result.textContent = JSON.stringify(d.previewQuery, null, 2);
  });
  query.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run.click(); });
  const curl = copyButton("Copy as curl", () => curlOf(p, query.value, vars.value.trim() ? JSON.parse(vars.value) : null));
  curl.id = "pgCurl";
  const schema = await gql(`query($id: ID) { project(id: $id) { sdl } }`, { id: p.id }).then((d) => d.project.sdl, () => "");
  fill(body, card("Playground",
    h("p", { class: "muted" }, `Runs against ${p.runtimeUrl.split("?")[0]} with your board session (no key in the browser). Each run counts as a preview request against the quota.` +
      (p.kind === "ACCOUNT" ? " Outside the board the runtime needs an API key: “Copy as curl” leaves $MGQ_API_KEY for it." : "")),
    field("Query or mutation (Ctrl+Enter runs it)", query), field("Variables (JSON, optional)", vars),
    h("div", { class: "row" }, run, curl), st, h("h3", {}, "Result"), result),
  card("Schema", h("details", {}, h("summary", {}, "Types and operations of this project (SDL)"), h("pre", { tabindex: "0" }, schema))),
  sharingCard(p));
}

/** sharingCard shows the preview link; on an account project it turns it
 * on, replaces it (older links stop working) or turns it off. */
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
    const account = p.kind === "ACCOUNT";
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
    h("p", {}, link), h("div", { class: "row tight" }, on, again, off), st);
}
