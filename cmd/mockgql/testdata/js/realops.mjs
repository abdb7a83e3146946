// Usage: node realops.mjs <runtimeURL> <apiKey> <opsDir>
// Runs a real app's client operations (one operation a .graphql file of
// opsDir, as the app sends it) against a contract project, with graphql-js,
// the way the app would: lists first, then lookups by the keys the lists
// answered, then mutations on what they created.
//  1. Each operation is validated against the runtime's introspected
//     schema; the ones that do not validate (the app was written against
//     another version of the API) are listed, not run.
//  2. Each valid operation answers 200 with data and no errors, and its
//     data has the operation's shape: every selected field present (a
//     fragment's only where it applies), non-null where the schema says
//     so, lists as arrays, scalars and enums of their types. At least 98%
//     of the valid operations must.
//  3. A lookup by a key (handle, id) seen in an earlier answer answers that
//     item: not null, and with that key where it selects it.
//  4. Strings a screen shows hold no Latin placeholder words unless the
//     field is free text (description, body, …); every image URL answers
//     an image.
// Prints "ok: …" and a summary; exits non-zero with the failures otherwise.
// REALOPS_VERBOSE=1 prints each operation's variables and answer to stderr.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  buildClientSchema, getIntrospectionQuery, parse, validate, TypeInfo, visit, visitWithTypeInfo,
  getNamedType, getNullableType, isAbstractType, isEnumType, isInputObjectType, isListType,
  isNonNullType, isObjectType, isScalarType, Kind, typeFromAST,
} from "graphql";

const [url, key, opsDir] = process.argv.slice(2);
const fromSeen = Symbol("variables holding a key an earlier answer held");
const failures = [];
const fail = (msg) => { console.error(msg); process.exit(1); };

async function post(query, variables) {
  const r = await fetch(url, { method: "POST", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const text = await r.text();
  let body;
  try { body = JSON.parse(text); } catch { body = { text }; }
  return { status: r.status, body };
}

const intro = await post(getIntrospectionQuery({ directiveIsRepeatable: true }));
if (intro.status !== 200 || intro.body.errors) fail("introspection: " + JSON.stringify(intro.body).slice(0, 500));
const schema = buildClientSchema(intro.body.data);

// The operations, each with its name and parsed document.
const ops = readdirSync(opsDir).filter((f) => f.endsWith(".graphql")).sort().map((f) => {
  const text = readFileSync(join(opsDir, f), "utf8");
  return { file: f, text, doc: parse(text) };
});
const invalid = [];
const valid = [];
const subscriptions = [];
for (const op of ops) {
  if (op.doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === "subscription")) {
    subscriptions.push(op.file); // over a WebSocket or SSE, not a POST: the realtime tests' part
    continue;
  }
  const errs = validate(schema, op.doc);
  if (errs.length) invalid.push(`${op.file}: ${errs[0].message}`);
  else valid.push(op);
}

// What the answers held: by type name, the ids and handles of its objects.
const seen = new Map(); // type name -> { id: [], handle: [] }
const pool = (t) => { if (!seen.has(t)) seen.set(t, { id: [], handle: [] }); return seen.get(t); };
const strings = []; // [field name, parent type, value]

// walk checks data against a selection set on parent type, records keys
// and strings, and returns the first mismatch (or "").
function walk(data, selections, parent, fragments, path, loose) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return `${path}: want an object, got ${JSON.stringify(data)}`;
  const typename = data.__typename;
  for (const sel of selections) {
    if (!included(sel)) continue;
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      const k = sel.alias ? sel.alias.value : name;
      if (!(k in data)) {
        if (loose) continue;
        return `${path}.${k}: missing`;
      }
      const v = data[k];
      if (name === "__typename") { if (typeof v !== "string") return `${path}.${k}: __typename ${v}`; continue; }
      if (name === "__schema" || name === "__type") { if (v === null && name === "__schema") return `${path}.${k}: null`; continue; } // introspection: graphql-js's own business
      const def = parent.getFields()[name];
      if (!def) return `${path}.${k}: no field ${name} on ${parent.name}`;
      const bad = value(v, def.type, sel, fragments, `${path}.${k}`, name, parent.name);
      if (bad) return bad;
      if ((name === "id" || name === "handle") && typeof v === "string") {
        pool(parent.name)[name].push(v);
        if (typename && typename !== parent.name) pool(typename)[name].push(v);
      }
      continue;
    }
    const frag = sel.kind === Kind.FRAGMENT_SPREAD ? fragments[sel.name.value] : sel;
    const cond = frag.typeCondition ? schema.getType(frag.typeCondition.name.value) : parent;
    let applies = true, fragLoose = loose;
    if (cond !== parent) {
      if (typename) {
        const concrete = schema.getType(typename);
        applies = cond === concrete || (isAbstractType(cond) && concrete && schema.isSubType(cond, concrete));
      } else {
        fragLoose = true; // which type answered is not known: check what is there
      }
    }
    if (!applies) continue;
    const bad = walk(data, frag.selectionSet.selections, isObjectType(cond) ? cond : parent, fragments, path, fragLoose);
    if (bad) return bad;
  }
  return "";
}

