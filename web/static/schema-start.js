// schema-start.js: start from the GraphQL schema a team already has (SDL,
// or an introspection result). The projects page's "Start from a GraphQL
// schema" makes a project that serves it in at most three actions — paste
// it, or pick or drop a file; Create; Run — and lands on the playground
// with a query of the first list the import's report names
// (docs/using/board.md, "From a schema to rows in the playground").
// schemaInput, the box that reads a schema, serves the Schema tab's
// "Import a new version" and API design's "Import a GraphQL schema" too.
import { h, gql, publicGql, field, status, action, card, uid, fill, count } from "./dom.js";
import { go } from "./live.js";
import { ask } from "./guard.js";

/** MAX_SCHEMA_BYTES is the import's bound (docs/reference/bounds.md): a
 * larger file is refused here before it is sent. */
export const MAX_SCHEMA_BYTES = 16 << 20;

/** schemaInput is a labelled textarea for a schema, a file picker and a
 * drop zone around both (SDL .graphql/.gql or introspection .json; a file
 * replaces the text). prefix names its controls (#‹prefix›Sdl,
 * #‹prefix›File, #‹prefix›Error). It returns {el, value(), fileName(),
 * showError(err), clearError()}; showError puts a parse error's "line L,
 * column C" beside the textarea and the caret there. */
export function schemaInput(prefix, onChange) {
  const text = h("textarea", { id: `${prefix}Sdl`, spellcheck: "false", rows: 10, placeholder: "type Query {\n  books: [Book!]!\n}\n\ntype Book {\n  id: ID!\n  title: String!\n}" });
  const error = h("p", { class: "field-error", id: `${prefix}Error`, role: "alert" });
  text.setAttribute("aria-describedby", error.id);
  const file = h("input", { type: "file", id: `${prefix}File`, accept: ".graphql,.gql,.graphqls,.json,application/json" });
  const chosen = h("p", { class: "muted", id: `${prefix}Chosen` });
  let name = "";
  const load = async (f) => {
    clearError();
    if (f.size > MAX_SCHEMA_BYTES) { showError(new Error(`${f.name} is ${f.size} bytes; a schema may have up to 16 MB (${MAX_SCHEMA_BYTES} bytes) as introspection JSON, 4 MB as SDL.`)); return; }
    try { text.value = await f.text(); } catch (e) { showError(new Error(`${f.name} could not be read: ${e.message}`)); return; }
    name = f.name;
    chosen.textContent = `Read ${f.name} (${f.size} bytes).`;
    if (onChange) onChange();
  };
  // Emptied once read, so that choosing the same file again (after an edit
  // on disk) reads it again: an input keeps its value and fires no change.
  file.addEventListener("change", () => { const f = file.files[0]; if (f) load(f).finally(() => { file.value = ""; }); });
  text.addEventListener("input", () => { name = ""; chosen.textContent = ""; clearError(); if (onChange) onChange(); });
  const dropHint = h("p", { class: "muted", id: uid("drop") }, "Paste the SDL or an introspection result ({\"data\": {\"__schema\": …}}), pick a file, or drop one here. Up to 4 MB of SDL or 16 MB of introspection JSON.");
  const el = h("div", { class: "drop schema-drop", id: `${prefix}Drop` }, dropHint,
    field("GraphQL schema (SDL or introspection JSON)", text), error,
    field("Or pick a file (.graphql, .gql or .json)", file), chosen);
  el.addEventListener("dragover", (e) => { e.preventDefault(); el.classList.add("over"); });
  el.addEventListener("dragleave", () => el.classList.remove("over"));
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    el.classList.remove("over");
    if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
  });
  function clearError() { error.textContent = ""; }
  function showError(err) {
    const msg = err instanceof Error ? err.message : String(err);
    const at = /line (\d+), column (\d+)/.exec(msg);
    error.textContent = at ? `Line ${at[1]}, column ${at[2]}: ${msg.replace(at[0], "").replace(/^[:;,\s]+/, "")}` : msg;
    if (at) caretAt(text, Number(at[1]), Number(at[2]));
  }
  return { el, value: () => text.value, fileName: () => name, showError, clearError, text };
}

/** caretAt selects the character at line, column (1-based) of a textarea,
 * so the person sees where the parser stopped. */
function caretAt(text, line, column) {
  const lines = text.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at = Math.min(text.value.length, at + Math.max(0, column - 1));
  text.focus({ preventScroll: false });
  text.setSelectionRange(at, Math.min(text.value.length, at + 1));
}

/** projectName is the name a schema gives a new project: the file's name
 * without its extension ("library.graphql" → "Library"), else the first
 * sentence of the description of its schema or Query type ("\"A library.\"
 * type Query" → "A library"), else "" (the form then asks for one). */
