// tab-design.js: API design: operations per table (create, rename,
// enable/disable, parameters, delete) guarded by a warning that names what
// a change breaks; the generated SDL; the changes since the baseline; the
// OpenAPI import wizard, the GraphQL schema import and the exports. Below EDITOR (role.js): the
// operations, faults, changes and schema as text, and the OpenAPI export.
import { h, gql, fill, field, select, status, action, card, scroller } from "./dom.js";
import { openApiCard, exportCard } from "./openapi.js";
import { importCard } from "./schema-start.js";
import { guarded } from "./guard.js";
import { faultsCard, operationFaults } from "./tab-faults.js";
import { mayEdit } from "./role.js";
import { deck, edited } from "./live.js";

const KINDS = ["LIST", "SINGLE", "CREATE", "UPDATE", "DELETE", "AGGREGATE"];
// The opt-in query power of a LIST operation (docs/using/runtime.md, "Query power").
const OPTIONS = [["relay", (o) => `Relay connection (${o.name}Connection)`], ["where", () => "where filter (and, or, not)"], ["orderBy", () => "orderBy (multi-field sort)"],
  // docs/using/realtime.md: the table's Subscription fields, fired by mutations.
  ["subscriptions", (o, t) => `Subscriptions (${subName(t)}Created, ${subName(t)}Updated, ${subName(t)}Deleted)`]];
// subName is the lower-camel start of a table's Subscription fields, as
// model.LowerCamel makes it: Product → product, URLItem → urlItem, URLs → urls.
function subName(t) {
  const r = [...t.name];
  let n = 0;
  while (n < r.length && r[n] !== r[n].toLowerCase()) n++;
  const k = n === 1 || n === r.length || r.slice(n).join("") === "s" ? n : n - 1;
  return r.slice(0, k).join("").toLowerCase() + r.slice(k).join("");
}
const OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "in", "like"];

/** designTab shows the API design as cards, each one renderer; live(update)
 * hands the page the function that re-renders them in place after an edit. */
export async function designTab(body, p, who, live) {
  const st = status();
  const edit = mayEdit(p);
  const gen = edit && action(h("button", { type: "button", id: "generateOps" }, "Generate default operations"), st, async () => {
    const d = await gql(`mutation($p: ID!) { generateDefaultGqlOperations(projectId: $p) { name } }`, { p: p.id });
    await edited(d.generateDefaultGqlOperations.length ? `Added ${d.generateDefaultGqlOperations.map((o) => o.name).join(", ")}.` : "Every table has its default operations already.");
  });
  const confirmBox = h("div", { id: "confirm" });
  const intro = "Each table gets list, single, create, update and delete operations; rename, disable or add parameters to a list operation below.";
  // A project serving an imported schema has no operations to design: its
  // root fields are the schema's (the Schema tab says how each is served).
  const contract = !!p.contract;
  const head = edit && !contract ? card("Operations", h("p", { class: "muted" }, intro), gen, st, confirmBox) : null;
  const model = (p) => [p.tables, p.relations, p.operations, p.contract && p.contract.version];
  const d = deck(body, (p) => [
    ...(contract ? [{ key: "contract", deps: p.contract.version, render: () => contractOps(p) }] : []),
    ...(head ? [{ key: "head", render: () => head }] : []),
    ...(contract ? [] : p.tables.map((t) => ({ key: "ops:" + t.id, deps: [t.name, t.attributes.map((a) => a.name), p.operations.filter((o) => o.tableId === t.id)], render: () => operationsCard(p, t, confirmBox, edit) }))),
    { key: "faults", deps: p.faults || null, render: () => faultsCard(p, edit) },
    { key: "changes", deps: model(p), render: () => changesCard(p, edit) },
    { key: "sdl", deps: model(p), render: () => sdlCard(p) },
    ...(edit && !contract ? [{ key: "graphql", deps: [p.tables.map((t) => t.name), p.relations.length, p.operations.length], render: () => importCard(p) }, { key: "openapi", render: () => openApiCard(p) }] : []),
    { key: "export", deps: edit, render: () => exportCard(p, edit) },
  ]);
  fill(body);
  d.update(p);
  if (live) live((p, msg) => d.update(p, msg));
}

