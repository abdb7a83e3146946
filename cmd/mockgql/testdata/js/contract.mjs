// Usage: node contract.mjs <runtimeURL> <apiKey> <document> <report.json>
// Checks a contract project (docs/using/contract.md) as a GraphQL client sees
// it, with graphql-js:
//  1. printSchema(buildClientSchema(the runtime's introspection)) equals
//     printSchema of the document (buildSchema, or buildClientSchema for an
//     introspection dump);
//  2. every query root field answers a generated query — every scalar field
//     to depth 2, fragments on each type of an interface or union — with no
//     errors and values that conform to the schema (non-null, lists, Int
//     range, enum values, __typename); list, connection and page fields
//     answer rows; the same query twice answers the same bytes;
//  3. every create mutation's row appears in a list of its type.
// report.json is Project.contract.report ({root, name, shape, entity}).
// Exits non-zero with a message on the first failure.
import { readFileSync } from "node:fs";
import {
  buildClientSchema, buildSchema, getIntrospectionQuery, printSchema,
  getNamedType, getNullableType, isAbstractType, isEnumType, isInputObjectType, isListType,
  isNonNullType, isObjectType, isScalarType, isLeafType,
} from "graphql";

const [url, key, docPath, reportPath] = process.argv.slice(2);
const fail = (msg) => { console.error(msg); process.exit(1); };

async function post(query) {
  const r = await fetch(url, { method: "POST", headers: { "X-API-Key": key, "Content-Type": "application/json" }, body: JSON.stringify({ query }) });
  const text = await r.text();
  if (r.status !== 200) fail(`${r.status} for ${query}\n${text}`);
  return text;
}

// 1. The runtime's introspection prints as the document.
const introOptions = { descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true };
const intro = JSON.parse(await post(getIntrospectionQuery(introOptions)));
if (intro.errors) fail("introspection: " + JSON.stringify(intro.errors));
const schema = buildClientSchema(intro.data);
const docText = readFileSync(docPath, "utf8");
const docSchema = docText.trimStart().startsWith("{")
  ? buildClientSchema((JSON.parse(docText).data ?? JSON.parse(docText)))
  : buildSchema(docText);
if (printSchema(schema) !== printSchema(docSchema)) {
  const a = printSchema(docSchema).split("\n"), b = printSchema(schema).split("\n");
  const i = a.findIndex((l, n) => l !== b[n]);
  fail(`the runtime's schema differs from the document at line ${i + 1}:\n  document: ${a[i]}\n  runtime:  ${b[i]}`);
}

// 2. Generated queries. A selection is built with a shape: for each
// response key, the field's type and the shape below it, so the answer can
// be checked against the schema.
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const seen = new Map(); // type name → objects answered, to take keys from

function literal(type, depth = 0) {
  const t = getNullableType(type);
  if (isListType(t)) return `[${literal(t.ofType, depth)}]`;
  if (isEnumType(t)) return t.getValues()[0].name;
  if (isInputObjectType(t)) {
    const parts = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined && depth < 3)
      .map((f) => `${f.name}: ${literal(f.type, depth + 1)}`);
    return `{${parts.join(", ")}}`;
  }
  switch (t.name) {
    case "Int": return "1";
    case "Float": return "1.5";
    case "Boolean": return "true";
  }
  return JSON.stringify(scalarValue(t.name));
}

function scalarValue(name) {
  const samples = { DateTime: "2024-01-02T03:04:05Z", Date: "2024-01-02", Time: "03:04:05", URL: "https://example.com", Email: "a@example.com",
    UUID: "00000000-0000-4000-8000-000000000000", uuid: "00000000-0000-4000-8000-000000000000", timestamptz: "2024-01-02T03:04:05Z" };
  return samples[name] ?? "a";
}