// included applies @include and @skip with the operation's variables.
let currentVars = {};
function included(sel) {
  for (const d of sel.directives || []) {
    const arg = d.arguments.find((a) => a.name.value === "if");
    if (!arg || (d.name.value !== "include" && d.name.value !== "skip")) continue;
    const v = arg.value.kind === Kind.VARIABLE ? Boolean(currentVars[arg.value.name.value]) : arg.value.value;
    if ((d.name.value === "include") !== Boolean(v)) return false;
  }
  return true;
}

function value(v, type, sel, fragments, path, field, parentName) {
  if (isNonNullType(type)) {
    if (v === null) return `${path}: null for ${type}`;
    type = type.ofType;
  }
  if (v === null) return "";
  if (isListType(type)) {
    if (!Array.isArray(v)) return `${path}: want a list, got ${JSON.stringify(v).slice(0, 80)}`;
    for (let i = 0; i < v.length; i++) {
      const bad = value(v[i], type.ofType, sel, fragments, `${path}[${i}]`, field, parentName);
      if (bad) return bad;
    }
    return "";
  }
  if (isEnumType(type)) return type.getValue(v) ? "" : `${path}: ${JSON.stringify(v)} is not a ${type.name}`;
  if (isScalarType(type)) {
    const ok = { Int: Number.isInteger(v), Float: typeof v === "number", String: typeof v === "string", ID: typeof v === "string" || Number.isInteger(v), Boolean: typeof v === "boolean" }[type.name];
    if (ok === false) return `${path}: ${JSON.stringify(v)} is not a ${type.name}`;
    if (typeof v === "string") strings.push([field, parentName, v, path]);
    return "";
  }
  return walk(v, sel.selectionSet.selections, type, fragments, path, false);
}

// The variables of an operation: the keys the app would pass (a handle or
// id seen in an earlier answer, for the argument it feeds), else a value
// of the variable's type. Optional ones are left out but first/last.
function usages(op) {
  const info = new TypeInfo(schema);
  const uses = {}; // variable -> {arg, type: named type of the field, input: input type}
  visit(op.doc, visitWithTypeInfo(info, {
    Argument(node) {
      const f = info.getFieldDef();
      const walkValue = (v, argName, inType) => {
        if (v.kind === Kind.VARIABLE) uses[v.name.value] = { arg: argName, type: f ? getNamedType(f.type) : null };
        if (v.kind === Kind.OBJECT) for (const of of v.fields) walkValue(of.value, of.name.value);
        if (v.kind === Kind.LIST) for (const lv of v.values) walkValue(lv, argName);
      };
      walkValue(node.value, node.name.value);
    },
  }));
  return uses;
}

function keyFor(argName, fieldType) {
  // handle of the type the field answers; xId / xIds: an id of type X (or
  // of a type whose name ends with X: lineIds -> CartLine).
  const pick = (list) => list.length ? list[0] : undefined;
  if (argName === "handle" && fieldType) return pick(pool(fieldType.name).handle);
  if ((argName === "id" || argName === "ids") && fieldType) return pick(pool(fieldType.name).id);
  // The latest id seen: a part a mutation just added (lineIds: the line
  // cartLinesAdd answered), as the app would pass it.
  const latest = (list) => list[list.length - 1];
  const m = /^(.*?)Ids?$/.exec(argName);
  if (m && m[1]) {
    const want = m[1].toLowerCase();
    for (const [t, p] of seen) if (t.toLowerCase() === want && p.id.length) return latest(p.id);
    for (const [t, p] of seen) if (t.toLowerCase().endsWith(want) && p.id.length) return latest(p.id);
    if (want === "merchandise") return pick(pool("ProductVariant").id);
  }
  const h = /^(.*)Handle$/.exec(argName);
  if (h) {
    for (const [t, p] of seen) if (t.toLowerCase() === h[1].toLowerCase() && p.handle.length) return p.handle[0];
  }
  return undefined;
}