/** contractOps says where a contract project's operations are: its
 * schema's root fields, served as the Schema tab's report says. */
function contractOps(p) {
  const el = card("Operations", h("p", { id: "contractOps" }, "This project serves an imported GraphQL schema: its operations are the schema's root fields, each served as ",
    h("a", { href: `/board/projects/${encodeURIComponent(p.id)}/schema` }, "the Schema tab"), " says. They change with a new version of the schema, not here."));
  return el;
}

/** sdlCard shows the project's runtime schema, read when it is made. */
function sdlCard(p) {
  const pre = h("pre", { id: "sdl", tabindex: "0" });
  gql(`query($id: ID) { project(id: $id) { sdl } }`, { id: p.id }).then((d) => { pre.textContent = d.project.sdl; }, (e) => { pre.textContent = `# ${e.message}`; });
  return card(p.contract ? "Served schema (SDL)" : "Generated schema (SDL)", pre);
}

function operationsCard(p, t, box, edit) {
  const ops = p.operations.filter((o) => o.tableId === t.id);
  const st = status();
  const rows = ops.map((o) => (edit ? operationRow(p, t, o, box, st) : operationText(p, t, o)));
  const cols = ["Name", "Kind", "Enabled", "Parameters", "Faults", ...(edit ? [""] : [])];
  const table = h("table", { class: edit ? "data ops stack" : "data ops stack readonly" }, h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows));
  const list = !ops.length ? h("p", { class: "muted" }, edit ? "No operations yet: add one below, or use “Generate default operations” above." : "No operations yet.")
    : edit ? h("div", { class: "scroll" }, table) : scroller(`Operations of ${t.name}`, table);
  const subs = ops.some((o) => o.kind === "LIST" && o.enabled && o.options && o.options.subscriptions);
  const el = card(`${t.name}: operations`, list, subs ? subscriptionFields(t) : null, subs && edit ? sendEvent(p, t, st) : null, edit ? [newOperation(t, st), st] : null);
  el.dataset.operations = t.name;
  return el;
}

/** operationText is an operation's row as text: its parameters, query
 * power and faults as they are. */
function operationText(p, t, o) {
  const on = OPTIONS.filter(([key]) => o.options && o.options[key]).map(([, label]) => label(o, t));
  const list = o.kind === "LIST" ? h("div", {},
    o.parameters.length ? h("ul", {}, o.parameters.map((pa) => h("li", { dataset: { parameter: pa.name } }, h("code", {}, `${pa.name}: ${pa.attribute} ${pa.operator}`)))) : null,
    h("div", { class: "muted" }, "Query power: ", on.length ? on.join(", ") : "none")) : h("span", { class: "muted" }, "—");
  const td = (label, v) => h("td", { "data-label": label }, v);
  return h("tr", { dataset: { operation: o.name } }, h("th", { scope: "row", class: "mono" }, o.name), td("Kind", o.kind.toLowerCase()),
    td("Enabled", o.enabled ? "yes" : "no"), td("Parameters", list), h("td", {}, operationFaults(p, o, false)));
}

