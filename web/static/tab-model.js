// tab-model.js: the Model tab: tables with their data binding (importCode
// and variant), the attribute grid, the mapping editor, readiness with its
// reason, the relations editor and each table's default views. Below
// EDITOR (mayEdit) the same things show as text, without edit controls.
import { h, gql, fill, field, check, select, status, action, card, scroller, count } from "./dom.js";
import { mappingEditor, show, valueAt } from "./mapping.js";
import { contractGenerators, contractTableOf, generatorText } from "./contract-generators.js";
import { relationsCard } from "./relations.js";
import { guarded } from "./guard.js";
import { mayEdit } from "./role.js";
import { deck, edited } from "./live.js";
import { TYPES, addAllFields, attributeName, guessType, createApi, playgroundPath, fieldGuesses } from "./fields.js";

export { TYPES };

/** dataSources is the data pool project p's tables may bind (a guest or
 * session project reads the curated datasets only), with a few sample
 * documents each. */
export async function dataSources(p) {
  const d = await gql(`query($p: ID) { dataSources(projectId: $p) { importCode name fieldPaths recordCount variants { name recordCount } sampleDocuments(limit: 3) } }`, { p: p.id });
  return d.dataSources;
}

/** modelTab shows the model as cards, each one renderer: the new-table
 * form, a card per table and the relations; live(update) hands the page
 * the function that re-renders them in place after an edit. */
export async function modelTab(body, p, who, live) {
  // A project serving an imported schema takes its types from the schema:
  // they show read-only here; a new version changes them (tab-schema.js).
  const edit = mayEdit(p) && !p.contract;
  const pool = await dataSources(p);
  const byCode = Object.fromEntries(pool.map((d) => [d.importCode, d]));
  const top = h("div"), tables = h("div", { id: "tables" }), rels = h("div");
  const decks = [
    deck(top, (p) => (p.contract ? [{ key: "contract", deps: p.contract.version, render: () => contractNote(p) }]
      : edit ? [{ key: "new", deps: p.tables.map((t) => t.name), render: () => newTableCard(p, pool) }] : [])),
    deck(tables, (p) => (p.tables.length ? p.tables.map((t) => ({ key: t.id, deps: [tableDeps(p, t), p.contract && contractTableOf(p, t)], render: () => (edit ? tableCard : tableView)(p, t, pool, byCode[t.source && t.source.importCode]) }))
      : [{ key: "none", render: () => card("Tables", h("p", { id: "noTables" }, !edit ? "No tables yet: an editor adds them."
        // "Create an API from this dataset" makes account projects; a guest or session project picks a dataset above.
        : p.kind === "ACCOUNT" ? ["No tables yet: add one above, or open the ", h("a", { href: "/board/data" }, "Data pool"), " and use “Create an API from this dataset” on a dataset."]
        : ["No tables yet: pick a Dataset above and use “Add with all its fields” (the ", h("a", { href: "/board/data" }, "Data pool"), " shows what each holds)."])) }])),
    deck(rels, (p) => [{ key: "relations", deps: [p.relations, p.tables.map((t) => [t.id, t.name, t.attributes.map((a) => a.name)]), p.operations.length], render: () => relationsCard(p, edit) }]),
  ];
  const update = (p, msg) => decks.forEach((d) => d.update(p, msg));
  update(p);
  fill(body, top, tables, rels);
  if (live) live(update);
}

/** contractNote says why a contract project's model is read-only and
 * where its types change. */
function contractNote(p) {
  const base = `/board/projects/${encodeURIComponent(p.id)}`;
  const el = card("From the imported schema", h("p", { id: "contractReadOnly" },
    `These types come from the GraphQL schema this project serves (version ${p.contract.version}); they show read-only here${mayEdit(p) ? ", but for how each field's values are generated" : ""}. To change them, `,
    h("a", { href: `${base}/schema` }, "import a new version on the Schema tab"),
    ", where row counts and data sources are edited too."));
  el.id = "contractNote";
  return el;
}

/** tableDeps is what a table's card shows: the table, its views and operations. */
const tableDeps = (p, t) => [t, p.views.filter((v) => v.tableId === t.id), p.operations.filter((o) => o.tableId === t.id).map((o) => [o.name, o.kind, o.enabled])];

