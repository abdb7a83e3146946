// relations.js: the Relations card: each relation in words with the fields
// it adds, delete (guarded), the suggested links and the form to add one
// (relation-form.js); a list without edit controls for a user who may only
// read.
import { h, gql, status, action, card, scroller } from "./dom.js";
import { guarded } from "./guard.js";
import { suggestions, plural } from "./suggest.js";
import { relationForm } from "./relation-form.js";

/** inWords says relation r as a person would: "Each Category has many
 * Products; each Product has one Category". */
export function inWords(r, name) {
  const S = name(r.sourceTableId), T = name(r.targetTableId);
  if (r.cardinality === "ONE_TO_MANY") return `Each ${S} has many ${plural(T)}${r.inverseFieldName && r.direction === "BIDIRECTIONAL" ? `; each ${T} has one ${S}` : ""}`;
  return `Each ${S} has one ${T}${r.inverseFieldName && r.direction === "BIDIRECTIONAL" ? `; each ${T} has one ${S}` : ""}`;
}

/** fieldsOf are the fields r adds, typed as the runtime schema types them. */
const fieldsOf = (r, name) => [`${name(r.sourceTableId)}.${r.fieldName}: ${r.cardinality === "ONE_TO_MANY" ? `[${name(r.targetTableId)}!]!` : name(r.targetTableId)}`,
  ...(r.inverseFieldName && r.direction === "BIDIRECTIONAL" ? [`${name(r.targetTableId)}.${r.inverseFieldName}: ${name(r.sourceTableId)}`] : [])];

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
      h("td", { "data-label": "Relation" }, inWords(r, name), h("span", { class: "muted" }, r.cardinality === "ONE_TO_MANY" ? " (one-to-many)" : " (one-to-one)")),
      h("td", { "data-label": "Target" }, name(r.targetTableId)), h("td", { class: "mono", "data-label": "Linking columns" }, `${name(r.sourceTableId)}.${r.sourceAttribute} = ${name(r.targetTableId)}.${r.targetAttribute}`),
      h("td", { class: "mono", "data-label": "Fields" }, fieldsOf(r, name).join(", ")), edit ? h("td", {}, del) : null);
  });
  const table = h("table", { class: "data stack", id: "relations" },
    h("thead", {}, h("tr", {}, ["Source", "Relation", "Target", "Linking columns", "Fields", ...(edit ? [""] : [])].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows));
  const list = !rows.length ? h("p", { class: "muted" }, "No relations yet.") : edit ? h("div", { class: "scroll" }, table) : scroller("Relations", table);
  if (!edit) return card("Relations", list);
  return card("Relations", list, box, suggestions(p), p.tables.length > 1 ? relationForm(p, st) : h("p", { class: "muted" }, "Add two tables to relate them."), st);
}
