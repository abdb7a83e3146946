// fields.js: from data to API in few steps. The attribute guesses of a
// dataset's paths (Query.datasetFields: a name and a type inferred from the
// data), "Add all fields" on a bound table (a checklist, all ticked, names
// and types editable), the starter query that shows a table's rows, and
// "Create an API from this dataset" (Mutation.createApiFromDataset).
import { h, gql, select, status, action } from "./dom.js";
import { edited } from "./live.js";

export const TYPES = ["STRING", "INT", "FLOAT", "BOOLEAN", "ID", "DATETIME", "JSON"];

const guesses = new Map(); // projectId/importCode → Promise<[FieldGuess]>

/** fieldGuesses reads (once per page) the guesses of importCode's paths as project p reads it. */
export function fieldGuesses(p, importCode) {
  const key = `${p.id}/${importCode}`;
  if (!guesses.has(key)) {
    const q = gql(`query($c: String!, $p: ID) { datasetFields(importCode: $c, projectId: $p) { path name type samples } }`, { c: importCode, p: p.id })
      .then((d) => d.datasetFields);
    q.catch(() => guesses.delete(key));
    guesses.set(key, q);
  }
  return guesses.get(key);
}

/** attributeName is the name a path suggests (the server's rule): words
 * joined in lowerCamelCase, "author.first_name" → "authorFirstName". */
export function attributeName(path) {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (!words.length) return "field";
  const lowerFirst = (w) => (/^[A-Z]+$/.test(w) ? w.toLowerCase() : w[0].toLowerCase() + w.slice(1));
  let s = words.map((w, i) => (i === 0 ? lowerFirst(w) : w[0].toUpperCase() + w.slice(1))).join("");
  if (/^[0-9]/.test(s)) s = "f" + s;
  return s;
}

/** guessType infers a type from sample values (the server reads more rows). */
export function guessType(path, values) {
  const vs = values.filter((v) => v !== null && v !== undefined);
  if (path === "id" || path === "_id") return "ID";
  if (!vs.length) return "STRING";
  if (vs.every((v) => typeof v === "boolean")) return "BOOLEAN";
  if (vs.every((v) => typeof v === "number")) return vs.every((v) => Number.isInteger(v) && Math.abs(v) < 2 ** 31) ? "INT" : "FLOAT";
  if (vs.some((v) => typeof v === "object")) return "JSON";
  return "STRING";
}

/** unreadFields is the guesses whose path no attribute of t reads yet. */
function unreadFields(t, all) {
  const read = new Set(t.attributes.filter((a) => a.mappingType === "SOURCE").map((a) => a.sourceMapping.path));
  return all.filter((g) => !read.has(g.path));
}

/** addAllFields is the "Add all fields" checklist of bound table t: every
 * path no attribute reads yet, ticked, with its inferred type and an
 * editable name; built when first opened. */
export function addAllFields(p, t, source) {
  if (!t.source || !source) return null;
  const read = new Set(t.attributes.filter((a) => a.mappingType === "SOURCE").map((a) => a.sourceMapping.path));
  const left = source.fieldPaths.filter((f) => !read.has(f)).length;
  if (!left) return null;
  const box = h("details", { class: "add-all", dataset: { addAll: t.name } },
    h("summary", {}, `Add all fields of ${t.source.importCode} (${left} without an attribute)`));
  const st = status();
  box.addEventListener("toggle", async () => {
    if (!box.open || box.querySelector("form")) return;
    try { box.append(checklist(t, unreadFields(t, await fieldGuesses(p, t.source.importCode)), st), st); } catch (e) { box.append(st); st.fail(e); }
  });
  return box;
}