function newTableCard(p, pool) {
  const name = h("input", { type: "text", id: "tableName", required: true, placeholder: "Product" });
  const code = select([["", "not bound yet"], ...pool.map((d) => [d.importCode, `${d.importCode} (${count(d.recordCount, "record")})`])], "", { id: "tableSource" });
  const st = status();
  const add = action(h("button", { type: "submit", id: "addTable" }, "Add table"), st, async () => {
    await gql(`mutation($i: CreateModellingTableInput!) { createModellingTable(input: $i) { id } }`,
      { i: { projectId: p.id, name: name.value.trim(), source: code.value ? { importCode: code.value } : null } });
    await edited(`Added table ${name.value.trim()}.`);
  });
  const all = action(h("button", { type: "button", id: "addTableAll", class: "secondary" }, "Add with all its fields"), st, async () => {
    if (!code.value) throw new Error("Choose a dataset: the table gets an attribute for each of its field paths.");
    const t = await createApi(p.id, code.value, name.value.trim());
    await edited(`Added table ${t.name} with every field of ${code.value}, bound, with its default operations.`);
  });
  return card("Add a table", h("form", { class: "row" }, field("Table name", name, "A GraphQL type name, e.g. Product; with all fields, empty takes the dataset's name."), field("Dataset", code), add, all), st);
}

/** readiness says whether table t is ready, and when not, why. */
const readiness = (t) => (t.ready ? h("p", { class: "ready" }, "✓ ready")
  : h("p", { class: "notready", dataset: { reason: "" } }, "✗ not ready: ", h("span", { class: "reason" }, t.notReadyReason)));

function tableCard(p, t, pool, source) {
  const st = status();
  const views = p.views.filter((v) => v.tableId === t.id);
  const box = h("div", { class: "confirm" }); // the warning before a breaking edit
  const rows = t.ready && p.operations.some((o) => o.tableId === t.id && o.kind === "LIST" && o.enabled)
    ? h("p", {}, h("a", { href: playgroundPath(p, t), class: "button secondary", dataset: { rowsOf: t.name } }, `Query ${t.name} rows in the Playground`)) : null;
  const el = card(t.name, readiness(t), rows, box, bindingForm(t, pool, st), attributeGrid(p, t, source, st, box), bindHinted(t, source, st),
    addAllFields(p, t, source), addAttribute(p, t, source, st), views.length ? viewsBox(p, t, views) : null, renameTable(p, t, st, box), deleteTable(p, t, st), st);
  el.dataset.table = t.name;
  return el;
}

/** tableView is tableCard for a user who may only read: the binding, the
 * attributes and their mappings as text, and the views' first rows. */
function tableView(p, t, pool, source) {
  const views = p.views.filter((v) => v.tableId === t.id);
  const src = t.source;
  const binding = p.contract ? contractBinding(p, t) : h("p", { class: "binding" }, "Dataset: ", src ? h("code", {}, src.importCode) : "not bound",
    src ? (src.variant ? [" · variant ", h("code", {}, src.variant)] : " · all variants") : "");
  // A contract table's hidden link keys (__key…) are the engine's, not the schema's.
  const shown = p.contract ? { ...t, attributes: t.attributes.filter((a) => !a.name.startsWith("__")) } : t;
  const el = card(t.name, readiness(t), binding, attributeGrid(p, shown, source, null, null, false),
    p.contract && mayEdit(p) ? contractGenerators(p, t) : null, p.contract ? null : viewsBox(p, t, views));
  el.dataset.table = t.name;
  return el;
}

/** contractBinding says where a contract table's rows come from, as the
 * Schema tab sets it: generated (how many) or a dataset of the pool. */
function contractBinding(p, t) {
  const c = p.contract.tables.find((x) => x.tableId === t.id || x.type === t.name);
  if (!c) return null;
  return h("p", { class: "binding" }, "Rows: ", c.importCode ? ["read from the dataset ", h("code", {}, c.importCode)] : `${c.rows} generated`,
    " (", h("a", { href: `/board/projects/${encodeURIComponent(p.id)}/schema` }, "change on the Schema tab"), ")");
}

