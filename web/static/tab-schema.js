// tab-schema.js: the Schema tab of a project that serves an imported
// GraphQL schema (Project.contract): how each root field is served (the
// import's report, grouped Queries / Mutations / Subscriptions with a
// shape badge each), what was not interpreted, each table's row count
// (edited in place) and data source (generated rows, or a dataset of the
// pool picked among contractDatasetSuggestions), how a root field is
// served when an editor changes it (schema-mapping.js), and "Import a new
// version", whose changes (BREAKING / DANGEROUS / SAFE) show through the
// guard before they are applied, and "Compare with the real API" (the
// drift check, checkUpstream). Below EDITOR the same as text, and the
// comparison.
import { h, gql, fill, field, status, action, card, scroller, select, when } from "./dom.js";
import { mayEdit } from "./role.js";
import { deck, edited } from "./live.js";
import { ask } from "./guard.js";
import { schemaInput } from "./schema-start.js";
import { mappingEditor } from "./schema-mapping.js";

/** CONTRACT_FIELDS is what the board reads of Project.contract. */
export const CONTRACT_FIELDS = `contract { version importedAt tables { type tableId rows importCode fields { name source generator { kind options } } } report { root name shape entity description mapped everySeconds args { name role field op } } }`;

const GROUPS = [["QUERY", "Queries"], ["MUTATION", "Mutations"], ["SUBSCRIPTION", "Subscriptions"]];

/** schemaTab shows contract project p's schema as cards, each one
 * renderer; live(update) hands the page the function that re-renders them
 * in place after an edit. */
export async function schemaTab(body, p, who, live) {
  if (!p.contract) {
    fill(body, card("Schema", h("p", {}, "This project is modelled with tables, not imported from a GraphQL schema: its schema is on ",
      h("a", { href: `/board/projects/${encodeURIComponent(p.id)}/design` }, "API design"), ".")));
    return;
  }
  const edit = mayEdit(p);
  const d = deck(body, (p) => [
    { key: "report", deps: [p.contract.version, p.contract.report, p.tables.map((t) => [t.name, t.attributes.map((a) => a.name)])], render: () => reportCard(p, edit) },
    { key: "unsupported", deps: p.contract.version, render: () => unsupportedCard(p) },
    { key: "tables", deps: p.contract.tables, render: () => tablesCard(p, edit) },
    ...(edit ? [{ key: "version", deps: p.contract.version, render: () => versionCard(p) }] : []),
    { key: "upstream", deps: p.contract.version, render: () => upstreamCard(p) },
  ]);
  fill(body);
  d.update(p);
  if (live) live((p, msg) => d.update(p, msg));
}

/** SHAPES says in a person's words what each shape badge means. */
const SHAPES = {
  lookup: "one row by its key", lookupMany: "rows by their keys", node: "any row by its global ID", list: "a list of rows",
  connection: "a Relay connection", page: "a page of rows with its total", aggregate: "aggregates over rows",
  first: "one row found by its arguments", create: "creates a row", update: "updates a row", upsert: "creates or updates a row",
  delete: "deletes a row", event: "changes of a table", generated: "generated from its arguments and the rows",
};

/** reportCard is the import's report: per root type, each field with its
 * shape badge, the table it serves and how its arguments are read. */