function args(field, given = {}) {
  const parts = [];
  for (const a of field.args) {
    if (a.name in given) parts.push(`${a.name}: ${given[a.name]}`);
    else if (isNonNullType(a.type) && a.defaultValue === undefined) parts.push(`${a.name}: ${literal(a.type)}`);
  }
  return parts.length ? `(${parts.join(", ")})` : "";
}

// select returns [text, shape] for the fields of type at depth (0, the
// root field's own type, to 2).
function select(type, depth) {
  const named = getNamedType(type);
  if (isLeafType(named)) return ["", null];
  const shape = { abstract: isAbstractType(named), type: named, fields: new Map() };
  const parts = ["__typename"];
  const objects = isAbstractType(named) ? schema.getPossibleTypes(named) : [named];
  for (const obj of objects) {
    const inner = [];
    for (const f of Object.values(obj.getFields())) {
      const fn = getNamedType(f.type);
      const alias = shape.abstract ? `${obj.name}__${f.name}` : f.name;
      if (isLeafType(fn)) {
        inner.push(`${alias}: ${f.name}${args(f)}`);
        shape.fields.set(alias, { type: f.type, sub: null });
      } else if (depth < 2) {
        const [text, sub] = select(f.type, depth + 1);
        inner.push(`${alias}: ${f.name}${args(f)} ${text}`);
        shape.fields.set(alias, { type: f.type, sub });
      }
    }
    parts.push(shape.abstract ? `... on ${obj.name} { ${inner.join(" ")} }` : inner.join(" "));
  }
  return [`{ ${parts.join(" ")} }`, shape];
}

// conform checks value against type and shape, and records objects.
function conform(value, type, sub, path) {
  if (value === null) {
    if (isNonNullType(type)) fail(`${path}: null for ${type}`);
    return;
  }
  const t = getNullableType(type);
  if (isListType(t)) {
    if (!Array.isArray(value)) fail(`${path}: ${JSON.stringify(value)} is not a list (${type})`);
    value.forEach((v, i) => conform(v, t.ofType, sub, `${path}[${i}]`));
    return;
  }
  if (isEnumType(t)) {
    if (!t.getValues().some((v) => v.name === value)) fail(`${path}: ${JSON.stringify(value)} is no value of ${t.name}`);
    return;
  }
  if (isScalarType(t)) return conformScalar(value, t, path);
  if (typeof value !== "object" || Array.isArray(value)) fail(`${path}: ${JSON.stringify(value)} is not an object (${type})`);
  const tn = value.__typename;
  const obj = schema.getType(tn);
  if (!isObjectType(obj) || (sub.abstract ? !schema.isSubType(sub.type, obj) : obj !== sub.type)) fail(`${path}: __typename ${tn} is not a ${sub.type}`);
  if (!seen.has(tn)) seen.set(tn, []);
  seen.get(tn).push(value);
  for (const [alias, f] of sub.fields) {
    if (sub.abstract && !alias.startsWith(tn + "__")) {
      if (alias in value) fail(`${path}.${alias}: answered for a ${tn}`);
      continue;
    }
    if (!(alias in value)) fail(`${path}.${alias}: missing`);
    conform(value[alias], f.type, f.sub, `${path}.${alias}`);
  }
}

function conformScalar(value, t, path) {
  const bad = (what) => fail(`${path}: ${JSON.stringify(value)} is not ${what}`);
  switch (t.name) {
    case "Int": if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) bad("an Int"); return;
    case "Float": if (typeof value !== "number" || !Number.isFinite(value)) bad("a Float"); return;
    case "String": if (typeof value !== "string") bad("a String"); return;
    case "Boolean": if (typeof value !== "boolean") bad("a Boolean"); return;
    case "ID": if (typeof value !== "string") bad("an ID"); return;
  }
  if (value === undefined) bad(t.name);
}