export function projectName(fileName, sdl) {
  const stem = fileName.replace(/\.[^.]*$/, "").replace(/[-_.]+/g, " ").trim();
  if (stem) return stem[0].toUpperCase() + stem.slice(1);
  const m = /(?:"""([\s\S]*?)"""|"((?:[^"\\\n]|\\.)*)")\s*(?:schema\b|type\s+Query\b)/.exec(sdl);
  const desc = m ? (m[1] !== undefined ? m[1] : m[2].replace(/\\(.)/g, "$1")).trim().split(/\n|(?<=\.)\s/)[0].replace(/\.$/, "").trim() : "";
  return desc.length > 60 ? desc.slice(0, 59).trimEnd() + "…" : desc;
}

/** startCard is "Start from a GraphQL schema": the schema box, an
 * optional name, and Create, which makes a project from the schema in one
 * call and opens its playground with a starter query. who is the signed-in
 * user (app.js), or null for a visitor without an account: the landing
 * page and a signed-out projects page make a guest project held by this
 * browser and import the schema into it. A refusal by the plan's table
 * limit keeps the schema in the box and, for an owner, offers the plan
 * that fits in place. */
export function startCard(who = null) {
  const st = status();
  const name = h("input", { type: "text", id: "schemaProjectName", autocomplete: "off" });
  const input = schemaInput("start", () => { name.placeholder = projectName(input.fileName(), input.value()) || "Name it here"; });
  name.placeholder = "From the schema or its file";
  const upgrade = h("div", { id: "schemaPlanFix" });
  let guestId = null; // a guest project made by an earlier try of this card
  const create = async () => {
    fill(upgrade);
    input.clearError();
    if (!input.value().trim()) { input.showError(new Error("Paste a schema, or pick or drop a file, first.")); input.text.focus(); return; }
    const n = name.value.trim() || projectName(input.fileName(), input.value());
    let p;
    try {
      if (!n && who) {
        // Nothing names it: say first what is wrong with the schema, if
        // anything, then ask for a name. (A guest project takes the
        // default name.)
        await gql(`query($s: String!) { checkGraphQLSchema(sdl: $s) { tables } }`, { s: input.value() });
        st.fail(new Error("Name the project: the schema has no description to name it after."));
        name.focus();
        return;
      }
      p = who ? await createFromSchema(n, input.value()) : await guestFromSchema(n || null, input.value(), guestId, (id) => { guestId = id; });
    } catch (e) {
      if (e.code === "BAD_USER_INPUT" || e.code === "PAYLOAD_TOO_LARGE") { input.showError(e); return; }
      if (e.code === "LIMIT_REACHED") offerPlan(e, who, upgrade, st, create);
      throw e;
    }
    st.ok(`Created ${p.name}: opening its playground.`);
    const to = await playgroundOf(p);
    if (who) go(to); else location.assign(to);
  };
  const btn = action(h("button", { type: "button", id: "schemaCreate" }, "Create"), st, create);
  const el = card(who ? "Start from a GraphQL schema" : "Start from your GraphQL schema",
    h("p", { class: "muted" }, "A project that serves your schema exactly — every type, field and argument — with related rows that stay put, and mutations that save. Paste, pick or drop, then Create: the playground opens with a query that returns rows." +
      (who ? "" : " No account needed: a guest project held by this browser serves it (500 calls a day).")),
    input.el, h("div", { class: "row" }, field("Project name (optional)", name), btn), st, upgrade);
  el.id = "startFromSchema";
  return el;
}

/** offerPlan shows, under a table-limit refusal err, the plan its message
 * names as the one that fits: an owner changes to it and creates in one
 * action, the schema still in the box; others are told who can. */
function offerPlan(err, who, box, st, retry) {
  const m = /the (\w+) plan allows (\d+)/.exec(err.message);
  if (!m) return;
  if (!who) {
    fill(box, h("p", {}, "An account project holds more: ", h("a", { href: "/" }, "sign up"), ` and choose the ${m[1].toLowerCase()} plan.`));
    return;
  }
  if (who.account.myRole !== "OWNER") {
    fill(box, h("p", {}, `The ${m[1].toLowerCase()} plan allows ${m[2]} tables; the owner of ${who.account.name} can change the plan under Account.`));
    return;
  }
  const fix = action(h("button", { type: "button", id: "schemaChangePlan" }, `Change to ${m[1].toLowerCase()} and create`), st, async () => {
    await gql(`mutation($p: Plan!) { setPlan(plan: $p) { plan } }`, { p: m[1] });
    who.account.plan = m[1];
    const plan = document.querySelector("header .who");
    if (plan) plan.lastChild.textContent = m[1].toLowerCase();
    await retry();
  });
  fill(box, h("div", { class: "row tight" }, fix));
}

