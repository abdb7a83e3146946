// suggest.js: relations offered in one click. A column that looks like a
// foreign key (authorId, author_id) next to a table of that name (Author)
// is checked against the data: when its values are among the other
// table's ids, "Link" makes the relation both ways — each Book has one
// Author (Book.author), each Author has many Books (Author.books).
import { h, gql, status, action } from "./dom.js";
import { fkCandidates } from "./fields.js";
import { edited } from "./live.js";

const listOf = (p, t) => p.operations.find((o) => o.tableId === t.id && o.kind === "LIST" && o.enabled);
/** lowerFirst is s with its first letter in lower case: Author → author. */
export const lowerFirst = (s) => s[0].toLowerCase() + s.slice(1);
/** plural is the regular English plural of a name: Book → Books, Category → Categories. */
export const plural = (s) => (/[^aeiou]y$/i.test(s) ? s.slice(0, -1) + "ies" : /(s|x|z|ch|sh)$/i.test(s) ? s + "es" : s + "s");

/** matches counts how many sampled values of c's column are ids of its
 * table, through the project's list operations (null: not checkable). */
async function matches(p, c) {
  const from = listOf(p, c.from), to = listOf(p, c.to);
  if (!from || !to) return null;
  const q = `{ f: ${from.name}(pageSize: 50) { items { v: ${c.attr.name} } } t: ${to.name}(pageSize: 500) { items { id } } }`;
  const d = await gql(`mutation($p: ID!, $q: String!) { previewQuery(projectId: $p, query: $q) }`, { p: p.id, q });
  const r = d.previewQuery;
  if (!r.data || !r.data.f || !r.data.t) return null;
  const ids = new Set(r.data.t.items.map((i) => String(i.id)));
  const vals = r.data.f.items.map((i) => i.v).filter((v) => v !== null && v !== undefined);
  return { hit: vals.filter((v) => ids.has(String(v))).length, of: vals.length };
}

/** suggestions lists the linking candidates of p with a button each; it
 * fills itself once the values are checked. null when there are none. */
export function suggestions(p) {
  const cands = fkCandidates(p);
  if (!cands.length) return null;
  const list = h("ul", { class: "suggestions" });
  const st = status();
  const box = h("div", { class: "suggest", id: "relSuggestions" }, h("h3", {}, "Suggested relations"), list, st);
  for (const c of cands) {
    const li = h("li", { dataset: { suggest: `${c.from.name}.${c.attr.name}` } }, `Checking ${c.from.name}.${c.attr.name} against ${c.to.name}.id…`);
    list.append(li);
    matches(p, c).then((m) => fillSuggestion(p, c, li, m, st), () => li.remove());
  }
  return box;
}

function fillSuggestion(p, c, li, m, st) {
  if (m && m.hit === 0) { li.remove(); return; }
  const many = lowerFirst(plural(c.from.name));
  const evidence = m ? `${m.hit} of ${m.of} sampled values are ${c.to.name} ids` : "values not checked: the tables have no list operation";
  const link = action(h("button", { type: "button", class: "secondary", "aria-label": `Link ${c.from.name}.${c.attr.name} to ${c.to.name}.id` }, "Link"), st, async () => {
    await gql(`mutation($i: CreateRelationInput!) { createRelation(input: $i) { id } }`, { i: {
      sourceTableId: c.to.id, targetTableId: c.from.id, cardinality: "ONE_TO_MANY", direction: "BIDIRECTIONAL",
      sourceAttribute: "id", targetAttribute: c.attr.name, fieldName: many, inverseFieldName: c.field } });
    await edited(`Linked: each ${c.from.name} has one ${c.to.name} (${c.from.name}.${c.field}), each ${c.to.name} has many ${plural(c.from.name)} (${c.to.name}.${many}).`);
  });
  li.replaceChildren(h("span", {}, "Each ", h("strong", {}, c.from.name), " has one ", h("strong", {}, c.to.name), " (",
    h("code", {}, `${c.from.name}.${c.attr.name} → ${c.to.name}.id`), "), each ", c.to.name, " has many ", plural(c.from.name),
    ": fields ", h("code", {}, `${c.from.name}.${c.field}: ${c.to.name}`), " and ", h("code", {}, `${c.to.name}.${many}: [${c.from.name}!]!`), ". "),
  h("span", { class: "muted" }, evidence, ". "), link);
}
