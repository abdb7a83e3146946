// relation-form.js: a relation added in the person's words. "Each Book has
// one Author (Book.authorId → Author.id)", "Each Author has many Books" or
// a one-to-one; the fields it adds are shown before saving, computed by
// the runtime's rules (a ONE_TO_MANY relation's field is a list on its
// source, every inverse field is to-one: docs/using/board.md), and a
// one-to-one whose linking column repeats in the data is warned about with
// the counts (Query.valueCounts).
import { h, gql, field, select, check, action, uid, count } from "./dom.js";
import { edited } from "./live.js";
import { plural, lowerFirst } from "./suggest.js";

/** SHAPES are the three ways two tables A and B relate, in words. */
const SHAPES = {
  manyToOne: (a, b) => `Each ${a} has one ${b}, and each ${b} has many ${plural(a)}: the foreign key is on ${a} (many-to-one)`,
  oneToMany: (a, b) => `Each ${a} has many ${plural(b)}, and each ${b} has one ${a}: the foreign key is on ${b} (one-to-many)`,
  oneToOne: (a, b) => `Each ${a} has one ${b}, and each ${b} has one ${a} (one-to-one)`,
};

/** relationInput is the CreateRelationInput of a choice {shape, a, b,
 * fk, key, fieldA, fieldB, both} (a, b: tables; fk, key: column names;
 * fieldA on A, fieldB on B), and the fields it adds as text. */
export function relationInput(c) {
  const A = c.a.name, B = c.b.name;
  const fields = [];
  let i;
  if (c.shape === "manyToOne") {
    // B has many A: a ONE_TO_MANY from B whose inverse is A's to-one field.
    i = c.both ? { sourceTableId: c.b.id, targetTableId: c.a.id, cardinality: "ONE_TO_MANY", direction: "BIDIRECTIONAL", sourceAttribute: c.key, targetAttribute: c.fk, fieldName: c.fieldB, inverseFieldName: c.fieldA }
      : { sourceTableId: c.a.id, targetTableId: c.b.id, cardinality: "ONE_TO_ONE", direction: "SOURCE_TO_TARGET", sourceAttribute: c.fk, targetAttribute: c.key, fieldName: c.fieldA, inverseFieldName: null };
    fields.push(`${A}.${c.fieldA}: ${B}`);
    if (c.both) fields.push(`${B}.${c.fieldB}: [${A}!]!`);
  } else if (c.shape === "oneToMany") {
    i = { sourceTableId: c.a.id, targetTableId: c.b.id, cardinality: "ONE_TO_MANY", direction: c.both ? "BIDIRECTIONAL" : "SOURCE_TO_TARGET", sourceAttribute: c.key, targetAttribute: c.fk, fieldName: c.fieldA, inverseFieldName: c.both ? c.fieldB : null };
    fields.push(`${A}.${c.fieldA}: [${B}!]!`);
    if (c.both) fields.push(`${B}.${c.fieldB}: ${A}`);
  } else {
    i = { sourceTableId: c.a.id, targetTableId: c.b.id, cardinality: "ONE_TO_ONE", direction: c.both ? "BIDIRECTIONAL" : "SOURCE_TO_TARGET", sourceAttribute: c.fk, targetAttribute: c.key, fieldName: c.fieldA, inverseFieldName: c.both ? c.fieldB : null };
    fields.push(`${A}.${c.fieldA}: ${B}`);
    if (c.both) fields.push(`${B}.${c.fieldB}: ${A}`);
  }
  return { input: i, fields };
}

/** columns are the names a table's linking column may take: id and its attributes. */
const columns = (t) => ["id", ...t.attributes.filter((a) => a.name !== "id" && a.mappingType !== "COMPUTED").map((a) => a.name)];