function bindingForm(t, pool, st) {
  const cur = t.source || {};
  // A code the project cannot read (not in its pool) is still the table's
  // binding: shown as such, not as "not bound".
  const unreadable = cur.importCode && !pool.some((d) => d.importCode === cur.importCode) ? [[cur.importCode, `${cur.importCode} (not in this project's pool)`]] : [];
  const code = select([["", "not bound"], ...unreadable, ...pool.map((d) => [d.importCode, `${d.importCode} (${count(d.recordCount, "record")})`])], cur.importCode || "");
  const variantSel = () => {
    const ds = pool.find((d) => d.importCode === code.value);
    return select([["", "All variants"], ...((ds && ds.variants) || []).map((v) => [v.name, `${v.name} (${v.recordCount})`])], cur.variant || "");
  };
  let variant = variantSel();
  const variantBox = h("div", { class: "field-box" }, field("Variant", variant));
  code.addEventListener("change", () => { variant = variantSel(); fill(variantBox, field("Variant", variant)); });
  const save = action(h("button", { type: "button", class: "secondary" }, "Save binding"), st, async () => {
    if (!code.value) throw new Error("Choose a dataset to bind the table to.");
    await gql(`mutation($i: UpdateModellingTableInput!) { updateModellingTable(input: $i) { id } }`,
      { i: { tableId: t.id, source: { importCode: code.value, variant: variant.value || null } } });
    await edited(`${t.name} is bound to ${code.value}${variant.value ? ` (variant ${variant.value})` : ""}.`);
  });
  return h("div", { class: "row binding" }, field("Dataset (importCode)", code), variantBox, save);
}

/** attributeGrid is the attributes of t, editable in place unless edit is false. */
function attributeGrid(p, t, source, st, box, edit = true) {
  if (!t.attributes.length) return h("p", { class: "muted" }, "No attributes yet.");
  const gens = p.contract ? contractTableOf(p, t) : null;
  const rows = t.attributes.map((a) => (edit ? attributeRow(p, t, a, source, st, box) : attributeText(a, source, gens)));
  const cols = ["Name", "Type", "Sortable", "Filterable", "Required", "Mapping", ...(edit ? [""] : [])];
  const table = h("table", { class: edit ? "data attrs stack" : "data attrs stack readonly" },
    h("caption", { class: "muted" }, `Attributes of ${t.name}`),
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows));
  return edit ? h("div", { class: "scroll" }, table) : scroller(`Attributes of ${t.name}`, table);
}

function mappingText(a, source) {
  switch (a.mappingType) {
    case "SOURCE": {
      const sample = source && source.sampleDocuments[0];
      return [h("code", {}, a.sourceMapping.path), sample ? h("span", { class: "muted" }, " e.g. ", show(pathValue(sample, a.sourceMapping.path))) : null];
    }
    case "CONSTANT": return ["constant ", h("code", {}, JSON.stringify(a.constantValue))];
    case "GENERATED": return ["generated ", h("code", {}, a.generator ? a.generator.kind : "?")];
    case "COMPUTED": return ["computed ", h("code", {}, a.computedExpression || "")];
  }
  if (a.sourceMapping) return h("span", { class: "muted" }, "none (null); hint ", h("code", {}, a.sourceMapping.path));
  return h("span", { class: "muted" }, "none (null)");
}

/** hinted are the unmapped attributes that carry a path hint (an OpenAPI
 * import keeps each property's path), bindable in one go once the table
 * has a dataset. */
const hinted = (t) => t.attributes.filter((a) => a.mappingType === "NONE" && a.sourceMapping && a.sourceMapping.path);

function bindHinted(t, source, st) {
  const todo = hinted(t).filter((a) => source && source.fieldPaths.includes(a.sourceMapping.path));
  if (!todo.length) return null;
  return action(h("button", { type: "button", class: "secondary", dataset: { bindHinted: t.name } },
    `Bind ${todo.length} attribute${todo.length === 1 ? "" : "s"} to ${todo.length === 1 ? "its" : "their"} hinted path${todo.length === 1 ? "" : "s"}`), st, async () => {
    for (const a of todo) {
      await gql(`mutation($i: UpdateModellingAttributeInput!) { updateModellingAttribute(input: $i) { id } }`,
        { i: { attributeId: a.id, mappingType: "SOURCE", sourceMapping: { path: a.sourceMapping.path } } });
    }
    await edited(`Bound ${todo.length} attribute${todo.length === 1 ? "" : "s"} of ${t.name}.`);
  });
}

function pathValue(doc, path) {
  return path.split(".").reduce((v, k) => (v && typeof v === "object" ? v[k] : undefined), doc);
}