function operationRow(p, t, o, box, st) {
  const name = h("input", { type: "text", value: o.name, "aria-label": `Name of operation ${o.name}` });
  const rename = action(h("button", { type: "button", class: "secondary", "aria-label": `Rename ${o.name}` }, "Rename"), st, () =>
    guarded(p, box, { kind: "RENAME_OPERATION", id: o.id, name: name.value.trim() },
      () => gql(`mutation($i: UpdateOperationInput!) { updateOperation(input: $i) { id } }`, { i: { operationId: o.id, name: name.value.trim() } }), st, null, `Renamed ${o.name} to ${name.value.trim()}.`));
  const enabled = h("input", { type: "checkbox", checked: o.enabled, "aria-label": `${o.name} enabled` });
  enabled.addEventListener("change", async () => {
    const set = () => gql(`mutation($i: UpdateOperationInput!) { updateOperation(input: $i) { id } }`, { i: { operationId: o.id, enabled: enabled.checked } });
    try {
      if (enabled.checked) { await set(); await edited(`Enabled ${o.name}.`); } else await guarded(p, box, { kind: "DISABLE_OPERATION", id: o.id }, set, st, () => { enabled.checked = true; }, `Disabled ${o.name}.`);
    } catch (e) { st.fail(e); }
  });
  const del = action(h("button", { type: "button", class: "danger", "aria-label": `Delete ${o.name}` }, "Delete"), st, () =>
    guarded(p, box, { kind: "DELETE_OPERATION", id: o.id }, () => gql(`mutation($id: ID!) { deleteOperation(operationId: $id) }`, { id: o.id }), st, null, `Deleted ${o.name}.`,
      { question: `Delete the operation ${o.name}?`, detail: `Its parameters${o.parameters.length ? ` (${o.parameters.map((x) => x.name).join(", ")})` : ""} and injected faults are lost. Disabling it instead keeps them.`, yes: `Delete ${o.name}` }));
  return h("tr", { dataset: { operation: o.name } }, h("td", { class: "cell-name" }, h("div", { class: "inline" }, name, rename)), h("td", { "data-label": "Kind" }, o.kind.toLowerCase()),
    h("td", { class: "cell-flag" }, h("label", { class: "check" }, enabled, h("span", { class: "flag-label", "aria-hidden": "true" }, "Enabled"))),
    h("td", { "data-label": "Parameters" }, o.kind === "LIST" ? h("div", {}, parameters(t, o, st), powerOptions(t, o, st)) : h("span", { class: "muted" }, "—")),
    h("td", { "data-label": "Faults" }, operationFaults(p, o, true)), h("td", { class: "cell-actions" }, del));
}

function parameters(t, o, st) {
  const save = (params) => gql(`mutation($i: UpdateOperationInput!) { updateOperation(input: $i) { id } }`, { i: { operationId: o.id, parameters: params } });
  const items = o.parameters.map((pa, i) => {
    const rm = action(h("button", { type: "button", class: "danger", "aria-label": `Remove parameter ${pa.name}` }, "Remove"), st, async () => {
      await save(o.parameters.filter((_, j) => j !== i)); await edited(`Removed the parameter ${pa.name} of ${o.name}.`);
    });
    return h("li", { dataset: { parameter: pa.name } }, h("code", {}, `${pa.name}: ${pa.attribute} ${pa.operator}`), " ", rm);
  });
  const name = h("input", { type: "text", required: true });
  const attr = select(t.attributes.map((a) => a.name), t.attributes[0] && t.attributes[0].name);
  const op = select(OPERATORS, "eq");
  const add = action(h("button", { type: "submit" }, "Add parameter"), st, async () => {
    if (!name.value.trim()) throw new Error("A parameter needs a name, e.g. minPrice.");
    await save([...o.parameters, { name: name.value.trim(), attribute: attr.value, operator: op.value }]); await edited(`Added the parameter ${name.value.trim()} to ${o.name}.`);
  });
  return h("div", {}, items.length ? h("ul", {}, items) : null,
    h("details", { class: "add-parameter", dataset: { operation: o.name } }, h("summary", {}, "Add a parameter"),
      h("form", { class: "row" }, field("Parameter name", name), field("Attribute", attr), field("Operator", op), add)));
}

// powerOptions are the opt-in checkboxes of a LIST operation: each adds to
// the schema (SAFE); turning one off removes what apps may use.
function powerOptions(t, o, st) {
  const opts = { relay: false, where: false, orderBy: false, subscriptions: false, ...(o.options || {}) };
  const boxes = OPTIONS.map(([key, label]) => {
    const box = h("input", { type: "checkbox", checked: opts[key], dataset: { option: key } });
    box.addEventListener("change", async () => {
      const next = { ...opts, [key]: box.checked };
      try {
        await gql(`mutation($i: UpdateOperationInput!) { updateOperation(input: $i) { id } }`, { i: { operationId: o.id, options: next } });
        opts[key] = box.checked;
        const msg = box.checked ? `${o.name}: ${label(o, t)} added (a SAFE change).` : `${o.name}: ${label(o, t)} removed; apps that used it break.`;
        // The subscription fields and "Send event" are part of the card: re-render it.
        if (key === "subscriptions") await edited(msg); else st.ok(msg);
      } catch (e) { box.checked = !box.checked; st.fail(e); }
    });
    return h("label", { class: "inline" }, box, " ", label(o, t));
  });
  return h("fieldset", { class: "power-options", dataset: { operation: o.name } }, h("legend", {}, "Query power"), ...boxes);
}

