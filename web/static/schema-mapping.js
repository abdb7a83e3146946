// schema-mapping.js: an editor changes how one root field of a contract
// project is served (setContractMapping): its shape, the table whose rows
// it serves, and what each argument does (role, the field it compares,
// its operator) — or goes back to the import's reading. The server checks
// the mapping against the schema and names what does not fit.
import { h, gql, field, select, action } from "./dom.js";
import { edited } from "./live.js";

const SHAPES = ["lookup", "lookupMany", "node", "list", "connection", "page", "aggregate", "first", "create", "update", "upsert", "delete", "generated"];
const ROLES = ["key", "keys", "eq", "range", "in", "search", "relay", "offset", "page", "sort", "filter", "input", "ignored"];
// The operators each role takes (docs/using/contract.md).
const OPS = { range: ["gt", "gte", "lt", "lte"], offset: ["limit", "offset"], page: ["page", "size"], relay: ["first", "after", "last", "before"], filter: ["hasura", "prisma", "plain"] };
const ROOTS = { QUERY: "Query", MUTATION: "Mutation", SUBSCRIPTION: "Subscription" };

/** mappingEditor is the "Change how ‹field› is served" box of report
 * line f of contract project p; st shows refusals. */
export function mappingEditor(p, f, st) {
  const box = h("details", { class: "contract-mapping", dataset: { mapping: f.name } }, h("summary", {}, `Change how ${f.name} is served`));
  box.addEventListener("toggle", () => {
    if (box.open && !box.querySelector("form")) box.append(mappingForm(p, f, st));
  });
  return box;
}

/** fieldsOf is the schema fields of type name's table (its hidden link
 * keys left out). */
function fieldsOf(p, name) {
  const t = p.tables.find((x) => x.name === name);
  return t ? t.attributes.map((a) => a.name).filter((n) => !n.startsWith("__")) : [];
}

function mappingForm(p, f, st) {
  const label = `${f.name}`;
  const shape = select(SHAPES, f.shape, { id: `map-${f.root}-${label}-shape` });
  const types = [...new Set([...(f.entity ? [f.entity] : []), ...p.contract.tables.map((t) => t.type)])];
  const entity = select([["", "none"], ...types], f.entity || "", { id: `map-${f.root}-${label}-entity` });
  const args = f.args.map((a) => argRow(p, f, a, entity));
  // A subscription that streams generated payloads: the seconds between them.
  const every = f.root === "SUBSCRIPTION" && f.shape === "generated"
    ? h("input", { type: "number", min: 1, max: 3600, step: 1, required: true, value: String(f.everySeconds || 2), id: `map-${f.root}-${label}-every` }) : null;
  const save = action(h("button", { type: "button", class: "secondary" }, `Save how ${f.name} is served`), st, async () => {
    const everySeconds = every && shape.value === "generated" ? Number(every.value) : null;
    await setMapping(p, f, { shape: shape.value, entity: entity.value || null, args: args.map((r) => r.value()), everySeconds });
    await edited(`${f.name} is served as you set it now.`);
  });
  const reset = f.mapped && action(h("button", { type: "button", class: "secondary" }, "Back to the import's reading"), st, async () => {
    await setMapping(p, f, { shape: null, entity: null, args: null, everySeconds: null });
    await edited(`${f.name} is served as the import read it again.`);
  });
  return h("form", { class: "mapping-form" }, h("div", { class: "row" }, field(`Shape of ${label}`, shape), field(`Table of ${label}`, entity),
    every ? field(`Seconds between ${label} payloads`, every) : null),
    args.length ? h("fieldset", { class: "mapping-args" }, h("legend", {}, "Arguments"), args.map((r) => r.el)) : null,
    h("div", { class: "row tight" }, save, reset));
}

/** argRow is one argument's role, field and operator, with value(). */
function argRow(p, f, a, entity) {
  const id = (what) => `map-${f.root}-${f.name}-${a.name}-${what}`;
  const role = select(ROLES, a.role, { id: id("role") });
  const fieldSel = () => select([["", "none"], ...new Set([...(a.field ? [a.field] : []), ...fieldsOf(p, entity.value)])], a.field || "", { id: id("field") });
  const opSel = () => select([["", "none"], ...(OPS[role.value] || [])], (OPS[role.value] || []).includes(a.op) ? a.op : "", { id: id("op") });
  let fld = fieldSel(), op = opSel();
  const fldBox = h("div", { class: "field-box" }, field(`${a.name}: field`, fld)), opBox = h("div", { class: "field-box" }, field(`${a.name}: operator`, op));
  role.addEventListener("change", () => { op = opSel(); opBox.replaceChildren(field(`${a.name}: operator`, op)); });
  entity.addEventListener("change", () => { fld = fieldSel(); fldBox.replaceChildren(field(`${a.name}: field`, fld)); });
  const el = h("div", { class: "row mapping-arg", dataset: { arg: a.name } }, field(`${a.name}: role`, role), fldBox, opBox);
  return { el, value: () => ({ name: a.name, role: role.value, field: fld.value || null, op: op.value || null }) };
}

function setMapping(p, f, m) {
  return gql(`mutation($p: ID!, $f: String!, $s: String, $e: String, $a: [ContractArgInput!], $every: Int) { setContractMapping(projectId: $p, field: $f, shape: $s, entity: $e, args: $a, everySeconds: $every) { id } }`,
    { p: p.id, f: `${ROOTS[f.root]}.${f.name}`, s: m.shape, e: m.entity, a: m.args, every: m.everySeconds });
}