// rowsIn counts the objects of type entity (or its implementations) in value.
function rowsIn(value, entity) {
  if (Array.isArray(value)) return value.reduce((n, v) => n + rowsIn(v, entity), 0);
  if (value === null || typeof value !== "object") return 0;
  const e = schema.getType(entity), t = schema.getType(value.__typename);
  let n = t && e && (t === e || (isAbstractType(e) && schema.isSubType(e, t))) ? 1 : 0;
  for (const v of Object.values(value)) n += rowsIn(v, entity);
  return n;
}

// keyArgs gives a lookup's ID-typed required arguments a key seen in a row.
function keyArgs(field, entity) {
  const given = {};
  const rows = [...seen.entries()].filter(([tn]) => {
    const e = schema.getType(entity), t = schema.getType(tn);
    return t === e || (isAbstractType(e) && schema.isSubType(e, t));
  }).flatMap(([, rs]) => rs);
  for (const a of field.args) {
    const base = getNullableType(a.type), named = getNamedType(a.type);
    if (!isScalarType(named) || !rows.length) continue;
    const row = rows[0];
    const keyField = Object.keys(row).find((k) => k.endsWith(a.name) || k.endsWith("__" + a.name)) ??
      Object.keys(row).find((k) => k === "id" || k.endsWith("__id"));
    if (keyField === undefined) continue;
    const v = JSON.stringify(row[keyField]);
    given[a.name] = isListType(base) ? `[${v}]` : v;
  }
  return given;
}

const queryType = schema.getQueryType();
const listing = new Set(["list", "connection", "page"]);
const order = (r) => (listing.has(r.shape) ? 0 : 1); // lists first: lookups take their keys
const queries = report.filter((r) => r.root === "QUERY").sort((a, b) => order(a) - order(b));
for (const r of queries) {
  const field = queryType.getFields()[r.name];
  const given = listing.has(r.shape) ? {} : keyArgs(field, r.entity ?? "");
  const [text, sub] = select(field.type, 0);
  const q = `{ ${r.name}${args(field, given)} ${text} }`;
  const first = await post(q), second = await post(q);
  if (first !== second) fail(`${r.name}: the same query answered differently\n${first}\n${second}`);
  const res = JSON.parse(first);
  if (res.errors) fail(`${r.name}: ${JSON.stringify(res.errors)}\n${q}`);
  conform(res.data[r.name], field.type, sub, r.name);
  if (listing.has(r.shape) && rowsIn(res.data[r.name], r.entity) === 0) fail(`${r.name} (${r.shape}) answered no ${r.entity} rows: ${first}`);
}

// 3. A created row appears in a list of its type.
let createdSeen = 0;
const mutationType = schema.getMutationType();
for (const r of report.filter((r) => r.root === "MUTATION" && r.shape === "create")) {
  const field = mutationType.getFields()[r.name];
  const [text, sub] = select(field.type, 0);
  const res = JSON.parse(await post(`mutation { ${r.name}${args(field)} ${text} }`));
  if (res.errors) fail(`${r.name}: ${JSON.stringify(res.errors)}`);
  conform(res.data[r.name], field.type, sub, r.name);
  const before = seen.get(r.entity) ?? [];
  const created = before[before.length - 1];
  const keyField = created && Object.keys(created).find((k) => k === "id" || k.endsWith("__id"));
  const list = queries.find((l) => listing.has(l.shape) && l.entity === r.entity);
  if (!created || !keyField || !list) continue;
  const lf = queryType.getFields()[list.name];
  const size = lf.args.find((a) => ["first", "limit", "take", "pageSize", "perPage", "size"].includes(a.name));
  const [ltext] = select(lf.type, 0);
  const answer = await post(`{ ${list.name}${size ? `(${size.name}: 1000)` : ""} ${ltext} }`);
  if (!answer.includes(JSON.stringify(created[keyField]))) fail(`${r.name}: the created ${r.entity} ${created[keyField]} is not in ${list.name}`);
  createdSeen++;
}
console.log(`ok: ${queries.length} root fields, ${createdSeen} created rows found in their lists`);