/** guessFk is the column of t that looks like a link to table other (authorId, author_id). */
function guessFk(t, other) {
  const want = other.name.toLowerCase();
  const a = t.attributes.find((x) => { const m = /^(.+?)(?:Id|ID|_id)$/.exec(x.name); return m && m[1].toLowerCase() === want; });
  return a ? a.name : columns(t)[Math.min(1, columns(t).length - 1)];
}

/** relationForm is the "Add a relation" form of project p, reporting to st. */
export function relationForm(p, st) {
  const tables = p.tables.map((t) => [t.id, t.name]);
  const tableOf = (sel) => p.tables.find((t) => t.id === sel.value);
  const selA = select(tables, tables[0][0], { id: "relA" });
  const selB = select(tables, tables[1][0], { id: "relB" });
  const shapeName = uid("shape");
  const radios = {};
  const shapeBox = h("fieldset", { class: "shapes", id: "relShape" }, h("legend", {}, "How are they related?"),
    Object.keys(SHAPES).map((k) => {
      radios[k] = h("input", { type: "radio", name: shapeName, value: k, checked: k === "manyToOne", id: `relShape-${k}` });
      return h("label", { class: "shape", for: radios[k].id }, radios[k], h("span", { class: "shape-text" }));
    }));
  const fkBox = h("div", { class: "field-box" }), keyBox = h("div", { class: "field-box" });
  const fieldA = h("input", { type: "text", id: "relFieldA" }), fieldB = h("input", { type: "text", id: "relFieldB" });
  const named = { a: false, b: false }; // a name the person typed stays
  fieldA.addEventListener("input", () => { named.a = fieldA.value.trim() !== ""; show(); });
  fieldB.addEventListener("input", () => { named.b = fieldB.value.trim() !== ""; show(); });
  let both = true;
  const bothBox = check("", true, (e) => { both = e.target.checked; show(); }, { id: "relBoth" });
  const preview = h("p", { class: "rel-preview", id: "relPreview", "aria-live": "polite" });
  const warn = h("div", { id: "relWarning", "aria-live": "polite" });
  const counted = new Map(); // tableId/attribute → its valueCounts, asked once per form
  let fk, key; // the column selects, remade when a table or the shape changes
  const shape = () => Object.keys(radios).find((k) => radios[k].checked);
  const choice = () => ({ shape: shape(), a: tableOf(selA), b: tableOf(selB), fk: fk.value, key: key.value,
    fieldA: fieldA.value.trim(), fieldB: fieldB.value.trim(), both });
  // The foreign key is on A for many-to-one and one-to-one (A.fk → B.key), on B for one-to-many (B.fk → A.key).
  const columnsFor = () => {
    const a = tableOf(selA), b = tableOf(selB), s = shape();
    const [fkT, keyT] = s === "oneToMany" ? [b, a] : [a, b];
    fk = select(columns(fkT), guessFk(fkT, keyT), { id: "relFk" });
    key = select(columns(keyT), "id", { id: "relKey" });
    const fkLabel = s === "oneToOne" ? `Linking column of ${fkT.name}` : `Foreign key on ${fkT.name}`;
    const keyLabel = s === "oneToOne" ? `Matching column of ${keyT.name}` : `Key on ${keyT.name} it holds`;
    fkBox.replaceChildren(field(fkLabel, fk));
    keyBox.replaceChildren(field(keyLabel, key));
    for (const e of [fk, key]) e.addEventListener("change", show);
  };
  const boxA = field("Field on the first table", fieldA, "Its name in the schema."), boxB = field("Field on the second table", fieldB, "Its name in the schema.");
  const show = () => {
    const a = tableOf(selA), b = tableOf(selB), s = shape();
    boxA.firstChild.textContent = `Field on ${a.name}`;
    boxB.firstChild.textContent = `Field on ${b.name}`;
    for (const k of Object.keys(SHAPES)) radios[k].nextElementSibling.textContent = SHAPES[k](a.name, b.name);
    if (!named.a) fieldA.value = s === "oneToMany" ? lowerFirst(plural(b.name)) : lowerFirst(b.name);
    if (!named.b) fieldB.value = s === "manyToOne" ? lowerFirst(plural(a.name)) : lowerFirst(a.name);
    bothBox.lastChild.textContent = ` Also add ${b.name}.${fieldB.value.trim() || "…"}`;
    fieldB.disabled = !both; // no field on B: nothing to name
    const c = choice();
    const [fkT, keyT] = s === "oneToMany" ? [b, a] : [a, b];
    const r = relationInput(c);
    preview.replaceChildren(h("span", {}, "Links ", h("code", {}, `${fkT.name}.${c.fk} → ${keyT.name}.${c.key}`), ". Adds "),
      ...r.fields.flatMap((f, i) => [i ? " and " : "", h("code", { class: "rel-field" }, f)]), ".");
    checkUnique(c, warn, counted);
  };
  selA.addEventListener("change", () => { columnsFor(); show(); });
  selB.addEventListener("change", () => { columnsFor(); show(); });
  for (const r of Object.values(radios)) r.addEventListener("change", () => { named.a = named.b = false; columnsFor(); show(); });
  columnsFor();
  show();
  const add = action(h("button", { type: "submit", id: "addRelation" }, "Add relation"), st, async () => {
    const c = choice();
    const r = relationInput(c);
    await gql(`mutation($i: CreateRelationInput!) { createRelation(input: $i) { id } }`, { i: r.input });
    await edited(`Added the relation: ${r.fields.join(" and ")}.`);
  });
  return h("details", { id: "addRelationBox" }, h("summary", {}, "Add a relation"), h("form", { class: "relation-form" },
    h("div", { class: "row" }, field("Each", selA), field("Related table", selB)), shapeBox,
    h("div", { class: "row" }, fkBox, keyBox),
    h("div", { class: "row" }, boxA, boxB),
    h("div", {}, bothBox), preview, warn, add));
}