function reportCard(p, edit) {
  const c = p.contract;
  const st = status();
  const groups = GROUPS.map(([root, title]) => {
    const fields = c.report.filter((f) => f.root === root);
    if (!fields.length) return null;
    const rows = fields.map((f) => h("tr", { dataset: { field: f.name } },
      h("th", { scope: "row", class: "mono" }, f.name),
      h("td", { "data-label": "Shape" }, h("span", { class: `badge shape shape-${f.shape}`, title: SHAPES[f.shape] || f.shape }, f.shape),
        f.mapped ? [" ", h("span", { class: "badge mapped" }, "set by an editor")] : null),
      h("td", { "data-label": "Table" }, f.entity ? h("code", {}, f.entity) : h("span", { class: "muted" }, "—")),
      h("td", { "data-label": "How it is served" }, h("div", {}, f.description.startsWith(`${f.name}: `) ? f.description.slice(f.name.length + 2) : f.description),
        edit ? mappingEditor(p, f, st) : null)));
    return h("div", { class: "report-group", dataset: { root } }, h("h3", {}, `${title} (${fields.length})`),
      scroller(`${title} of the schema`, h("table", { class: "data stack readonly report" },
        h("thead", {}, h("tr", {}, ["Field", "Shape", "Table", "How it is served"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, rows))));
  });
  const generated = c.report.some((f) => f.shape === "generated");
  const el = card("How the schema is served",
    h("p", { class: "muted" }, `Version ${c.version}, imported ${when(c.importedAt)}. The runtime serves the imported document exactly; each root field is answered by the engine as its shape says.`),
    groups,
    generated ? h("p", { class: "note", id: "generatedNote" }, h("strong", {}, "generated: "),
      "mockgql did not recognise what the field does, so it accepts its arguments and answers a value generated from them and the rows — the same value for the same arguments, until a mutation changes the data. Nothing is saved by a generated mutation.") : null,
    h("p", { class: "muted" }, "Shapes: ", Object.entries(SHAPES).filter(([k]) => c.report.some((f) => f.shape === k)).map(([k, v], i) => [i ? " · " : "", h("strong", {}, k), ` ${v}`])), st);
  el.id = "schemaReport";
  return el;
}

/** unsupportedCard names what the import did not interpret, read from
 * checkGraphQLSchema of the served document when the card is made. */
function unsupportedCard(p) {
  const box = h("div", { "aria-busy": "true" }, h("p", { class: "muted" }, "Reading…"));
  gql(`query($p: ID!) { project(id: $p) { contract { document } } }`, { p: p.id })
    .then((d) => gql(`query($s: String!) { checkGraphQLSchema(sdl: $s) { unsupported } }`, { s: d.project.contract.document }))
    .then((d) => {
      const list = d.checkGraphQLSchema.unsupported;
      fill(box, list.length
        ? [h("p", { class: "muted" }, "Served as declared, but mockgql gives them no special meaning:"), h("ul", { id: "unsupportedList" }, list.map((u) => h("li", {}, u)))]
        : h("p", { class: "muted" }, "Everything in the schema was interpreted."));
    }, (e) => fill(box, h("p", { class: "status error" }, e.message)))
    .finally(() => box.removeAttribute("aria-busy"));
  const el = card("Not interpreted", box);
  el.id = "schemaUnsupported";
  return el;
}

/** tablesCard is each table's row count and data source: editable in
 * place with edit, text otherwise. */
function tablesCard(p, edit) {
  const st = status();
  const rows = p.contract.tables.map((t) => (edit ? tableRow(p, t, st) : h("tr", { dataset: { contractTable: t.type } },
    h("th", { scope: "row", class: "mono" }, t.type), h("td", { "data-label": "Rows" }, String(t.rows)),
    h("td", { "data-label": "Data source" }, sourceText(t)))));
  const table = h("table", { class: edit ? "data stack contract-tables" : "data stack readonly contract-tables" },
    h("caption", { class: "muted" }, `${p.contract.tables.length} table${p.contract.tables.length === 1 ? "" : "s"} of the schema`),
    h("thead", {}, h("tr", {}, ["Type", "Rows", "Data source"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows));
  const el = card("Tables and their rows",
    h("p", { class: "muted" }, "Every object type with an identity is a table. Its rows are generated from the field names and types, the same for every request, or read from a dataset of the pool whose field paths match the type's fields."),
    edit ? h("div", { class: "scroll" }, table) : scroller("Tables of the schema", table), st);
  el.id = "contractTables";
  return el;
}

const sourceText = (t) => (t.importCode ? ["dataset ", h("code", {}, t.importCode)] : "generated rows");

/** tableRow is one table with its row count (saved on change) and the
 * picker of its data source. */
function tableRow(p, t, st) {
  const rows = h("input", { type: "number", min: 0, max: 10000, step: 1, value: t.rows, "aria-label": `Rows of ${t.type}`, dataset: { rows: t.type } });
  rows.addEventListener("change", async () => {
    const n = Number(rows.value);
    try {
      await gql(`mutation($p: ID!, $t: String!, $n: Int!) { setContractRows(projectId: $p, type: $t, rows: $n) { id } }`, { p: p.id, t: t.type, n });
      await edited(`${t.type} has ${n} row${n === 1 ? "" : "s"} now.`);
    } catch (e) { rows.value = t.rows; st.fail(e); }
  });
  return h("tr", { dataset: { contractTable: t.type } }, h("th", { scope: "row", class: "mono" }, t.type),
    h("td", { "data-label": "Rows" }, rows, t.importCode ? h("span", { class: "hint" }, "A dataset's records set the rows.") : null),
    h("td", { "data-label": "Data source" }, h("div", {}, sourceText(t)), sourcePicker(p, t, st)));
}

/** sourcePicker binds t to a dataset chosen among the suggestions (how
 * many of its fields each matches), read when the picker is opened, or
 * back to generated rows. */
function sourcePicker(p, t, st) {
  const box = h("details", { class: "source-picker", dataset: { source: t.type } }, h("summary", {}, `Change the data source of ${t.type}`));
  box.addEventListener("toggle", async () => {
    if (!box.open || box.querySelector("select")) return;
    try {
      const d = await gql(`query($p: ID!, $t: String!) { contractDatasetSuggestions(projectId: $p, type: $t) { dataSource { importCode recordCount } matchedFields missingFields } }`, { p: p.id, t: t.type });
      const opts = [["", "Generated rows"], ...d.contractDatasetSuggestions.map((s) => [s.dataSource.importCode, suggestionText(s)])];
      const sel = select(opts, t.importCode || "", { id: `source-${t.type}` });
      const bind = action(h("button", { type: "button", class: "secondary" }, "Use it"), st, async () => {
        await gql(`mutation($p: ID!, $t: String!, $c: String) { bindContractTable(projectId: $p, type: $t, importCode: $c) { id } }`, { p: p.id, t: t.type, c: sel.value || null });
        await edited(sel.value ? `${t.type} reads the dataset ${sel.value}.` : `${t.type} has generated rows again.`);
      });
      box.append(h("div", { class: "row" }, field(`Data source of ${t.type}`, sel,
        d.contractDatasetSuggestions.length ? "Datasets whose field paths match the type's fields, best first; fields bind by name." : "No dataset of the pool matches this type's fields."), bind));
    } catch (e) { st.fail(e); }
  });
  return box;
}

/** suggestionText says how well dataset suggestion s fits: "writers: 2
 * of 2 fields match (name, email); 40 records". */
function suggestionText(s) {
  const all = s.matchedFields.length + s.missingFields.length;
  return `${s.dataSource.importCode}: ${s.matchedFields.length} of ${all} field${all === 1 ? "" : "s"} match (${s.matchedFields.join(", ")}); ${s.dataSource.recordCount} records`;
}

/** versionCard reads a new version of the schema, shows what changes for
 * the apps that use the API, and applies it only once confirmed. */
function versionCard(p) {
  const st = status();
  const confirm = h("div", { id: "versionConfirm" });
  const input = schemaInput("version", () => fill(confirm));
  const compare = action(h("button", { type: "button", id: "versionCompare" }, "Compare with the served version"), st, async () => {
    input.clearError();
    fill(confirm);
    if (!input.value().trim()) { input.showError(new Error("Paste the new version, or pick or drop its file, first.")); return; }
    let changes;
    try { changes = await previewChanges(p, input.value()); } catch (e) { if (e.code === "BAD_USER_INPUT" || e.code === "PAYLOAD_TOO_LARGE") { input.showError(e); return; } throw e; }
    const from = document.getElementById("versionCompare");
    const breaking = changes.filter((c) => c.criticality === "BREAKING").map((c) => ({ path: c.path, message: c.message }));
    ask(confirm, {
      question: changes.length ? `Apply version ${p.contract.version + 1}? It changes ${changes.length} thing${changes.length === 1 ? "" : "s"} in the schema:` : `Apply version ${p.contract.version + 1}? The schema does not change.`,
      breaking, from,
      detail: [changeTable(changes.filter((c) => c.criticality !== "BREAKING"), breaking.length ? "Besides:" : null),
        h("p", {}, "Rows, row counts and dataset bindings are kept for the types whose names stay.")],
      yes: breaking.length ? "Apply it anyway" : "Apply the new version",
    }, st, async () => {
      const d = await gql(`mutation($p: ID!, $s: String!) { importGraphQLSchema(projectId: $p, sdl: $s) { changes { criticality } project { contract { version } } } }`, { p: p.id, s: input.value() });
      await edited(`Applied version ${d.importGraphQLSchema.project.contract.version}: ${d.importGraphQLSchema.changes.length} change${d.importGraphQLSchema.changes.length === 1 ? "" : "s"}.`);
    });
  });
  // The served document in the box, to edit into the next version.
  const current = action(h("button", { type: "button", class: "secondary", id: "versionCurrent" }, "Start from the served document"), st, async () => {
    const d = await gql(`query($p: ID!) { project(id: $p) { contract { document } } }`, { p: p.id });
    input.text.value = d.project.contract.document;
    fill(confirm);
    input.text.focus();
    st.ok(`The box holds version ${p.contract.version}: edit it, then compare.`);
  });
  const el = card("Import a new version",
    h("p", { class: "muted" }, "The imported document is the baseline. A new version replaces it; first the board shows what it changes (BREAKING, DANGEROUS, SAFE) for the apps that use the API."),
    input.el, h("div", { class: "row tight" }, compare, current), confirm, st);
  el.id = "schemaVersion";
  return el;
}

/** upstreamCard is the drift check: the real API this project stands in
 * for, introspected with the Authorization given, and how its schema
 * differs from the project's, BREAKING first (checkUpstream). */
function upstreamCard(p) {
  const st = status();
  const result = h("div", { id: "upstreamResult" });
  const url = h("input", { type: "url", id: "upstreamUrl", name: "upstreamUrl", placeholder: "https://api.example.com/graphql", autocomplete: "url", required: true });
  const auth = h("input", { type: "password", id: "upstreamAuth", name: "upstreamAuth", placeholder: "Bearer …", autocomplete: "off" });
  const go = action(h("button", { type: "button", id: "upstreamCompare" }, "Compare with the real API"), st, async () => {
    fill(result);
    if (!url.value.trim()) { url.focus(); throw new Error("Give the real API's GraphQL URL first."); }
    const headers = auth.value.trim() ? [{ name: "Authorization", value: auth.value.trim() }] : [];
    const d = await gql(`query($p: ID!, $u: String!, $h: [UpstreamHeaderInput!]) { checkUpstream(projectId: $p, url: $u, headers: $h) { breaking changes { type criticality path message } } }`,
      { p: p.id, u: url.value.trim(), h: headers });
    const c = d.checkUpstream;
    if (!c.changes.length) { st.ok("The real API's schema is the same as this project's: no drift."); return; }
    st.ok(c.breaking ? `${c.breaking} of ${c.changes.length} differences break an app written against this mock.` : `${c.changes.length} differences; none breaks an app written against this mock.`);
    fill(result, changeTable(c.changes, null, "upstreamChanges"));
  });
  const el = card("Compare with the real API",
    h("p", { class: "muted" }, "Has the API this project stands in for changed? mockgql asks it for its schema and lists what differs. The Authorization is sent to that API only and not kept; ",
      h("code", {}, "mockgql check-upstream"), " does the same in CI."),
    field("Real API's GraphQL URL", url), field("Its Authorization header (optional)", auth),
    h("div", { class: "row tight" }, go), st, result);
  el.id = "schemaUpstream";
  return el;
}

/** changeTable lists schema changes, BREAKING first, under intro. */
function changeTable(changes, intro, id = "versionChanges") {
  if (!changes.length) return null;
  const order = { BREAKING: 0, DANGEROUS: 1, SAFE: 2 };
  const sorted = [...changes].sort((a, b) => (order[a.criticality] ?? 3) - (order[b.criticality] ?? 3));
  return h("div", { class: "scroll" }, intro ? h("p", {}, intro) : null, h("table", { class: "data stack readonly", id },
    h("thead", {}, h("tr", {}, ["Criticality", "Where", "What"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, sorted.map((c) => h("tr", { dataset: { criticality: c.criticality } },
      h("td", { "data-label": "Criticality", class: c.criticality === "BREAKING" ? "notready" : "" }, c.criticality),
      h("td", { "data-label": "Where", class: "mono" }, c.path), h("td", { "data-label": "What" }, c.message))))));
}

/** previewChanges is what importing sdl would change (checkGraphQLSchema:
 * nothing is applied). */
async function previewChanges(p, sdl) {
  const d = await gql(`query($p: ID!, $s: String!) { checkGraphQLSchema(projectId: $p, sdl: $s) { changes { type criticality path message } } }`, { p: p.id, s: sdl });
  return d.checkGraphQLSchema.changes;
}