function newOperation(t, st) {
  const kind = select(KINDS.map((k) => [k, k.toLowerCase()]), "LIST");
  const name = h("input", { type: "text", required: true });
  const add = action(h("button", { type: "submit" }, "Create operation"), st, async () => {
    await gql(`mutation($i: CreateOperationInput!) { createOperation(input: $i) { id } }`, { i: { tableId: t.id, name: name.value.trim(), kind: kind.value } });
    await edited(`Created the operation ${name.value.trim()}.`);
  });
  return h("details", { dataset: { newOperation: t.name } }, h("summary", {}, `New operation on ${t.name}`), h("form", { class: "row" }, field("Kind", kind), field("Operation name", name), add));
}

/** changesCard lists the changes since the baseline; with edit, it sets one. */
function changesCard(p, edit) {
  const st = status();
  const tbody = h("tbody", { id: "changes" });
  const base = edit && action(h("button", { type: "button", class: "secondary", id: "setBaseline" }, "Set baseline to the current schema"), st, async () => {
    await gql(`mutation($p: ID!) { setSchemaBaseline(projectId: $p) }`, { p: p.id });
    st.ok("Baseline saved: changes are counted from now.");
    await load();
  });
  const load = async () => {
    try {
      const d = await gql(`query($id: ID!) { schemaChanges(projectId: $id) { type criticality path message } }`, { id: p.id });
      fill(tbody, d.schemaChanges.length ? d.schemaChanges.map((c) => h("tr", { dataset: { criticality: c.criticality } },
        h("td", { class: c.criticality === "BREAKING" ? "notready" : "" }, c.criticality), h("td", { class: "mono" }, c.path), h("td", {}, c.message)))
        : h("tr", {}, h("td", { colspan: 3, class: "muted" }, "No changes since the baseline.")));
    } catch (e) {
      const msg = e.code !== "NOT_FOUND" ? e.message : edit ? "No baseline yet: set one to see what later edits change for the apps that use the API." : "No baseline yet.";
      fill(tbody, h("tr", {}, h("td", { colspan: 3, class: "muted" }, msg)));
    }
  };
  load();
  return card("Changes since the baseline", h("div", { class: "scroll" }, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, ["Criticality", "Where", "What"].map((c) => h("th", { scope: "col" }, c)))), tbody)), base, st);
}


/** subscriptionFields names the table's Subscription fields
 * (docs/using/realtime.md) once a list operation turned them on. */
function subscriptionFields(t) {
  const n = subName(t);
  return h("p", { class: "muted", dataset: { subscriptions: t.name } }, "Subscriptions: ",
    h("code", {}, `${n}Created`), ", ", h("code", {}, `${n}Updated(id)`), ", ", h("code", {}, `${n}Deleted`),
    " — fired by the runtime's mutations; run them in the playground.");
}

/** sendEvent publishes an event of an existing row to the table's
 * subscribers without changing data (sendEvent). */
function sendEvent(p, t, st) {
  const kind = h("select", {}, ["UPDATED", "CREATED", "DELETED"].map((k) => h("option", { value: k }, k.toLowerCase())));
  const id = h("input", { type: "text", spellcheck: false, placeholder: "1" });
  const send = h("button", { type: "button", class: "secondary", dataset: { sendEvent: t.name } }, "Send event");
  action(send, st, async () => {
    await gql(`mutation($p: ID!, $t: ID!, $k: EventKind!, $id: ID!) { sendEvent(projectId: $p, tableId: $t, kind: $k, id: $id) }`,
      { p: p.id, t: t.id, k: kind.value, id: id.value.trim() });
    st.ok(`Sent ${subName(t)}${kind.value.charAt(0) + kind.value.slice(1).toLowerCase()} for row ${id.value.trim()} to its subscribers.`);
  });
  return h("form", { class: "row", onsubmit: (e) => e.preventDefault() }, field(`Event for ${t.name}`, kind), field("Row id", id), send);
}
