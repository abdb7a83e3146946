// relations.js: the relations editor (source, target, cardinality,
// direction, linking columns, field names); a list without edit controls
// for a user who may only read.
import { h, gql, field, select, status, action, card, scroller } from "./dom.js";
import { guarded } from "./guard.js";
import { edited } from "./live.js";
import { suggestions } from "./suggest.js";

/** relationsCard lists p's relations; with edit, it deletes and adds them. */
export function relationsCard(p, edit) {
  const name = (id) => (p.tables.find((t) => t.id === id) || { name: "?" }).name;
  const st = status();
  const box = h("div", { class: "confirm", id: "relationConfirm" });
  const rows = p.relations.map((r) => {
    const label = `${name(r.sourceTableId)}.${r.fieldName}${r.inverseFieldName ? ` / ${name(r.targetTableId)}.${r.inverseFieldName}` : ""}`;
    const del = edit && action(h("button", { type: "button", class: "danger", "aria-label": `Delete relation ${name(r.sourceTableId)}.${r.fieldName}` }, "Delete"), st, () =>
      guarded(p, box, { kind: "DELETE_RELATION", id: r.id }, () => gql(`mutation($id: ID!) { deleteRelation(relationId: $id) }`, { id: r.id }), st, null,
        `Deleted the relation ${name(r.sourceTableId)}.${r.fieldName}.`,
        { question: `Delete the relation ${label}?`, detail: "Both its fields go from the schema; the tables and their data stay.", yes: "Delete the relation" }));
    return h("tr", { dataset: { relation: r.fieldName } }, h("td", { "data-label": "Source" }, name(r.sourceTableId)),
      h("td", { "data-label": "Cardinality" }, r.cardinality === "ONE_TO_MANY" ? "one to many" : "one to one"),
      h("td", { "data-label": "Target" }, name(r.targetTableId)), h("td", { class: "mono", "data-label": "Linking columns" }, `${r.sourceAttribute} = ${r.targetAttribute}`),
      h("td", { class: "mono", "data-label": "Fields" }, r.fieldName, r.inverseFieldName ? ` / ${r.inverseFieldName}` : ""), edit ? h("td", {}, del) : null);
  });
  const table = h("table", { class: "data stack", id: "relations" },
    h("thead", {}, h("tr", {}, ["Source", "Cardinality", "Target", "Linking columns", "Fields", ...(edit ? [""] : [])].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows));
  const list = !rows.length ? h("p", { class: "muted" }, "No relations yet.") : edit ? h("div", { class: "scroll" }, table) : scroller("Relations", table);
  if (!edit) return card("Relations", list);
  return card("Relations", list, box, suggestions(p), p.tables.length > 1 ? relationForm(p, st) : h("p", { class: "muted" }, "Add two tables to relate them."), st);
}

function relationForm(p, st) {
  const tables = p.tables.map((t) => [t.id, t.name]);
  const src = select(tables, tables[0][0], { id: "relSource" });
  const dst = select(tables, tables[1][0], { id: "relTarget" });
  const card_ = select([["ONE_TO_MANY", "one to many (the target holds the foreign key)"], ["ONE_TO_ONE", "one to one"]], "ONE_TO_MANY", { id: "relCardinality" });
  const dir = select([["BIDIRECTIONAL", "both ways (inverse field on the target)"], ["SOURCE_TO_TARGET", "source to target only"]], "BIDIRECTIONAL", { id: "relDirection" });
  const sAttr = h("input", { type: "text", id: "relSourceAttr", value: "id" });
  const tAttr = h("input", { type: "text", id: "relTargetAttr", placeholder: "categoryId" });
  const fName = h("input", { type: "text", id: "relField", placeholder: "products" });
  const iName = h("input", { type: "text", id: "relInverse", placeholder: "category" });
  const lists = {};
  const attrList = (sel) => {
    const t = p.tables.find((x) => x.id === sel.value);
    const id = "attrs-" + sel.id;
    const dl = lists[id] || (lists[id] = h("datalist", { id }));
    dl.replaceChildren(...(t ? t.attributes : []).map((a) => h("option", { value: a.name })));
    return id;
  };
  sAttr.setAttribute("list", attrList(src));
  tAttr.setAttribute("list", attrList(dst));
  src.addEventListener("change", () => attrList(src));
  dst.addEventListener("change", () => attrList(dst));
  const add = action(h("button", { type: "submit", id: "addRelation" }, "Add relation"), st, async () => {
    await gql(`mutation($i: CreateRelationInput!) { createRelation(input: $i) { id } }`, { i: {
      sourceTableId: src.value, targetTableId: dst.value, cardinality: card_.value, direction: dir.value,
      sourceAttribute: sAttr.value.trim(), targetAttribute: tAttr.value.trim(), fieldName: fName.value.trim(),
      inverseFieldName: iName.value.trim() || null } });
    await edited(`Added the relation ${fName.value.trim()}.`);
  });
  return h("details", {}, h("summary", {}, "Add a relation"), h("form", {},
    h("div", { class: "row" }, field("Source table", src), field("Cardinality", card_), field("Target table", dst), field("Direction", dir)),
    h("div", { class: "row" }, field("Source column", sAttr, "Usually id."), field("Target column", tAttr, "The foreign key, e.g. categoryId."),
      field("Field on the source", fName, "e.g. products"), field("Inverse field on the target", iName, "e.g. category")),
    Object.values(lists), add));
}