function example(type, name, depth = 0) {
  if (isNonNullType(type)) type = type.ofType;
  if (isListType(type)) { const v = example(type.ofType, name, depth); return v === undefined ? [] : [v]; }
  const k = keyFor(name, null);
  if (k !== undefined && (type.name === "ID" || type.name === "String")) return k;
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    if (depth > 4) return undefined;
    const o = {};
    // The id of an input of a type's rows (CartLineUpdateInput.id): the
    // latest seen of that type.
    const rowType = type.name.replace(/(Update)?Input$/, "").toLowerCase();
    const rowIds = [...seen].filter(([t, p]) => t.toLowerCase().endsWith(rowType) && p.id.length).map(([, p]) => p.id).pop() || [];
    for (const f of Object.values(type.getFields())) {
      if (!isNonNullType(f.type) || f.defaultValue !== undefined) continue;
      o[f.name] = f.name === "id" && rowIds.length ? rowIds[rowIds.length - 1] : example(f.type, f.name, depth + 1);
    }
    return o;
  }
  if (type.name === "ID") guessedID = true;
  return ({ Int: 2, Float: 1.5, Boolean: false, String: "mockgql", ID: "1", Decimal: "10.0", URL: "https://example.com/", DateTime: new Date(0).toISOString(), JSON: "{}", HTML: "<p>mockgql</p>", Color: "#336699", UnsignedInt64: "1" })[type.name] ?? "mockgql";
}

// guessedID is set when an operation's variables hold an ID no answer
// held ("1"): a write of such a key may rightly be refused.
let guessedID = false;

function variables(op, def) {
  guessedID = false;
  const uses = usages(op);
  const vars = {};
  vars[fromSeen] = new Set();
  for (const vd of def.variableDefinitions || []) {
    const name = vd.variable.name.value;
    const type = typeFromAST(schema, vd.type);
    const required = isNonNullType(type) && !vd.defaultValue;
    const use = uses[name] || {};
    const k = keyFor(use.arg || name, use.type) ?? keyFor(name, use.type);
    if (k !== undefined && isScalarType(getNamedType(type))) { vars[name] = isListType(getNullableType(type)) ? [k] : k; vars[fromSeen].add(name); continue; }
    if (name === "first") { vars[name] = 4; continue; }
    if (required) vars[name] = example(type, name);
  }
  return vars;
}

// mutationAnswer checks a mutation's payload as an app reads it: its
// error and warning lists (userErrors, errors, warnings) are empty when
// every key it was sent is one the mock answered (none is refused; a
// guessed ID may be, as the real API would) —
// and a row of the payload of the type a key variable names (cart for
// cartId) is that row.
function mutationAnswer(def, vars, data) {
  for (const sel of def.selectionSet.selections) {
    const payload = data[sel.alias ? sel.alias.value : sel.name.value];
    if (!payload || typeof payload !== "object") continue;
    for (const [k, v] of Object.entries(payload)) {
      if (/^(userErrors|errors|warnings|customerUserErrors)$/.test(k) && Array.isArray(v) && v.length && !guessedID) return `${k} is not empty on a write of known keys: ${JSON.stringify(v).slice(0, 200)}`;
    }
    for (const [name, val] of Object.entries(vars)) {
      const m = /^(.+)Id$/.exec(name);
      if (!m || !vars[fromSeen].has(name) || typeof val !== "string") continue;
      const row = payload[m[1]];
      if (row && typeof row === "object" && "id" in row && row.id !== val) return `${sel.name.value}(${name}: ${JSON.stringify(val)}) answered the ${m[1]} ${JSON.stringify(row.id)}`;
    }
  }
  return "";
}

// Order: queries without required variables, then the mutations that
// create and those that add to what was created (cartLinesAdd), then
// queries with required variables (lookups, the created cart with its
// lines), then the other mutations on what was created: those that change
// it, then those that remove.
const rank = (op) => {
  const def = op.doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const needs = (def.variableDefinitions || []).some((v) => v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue);
  if (def.operation !== "mutation") return needs ? 2 : 0;
  const name = def.name?.value || "";
  return /Create$/.test(name) ? 1 : /Add$/.test(name) ? 1.5 : /(Remove|Delete)$/.test(name) ? 4 : 3;
};
valid.sort((a, b) => rank(a) - rank(b) || a.file.localeCompare(b.file));

