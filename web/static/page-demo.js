// page-demo.js: the demo guest project on the board, read-only: its model,
// diagram and schema from its preview data, and a query box that runs
// against its runtime with its share token (the demo's own credential).
import { h, gql, fill, card, status, action, field } from "./dom.js";
import { drawInto } from "./tab-diagram.js";
import { rowsTable } from "./tab-model.js";

export async function demoPage(main) {
  document.title = "Demo project · mockgql";
  const d = (await gql(`{ demo { slug previewUrl runtimeUrl } }`)).demo;
  if (!d) return fill(main, card("Demo project", h("p", {}, "This server runs without the demo project (--no-demo).")));
  const token = new URL(d.previewUrl).searchParams.get("token");
  const r = await fetch(`/preview/${encodeURIComponent(d.slug)}/data?token=${encodeURIComponent(token)}`, { headers: { Accept: "application/json" } });
  const pv = await r.json();
  if (!r.ok) throw new Error(pv.detail || pv.code);
  const ids = new Map(pv.tables.map((t, i) => [t.name, "t" + i]));
  const tables = pv.tables.map((t) => ({ ...t, id: ids.get(t.name) }));
  const relations = pv.relations.map((x) => ({ ...x, sourceTableId: ids.get(x.sourceTable), targetTableId: ids.get(x.targetTable) }));
  const box = h("div", { class: "scroll" });
  fill(main, h("h1", {}, pv.project.name),
    h("p", { class: "muted" }, "The demo project, read-only. ", h("a", { href: "/" }, "Sign up"), " or start a guest project to model your own."),
    card("Diagram", box),
    h("div", { class: "grid" }, pv.tables.map((t) => card(t.name, h("p", { class: t.ready ? "ready" : "notready" }, t.ready ? "✓ ready" : "✗ not ready"),
      rowsTable(["name", "type", "mappingType"], t.attributes)))),
    runner(d, pv), card("Schema (SDL)", h("details", {}, h("summary", {}, "Show the SDL"), h("pre", { tabindex: "0" }, pv.sdl))));
  drawInto(box, tables, relations);
}

function runner(d, pv) {
  const q = h("textarea", { id: "demoQuery", rows: 6, spellcheck: "false" });
  const list = pv.tables.find((t) => t.sample);
  q.value = list ? `{ ${list.sample.operation}(pageSize: 3) { total items { id } } }` : "{ __typename }";
  const out = h("pre", { tabindex: "0", "aria-live": "polite" });
  const st = status();
  const run = action(h("button", { type: "button" }, "Run"), st, async () => {
    const r = await fetch(d.runtimeUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: q.value }) });
    out.textContent = JSON.stringify(await r.json(), null, 2);
  });
  return card("Run a query", h("p", { class: "muted" }, "Against ", h("code", {}, d.runtimeUrl.split("?")[0]), " with the demo's share token."), field("Query", q), run, st, out);
}