function attributeRow(p, t, a, source, st, box) {
  const save = (patch) => gql(`mutation($i: UpdateModellingAttributeInput!) { updateModellingAttribute(input: $i) { id } }`,
    { i: { attributeId: a.id, ...patch } });
  const saved = (patch) => save(patch).then(() => edited(`Saved ${t.name}.${patch.name || a.name}.`), (e) => st.fail(e));
  const name = h("input", { type: "text", value: a.name, "aria-label": `Name of ${t.name}.${a.name}` });
  name.addEventListener("change", () => guarded(p, box, { kind: "RENAME_ATTRIBUTE", id: a.id, name: name.value.trim() },
    () => save({ name: name.value.trim() }), st, () => { name.value = a.name; }, `Renamed ${t.name}.${a.name} to ${name.value.trim()}.`).catch((e) => st.fail(e)));
  const type = select(TYPES, a.type, { "aria-label": `Type of ${t.name}.${a.name}` });
  // A type change is BREAKING for the apps that read the field: guarded.
  type.addEventListener("change", () => guarded(p, box, { kind: "CHANGE_ATTRIBUTE_TYPE", id: a.id, type: type.value },
    () => save({ type: type.value }), st, () => { type.value = a.type; }, `Changed ${t.name}.${a.name} to ${type.value}.`).catch((e) => { type.value = a.type; st.fail(e); }));
  const flag = (key, label) => {
    const box = h("input", { type: "checkbox", checked: a[key], "aria-label": `${label}: ${t.name}.${a.name}` });
    box.addEventListener("change", () => saved({ [key]: box.checked }));
    return h("td", { class: "cell-flag" }, h("label", { class: "check" }, box, h("span", { class: "flag-label", "aria-hidden": "true" }, label)));
  };
  // The Mappings pane of one attribute, built when first opened: a large
  // model has hundreds of attributes, each with every path of its dataset.
  const edit = h("details", {}, h("summary", {}, "Edit mapping"));
  edit.addEventListener("toggle", () => {
    if (!edit.open || edit.querySelector(".mapping")) return;
    const ed = mappingEditor(a, source);
    const apply = action(h("button", { type: "button" }, "Save mapping"), st, async () => {
      await gql(`mutation($i: UpdateModellingAttributeInput!) { updateModellingAttribute(input: $i) { id } }`, { i: { attributeId: a.id, ...ed.value() } });
      await edited(`Saved the mapping of ${t.name}.${a.name}.`);
    });
    edit.append(ed.el, apply);
  });
  const del = action(h("button", { type: "button", class: "danger", "aria-label": `Delete ${t.name}.${a.name}` }, "Delete"), st, () =>
    guarded(p, box, { kind: "DELETE_ATTRIBUTE", id: a.id }, () => gql(`mutation($id: ID!) { deleteModellingAttribute(attributeId: $id) }`, { id: a.id }), st, null, `Deleted ${t.name}.${a.name}.`,
      { question: `Delete the attribute ${t.name}.${a.name}?`, detail: `Its type, flags and mapping are lost${a.mappingType === "SOURCE" && a.sourceMapping ? ` (it reads ${a.sourceMapping.path}; the dataset keeps the data)` : ""}.`, yes: `Delete ${t.name}.${a.name}` }));
  return h("tr", { dataset: { attribute: a.name } }, h("td", { class: "cell-name" }, name), h("td", { class: "cell-type" }, type),
    flag("sortable", "Sortable"), flag("filterable", "Filterable"), flag("required", "Required"),
    h("td", { "data-label": "Mapping", class: "cell-mapping" }, h("div", {}, mappingText(a, source)), edit), h("td", { class: "cell-actions" }, del));
}

/** attributeText is an attribute's row as text; a contract table's
 * fields (gens) show the generator that makes them. */
function attributeText(a, source, gens) {
  const gen = gens && gens.fields.find((f) => f.name === a.name);
  const td = (label, v) => h("td", { "data-label": label }, v);
  return h("tr", { dataset: { attribute: a.name } }, h("th", { scope: "row", class: "mono" }, a.name), td("Type", a.type.toLowerCase()),
    td("Sortable", a.sortable ? "yes" : "no"), td("Filterable", a.filterable ? "yes" : "no"), td("Required", a.required ? "yes" : "no"),
    td("Mapping", gen ? generatorText(gen) : mappingText(a, source)));
}

/** addAttribute is the single-attribute form; picking a path prefills
 * the name (when not typed) and the type inferred from the data. */