let answered = 0;
const lookups = [];
for (const op of valid) {
  const def = op.doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const fragments = Object.fromEntries(op.doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const root = def.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  const vars = variables(op, def);
  currentVars = vars;
  const r = await post(op.text, vars);
  let bad = "";
  if (r.status !== 200) bad = `status ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`;
  else if (r.body.errors) bad = `errors: ${JSON.stringify(r.body.errors).slice(0, 300)}`;
  else if (!r.body.data) bad = "no data";
  else bad = walk(r.body.data, def.selectionSet.selections, root, fragments, "data", false);
  if (bad) { failures.push(`${op.file} ${JSON.stringify(vars).slice(0, 200)}: ${bad}`); continue; }
  if (def.operation === "mutation") bad = mutationAnswer(def, vars, r.body.data);
  if (bad) { failures.push(`${op.file} ${JSON.stringify(vars).slice(0, 200)}: ${bad}`); continue; }
  answered++;
  if (process.env.REALOPS_VERBOSE) console.error(op.file, JSON.stringify(vars), JSON.stringify(r.body.data).slice(0, 400));
  // A lookup by a key: the root field's argument a seen handle or id.
  for (const sel of def.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || def.operation !== "query") continue;
    for (const a of sel.arguments || []) {
      if ((a.name.value === "handle" || a.name.value === "id") && a.value.kind === Kind.VARIABLE && vars[fromSeen].has(a.value.name.value)) {
        const want = vars[a.value.name.value];
        const got = r.body.data[sel.alias ? sel.alias.value : sel.name.value];
        lookups.push(op.file);
        if (got === null) failures.push(`${op.file}: ${sel.name.value}(${a.name.value}: ${JSON.stringify(want)}) answered null for a key an earlier answer held`);
        else if (a.name.value in got && got[a.name.value] !== want) failures.push(`${op.file}: ${sel.name.value}(${a.name.value}: ${JSON.stringify(want)}) answered ${got[a.name.value]}`);
      }
    }
  }
}

// Latin placeholder words in fields that say what they hold (lorem ipsum's
// words that are no English words: "sit", "non", "quasi" are left out, and
// so are people's names: "maxime" is Maxime Schmitt's first name too).
const lorem = new Set(("lorem ipsum dolor amet consectetur adipiscing adipisci elit sed eiusmod tempor incididunt labore dolore aliqua " +
  "enim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat duis aute irure reprehenderit voluptate esse " +
  "cillum fugiat nulla pariatur excepteur occaecat cupidatat proident officia deserunt mollit laborum voluptatem quia quam " +
  "eius modi tempora numquam aliquam quaerat magnam dolorem neque porro quisquam voluptas accusantium doloremque laudantium totam aperiam " +
  "eaque quae illo inventore veritatis architecto beatae explicabo ipsam quod placeat facere possimus omnis " +
  "assumenda repellendus temporibus autem quibusdam officiis debitis rerum necessitatibus saepe eveniet voluptates repudiandae recusandae itaque earum tenetur sapiente delectus").split(" "));
const freeText = /description|body|content|text|html|summary|excerpt|note|message|comment|bio|about|caption|value|encoded/i;
const placeholder = [];
const images = new Set();
for (const [field, parent, v, path] of strings) {
  if (/^(url|src|previewImage|originalSrc|transformedSrc)$/i.test(field) && /image|media|video|model3d|previewimage/i.test(parent + path)) images.add(v);
  if (freeText.test(field) || /^https?:|^\//.test(v)) continue;
  const words = v.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  if (words.length && words.some((w) => lorem.has(w))) placeholder.push(`${path} (${parent}.${field}): ${JSON.stringify(v)}`);
}
for (const img of [...images].slice(0, 20)) {
  const r = await fetch(new URL(img, url));
  const type = r.headers.get("content-type") || "";
  await r.arrayBuffer();
  if (r.status !== 200 || !type.startsWith("image/")) failures.push(`image ${img}: ${r.status} ${type}`);
}
if (placeholder.length) failures.push(`${placeholder.length} strings hold Latin placeholder words:\n  ` + placeholder.slice(0, 15).join("\n  "));

const share = valid.length ? answered / valid.length : 0;
const summary = `${answered} of ${valid.length} valid operations answered with data of their shape (${(share * 100).toFixed(1)}%); ${subscriptions.length} subscriptions not sent; ` +
  `${lookups.length} lookups by a seen key; ${images.size} image URLs; ${strings.length} strings checked; ${invalid.length} of ${ops.length} operations do not validate against this schema` +
  (invalid.length ? ":\n  " + invalid.join("\n  ") : "");
if (share < 0.98 || valid.length === 0 || failures.length) {
  console.error(summary + "\nfailures:\n  " + failures.join("\n  "));
  process.exit(1);
}
console.log("ok: " + summary);