/** createFromSchema makes an account project named name that serves sdl
 * and returns it with its contract's report. */
async function createFromSchema(name, sdl) {
  const d = await gql(`mutation($n: String!, $s: String!) { createProject(name: $n, sdl: $s) { id name slug contract { report { root name shape entity description } } } }`, { n: name, s: sdl });
  return d.createProject;
}

/** guestFromSchema makes a guest project held by this browser (or takes
 * the one an earlier, refused try made: id) and imports sdl into it;
 * made(id) keeps the new project for the next try. */
async function guestFromSchema(name, sdl, id, made) { // name null: the default
  if (!id) {
    const d = await publicGql(`mutation($n: String) { createGuestProject(name: $n) { projectId } }`, { n: name });
    id = d.createGuestProject.projectId;
    made(id);
    try { localStorage.setItem("mgq.guestProject", id); } catch { /* storage off: the address still opens it */ }
  }
  const d = await gql(`mutation($p: ID!, $s: String!) { importGraphQLSchema(projectId: $p, sdl: $s) { project { id name contract { report { root name shape entity description } } } } }`, { p: id, s: sdl });
  return d.importGraphQLSchema.project;
}

/** generatedNote is the summary of what an import could not map, for the
 * playground of a project serving a schema: "3 mutations save nothing"
 * with their names and a link to the Schema tab, where each is mapped;
 * null when every root field is served by the engine. */
export function generatedNote(p) {
  const report = (p.contract && p.contract.report) || [];
  const gen = (root) => report.filter((f) => f.root === root && f.shape === "generated").map((f) => f.name);
  const muts = gen("MUTATION"), queries = gen("QUERY");
  if (!muts.length && !queries.length) return null;
  const names = (l) => (l.length > 5 ? `${l.slice(0, 5).join(", ")} and ${l.length - 5} more` : l.join(", "));
  const lines = [];
  const one = (l, a, b) => (l.length === 1 ? a : b);
  if (muts.length) lines.push(h("li", {}, `${count(muts.length, "mutation")} ${one(muts, "saves", "save")} nothing: `, h("code", {}, names(muts)),
    `. ${one(muts, "It answers", "They answer")} generated values and ${one(muts, "changes", "change")} no row.`));
  if (queries.length) lines.push(h("li", {}, `${count(queries.length, "query", "queries")} ${one(queries, "answers", "answer")} generated values: `, h("code", {}, names(queries)), "."));
  const el = card("What the import could not map", h("ul", { id: "generatedSummary" }, lines),
    h("p", {}, h("a", { href: `/board/projects/${encodeURIComponent(p.id)}/schema`, id: "mapGenerated" }, "Map them on the Schema tab"), " to make them create, update, delete or read rows."));
  el.id = "importSummary";
  return el;
}

/** playgroundOf is the address of p's playground with a starter query:
 * the first list, connection or page of its report, with a few scalar
 * fields (read by introspection through previewQuery). */
export async function playgroundOf(p) {
  const base = `/board/projects/${encodeURIComponent(p.id)}/playground`;
  try {
    const q = await contractStarter(p);
    return q ? `${base}?query=${encodeURIComponent(q)}` : base;
  } catch { return base; } // the playground opens with its default query
}

const TYPE_REF = "kind name ofType { kind name ofType { kind name ofType { kind name } } }";
const INTROSPECT = `{ __schema { queryType { name } types { name kind fields { name type { ${TYPE_REF} } args { name defaultValue type { ${TYPE_REF} } } } } } }`;

/** contractStarter is a query of contract project p that returns rows, or
 * null when its report names no list. */
export async function contractStarter(p) {
  const report = (p.contract && p.contract.report) || [];
  const lists = report.filter((f) => f.root === "QUERY" && /^(list|connection|page)$/i.test(f.shape));
  if (!lists.length) return null;
  const d = await gql(`mutation($p: ID!, $q: String!) { previewQuery(projectId: $p, query: $q) }`, { p: p.id, q: INTROSPECT });
  const s = d.previewQuery && d.previewQuery.data && d.previewQuery.data.__schema;
  if (!s) return null;
  return starterOf(s, lists.map((f) => f.name));
}

const PAGE_SIZE = ["first", "limit", "take", "pageSize", "perPage", "per_page", "size"];
const WRAPPED = ["edges", "node", "items", "results", "nodes", "data", "returning"];

/** named unwraps NON_NULL and LIST to the named type. */
const named = (t) => (t.ofType ? named(t.ofType) : t);