let checking = 0;
/** checkUnique warns when a one-to-one's linking columns repeat in the
 * data; counted caches the answers (the form is remade after every edit). */
async function checkUnique(c, warn, counted) {
  const mine = ++checking;
  warn.replaceChildren();
  if (c.shape !== "oneToOne" || !c.a.source || !c.b.source) return;
  const countsOf = (t, attribute) => {
    const key = `${t.id}/${attribute}`;
    if (!counted.has(key)) counted.set(key, gql(`query($t: ID!, $a: String!) { valueCounts(tableId: $t, attribute: $a) { rows scanned nulls distinct duplicates } }`, { t: t.id, a: attribute })
      .then((d) => d.valueCounts, () => null));
    return counted.get(key).then((v) => v && { t, attribute, v });
  };
  const res = await Promise.all([countsOf(c.a, c.fk), countsOf(c.b, c.key)]);
  if (mine !== checking) return; // the form changed meanwhile
  const bad = res.filter((r) => r && r.v.duplicates > 0);
  if (!bad.length) return;
  warn.replaceChildren(h("div", { class: "warning", role: "alert" }, h("strong", {}, "Not one-to-one in the data. "),
    bad.map((r) => h("p", {}, `${r.t.name}.${r.attribute} repeats: ${r.v.duplicates} of ${count(r.v.scanned, "row")} ${r.v.duplicates === 1 ? "shares" : "share"} a value with an earlier row (${count(r.v.distinct, "distinct value")}${r.v.scanned < r.v.rows ? `, in the first ${count(r.v.scanned, "row")} of ${r.v.rows.toLocaleString()}` : ""}). `,
      `Each ${r.t === c.a ? c.b.name : c.a.name} would show only the first ${r.t.name} it matches.`)),
    h("p", {}, "If each ", c.a.name, " has one ", c.b.name, ` but ${/^[AEIOU]/i.test(c.b.name) ? "an" : "a"} `, c.b.name, " may have many, choose “Each ", c.a.name, " has one ", c.b.name, ", and each ", c.b.name, " has many ", plural(c.a.name), "”.")));
}