function checklist(t, todo, st) {
  if (!todo.length) return h("p", { class: "muted" }, "Every field path of the dataset has an attribute already.");
  const taken = new Set(t.attributes.map((a) => a.name));
  const apart = (name) => { let n = name, i = 2; while (taken.has(n)) n = `${name}${i++}`; taken.add(n); return n; };
  const rows = todo.map((g) => {
    const on = h("input", { type: "checkbox", checked: true, "aria-label": `Add ${g.path}` });
    const name = h("input", { type: "text", value: apart(g.name), "aria-label": `Name for ${g.path}` });
    const type = select(TYPES, g.type, { "aria-label": `Type for ${g.path}` });
    const tr = h("tr", { dataset: { path: g.path } }, h("td", { "data-label": "Add" }, on), h("td", { class: "mono", "data-label": "Path" }, g.path),
      h("td", { "data-label": "Name" }, name), h("td", { "data-label": "Type" }, type),
      h("td", { class: "mono muted", "data-label": "Samples" }, g.samples.join(" · ")));
    tr.choice = () => (on.checked ? { path: g.path, name: name.value.trim(), type: type.value } : null);
    return tr;
  });
  const count = () => rows.filter((r) => r.choice()).length;
  const label = () => `Add ${count()} attribute${count() === 1 ? "" : "s"}`;
  const add = action(h("button", { type: "submit", class: "add-all-go" }, label()), st, async () => {
    const fields = rows.map((r) => r.choice()).filter(Boolean);
    if (!fields.length) throw new Error("Tick at least one field.");
    await gql(`mutation($t: ID!, $f: [FieldChoiceInput!]) { createAttributesFromDataset(tableId: $t, fields: $f) { id } }`, { t: t.id, f: fields });
    await edited(`Added ${fields.length} attribute${fields.length === 1 ? "" : "s"} to ${t.name}: ${fields.map((f) => f.name).join(", ")}.`);
  });
  const form = h("form", {}, h("div", { class: "scroll" }, h("table", { class: "data stack fields" },
    h("caption", { class: "muted" }, `Field paths of ${t.source.importCode} without an attribute; types inferred from the data`),
    h("thead", {}, h("tr", {}, ["Add", "Path", "Name", "Type", "Samples"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows))), add);
  form.addEventListener("change", () => { add.textContent = label(); });
  return form;
}

/** starterQuery is a query of table t's list operation that returns rows. */
export function starterQuery(p, t) {
  const list = p.operations.find((o) => o.tableId === t.id && o.kind === "LIST" && o.enabled);
  if (!list) return null;
  const names = t.attributes.filter((a) => a.mappingType !== "COMPUTED" && a.name !== "id").map((a) => a.name).slice(0, 8);
  return `{\n  ${list.name}(pageSize: 10) {\n    total\n    items {\n      id\n${names.map((n) => `      ${n}\n`).join("")}    }\n  }\n}`;
}

/** createApi makes a table with every field of importCode in project
 * projectId and returns {project, table}: the playground's address follows. */
export async function createApi(projectId, importCode, tableName) {
  const d = await gql(`mutation($i: CreateApiFromDatasetInput!) { createApiFromDataset(input: $i) { table { id name } } }`,
    { i: { projectId, importCode, tableName: tableName || null } });
  return d.createApiFromDataset.table;
}

/** playgroundPath is the address of project p's playground with a query
 * of table t prefilled. */
export function playgroundPath(p, t) {
  const q = starterQuery(p, t);
  return `/board/projects/${encodeURIComponent(p.id)}/playground${q ? "?query=" + encodeURIComponent(q) : ""}`;
}

/** fkCandidates are the attributes that look like links to another table
 * (authorId or author_id next to a table Author): [{from, attr, to}]. */
export function fkCandidates(p) {
  const out = [];
  const byName = new Map(p.tables.map((t) => [t.name.toLowerCase(), t]));
  for (const t of p.tables) {
    for (const a of t.attributes) {
      const m = /^(.+?)(?:Id|ID|_id)$/.exec(a.name);
      if (!m || a.mappingType !== "SOURCE") continue;
      const to = byName.get(m[1].toLowerCase());
      if (!to || to.id === t.id || !to.source || p.relations.some((r) => linked(r, t, a, to))) continue;
      out.push({ from: t, attr: a, to, field: m[1][0].toLowerCase() + m[1].slice(1) });
    }
  }
  return out;
}

const linked = (r, t, a, to) => (r.targetTableId === t.id && r.targetAttribute === a.name && r.sourceTableId === to.id)
  || (r.sourceTableId === t.id && r.sourceAttribute === a.name && r.targetTableId === to.id);

/** idLabel names a linking candidate for people and tests. */
export const candidateId = (c) => `${c.from.name}.${c.attr.name}`;