/** starterOf builds the query of the first of names (root fields, in the
 * report's order) whose arguments are all optional: a page size of 5 when
 * it takes one, and a selection of up to 5 scalar fields (the key first)
 * through the connection or page around the rows. */
export function starterOf(schema, names) {
  const types = new Map(schema.types.map((t) => [t.name, t]));
  const root = types.get(schema.queryType.name);
  for (const n of names) {
    const f = root && (root.fields || []).find((x) => x.name === n);
    if (!f || f.args.some((a) => a.type.kind === "NON_NULL" && a.defaultValue == null)) continue;
    const size = f.args.find((a) => PAGE_SIZE.includes(a.name) && named(a.type).name === "Int");
    const sel = selection(types, named(f.type).name, 0);
    if (!sel) continue;
    return `{\n  ${f.name}${size ? `(${size.name}: 5)` : ""} ${block(sel, 1)}\n}`;
  }
  return null;
}

/** selection is a list of lines selecting type's scalar fields (key first,
 * up to 5) and, three levels deep at most, the rows inside a wrapper. */
function selection(types, name, depth) {
  const t = types.get(name);
  if (!t || !t.fields) return null;
  const plain = (f) => !f.args.some((a) => a.type.kind === "NON_NULL" && a.defaultValue == null);
  const scalar = t.fields.filter((f) => plain(f) && ["SCALAR", "ENUM"].includes(named(f.type).kind));
  scalar.sort((a, b) => (b.name === "id") - (a.name === "id"));
  const out = scalar.slice(0, 5).map((f) => f.name);
  if (depth < 3) {
    for (const f of t.fields.filter((x) => plain(x) && WRAPPED.includes(x.name))) {
      const inner = selection(types, named(f.type).name, depth + 1);
      if (inner) out.push({ name: f.name, inner });
    }
  }
  if (t.kind === "INTERFACE" || t.kind === "UNION") out.unshift("__typename");
  return out.length ? out : null;
}

function block(sel, indent) {
  const pad = "  ".repeat(indent + 1);
  const lines = sel.map((s) => (typeof s === "string" ? pad + s : `${pad}${s.name} ${block(s.inner, indent + 1)}`));
  return `{\n${lines.join("\n")}\n${"  ".repeat(indent)}}`;
}

/** importCard is API design's "Import a GraphQL schema" for a project
 * modelled from tables (a guest's too): the schema replaces its tables,
 * relations and operations, so with any table the guard asks first,
 * naming what goes and what comes (checkGraphQLSchema). Then the
 * playground opens with a starter query, as after Create. */
export function importCard(p) {
  const st = status();
  const confirm = h("div", { id: "importConfirm" });
  const input = schemaInput("import", () => fill(confirm));
  const run = async () => {
    const d = await gql(`mutation($p: ID!, $s: String!) { importGraphQLSchema(projectId: $p, sdl: $s) { project { id name contract { report { root name shape entity description } } } } }`, { p: p.id, s: input.value() });
    st.ok(`${d.importGraphQLSchema.project.name} serves the schema now: opening its playground.`);
    go(await playgroundOf(d.importGraphQLSchema.project), true);
  };
  const btn = action(h("button", { type: "button", id: "importSchema" }, "Import the schema"), st, async () => {
    input.clearError();
    fill(confirm);
    if (!input.value().trim()) { input.showError(new Error("Paste a schema, or pick or drop a file, first.")); return; }
    let check;
    try {
      check = (await gql(`query($s: String!) { checkGraphQLSchema(sdl: $s) { tables } }`, { s: input.value() })).checkGraphQLSchema;
    } catch (e) { if (e.code === "BAD_USER_INPUT" || e.code === "PAYLOAD_TOO_LARGE") { input.showError(e); return; } throw e; }
    if (!p.tables.length) return run();
    ask(confirm, {
      from: btn, question: `Replace the model of ${p.name} with this schema?`,
      detail: `Its ${p.tables.length} table${p.tables.length === 1 ? "" : "s"} (${p.tables.map((t) => t.name).join(", ")}), ${p.relations.length} relation${p.relations.length === 1 ? "" : "s"} and ${p.operations.length} operation${p.operations.length === 1 ? "" : "s"} give way to the schema's ${check.tables.length} table${check.tables.length === 1 ? "" : "s"} (${check.tables.join(", ")}); apps using today's API break. The datasets stay in the pool.`,
      yes: "Replace the model",
    }, st, run);
  });
  const el = card("Import a GraphQL schema", h("p", { class: "muted" }, "Serve a schema you already have, exactly, instead of this model: its types become tables of generated rows (or bound to datasets), its root fields are served by the engine. Up to 4 MB of SDL or 16 MB of introspection JSON."),
    input.el, btn, confirm, st);
  el.id = "importGraphql";
  return el;
}