function addAttribute(p, t, source, st) {
  const name = h("input", { type: "text", required: true });
  const type = select(TYPES, "STRING");
  const flags = { sortable: true, filterable: true, required: false };
  let typed = false, picked = false; // what the person set themselves stays
  name.addEventListener("input", () => { typed = name.value.trim() !== ""; });
  type.addEventListener("change", () => { picked = true; });
  const onPath = async (path) => {
    if (!typed) name.value = attributeName(path);
    if (!picked) type.value = guessType(path, source ? source.sampleDocuments.map((d) => valueAt(d, path)) : []);
    try {
      const g = (await fieldGuesses(p, source.importCode)).find((x) => x.path === path);
      if (g && !picked) type.value = g.type;
      if (g && !typed) name.value = g.name;
    } catch { /* the samples' guess stays */ }
  };
  const ed = mappingEditor(null, source, onPath);
  const add = action(h("button", { type: "submit" }, "Add attribute"), st, async () => {
    await gql(`mutation($i: CreateModellingAttributeInput!) { createModellingAttribute(input: $i) { id } }`,
      { i: { tableId: t.id, name: name.value.trim(), type: type.value, ...flags, ...ed.value() } });
    await edited(`Added ${t.name}.${name.value.trim()} (${type.value.toLowerCase()}).`);
  });
  const form = h("form", { class: "add-attribute", dataset: { table: t.name } },
    h("div", { class: "row" }, field("Attribute name", name), field("Type", type)),
    h("div", {}, ["sortable", "filterable", "required"].map((k) => check(k[0].toUpperCase() + k.slice(1), flags[k], (e) => { flags[k] = e.target.checked; }))),
    ed.el, add);
  return h("details", { class: "add" }, h("summary", {}, `Add an attribute to ${t.name}`), form);
}

/** viewsBox shows the table's default views; the list view's rows come
 * from the project's runtime through previewQuery, on request. */
function viewsBox(p, t, views) {
  const list = p.operations.find((o) => o.tableId === t.id && o.kind === "LIST" && o.enabled);
  const out = h("div", { class: "view-rows" });
  const names = views.length ? views.map((v) => `${v.name} (${v.kind.toLowerCase()})`).join(", ") : "None yet: an editor's next visit makes the default ones.";
  const kids = [h("h3", {}, "Views"), h("p", { class: "muted" }, names)];
  if (list) {
    const st = status();
    const showRows = action(h("button", { type: "button", class: "secondary" }, `Show the first rows (${list.name})`), st, async () => {
      const fields = t.attributes.filter((a) => a.mappingType !== "COMPUTED").map((a) => a.name).filter((n) => n !== "id" && /^[_A-Za-z][_0-9A-Za-z]*$/.test(n));
      const q = `{ ${list.name}(pageSize: 5) { total items { id ${fields.join(" ")} } } }`;
      const d = await gql(`mutation($p: ID!, $q: String!) { previewQuery(projectId: $p, query: $q) }`, { p: p.id, q });
      const res = d.previewQuery;
      if (res.errors && res.errors.length) throw new Error(res.errors[0].message);
      const page = res.data[list.name];
      fill(out, h("p", { class: "muted" }, `${count(page.total, "row")}; the first ${page.items.length}:`), rowsTable(["id", ...fields], page.items));
    });
    kids.push(showRows, st, out);
  }
  return h("div", {}, kids);
}

/** rowsTable shows records as a table; every value is text. */
export function rowsTable(cols, items) {
  return h("div", { class: "scroll" }, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, items.map((it) => h("tr", {}, cols.map((c) => h("td", {}, show(it[c]))))))));
}

function renameTable(p, t, st, box) {
  const name = h("input", { type: "text", value: t.name });
  const go = action(h("button", { type: "button", class: "secondary" }, "Rename"), st, () =>
    guarded(p, box, { kind: "RENAME_TABLE", id: t.id, name: name.value.trim() },
      () => gql(`mutation($i: UpdateModellingTableInput!) { updateModellingTable(input: $i) { id } }`, { i: { tableId: t.id, name: name.value.trim() } }), st, null, `Renamed ${t.name} to ${name.value.trim()}.`));
  return h("details", {}, h("summary", {}, `Rename ${t.name}`), h("div", { class: "row" }, field("New table name", name), go));
}

function deleteTable(p, t, st) {
  const box = h("div", { class: "confirm" });
  const ops = p.operations.filter((o) => o.tableId === t.id).length;
  const rels = p.relations.filter((r) => r.sourceTableId === t.id || r.targetTableId === t.id).length;
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  const go = action(h("button", { type: "button", class: "danger" }, `Delete table ${t.name}…`), st, () =>
    guarded(p, box, { kind: "DELETE_TABLE", id: t.id }, () => gql(`mutation($id: ID!) { deleteModellingTable(tableId: $id) }`, { id: t.id }), st, null, `Deleted table ${t.name}.`,
      { question: `Delete the table ${t.name}?`, detail: `Lost with it: ${plural(t.attributes.length, "attribute")}, ${plural(ops, "operation")} and ${plural(rels, "relation")}. The dataset it reads is kept.`, yes: `Yes, delete ${t.name}` }));
  return h("div", {}, go, box);
}
