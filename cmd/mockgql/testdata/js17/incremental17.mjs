// Usage: node incremental17.mjs <runtimeURL> <apiKey> <schema.graphql>
// Sends operations with @defer and @stream to a mockgql runtime serving
// the schema, reads its multipart/mixed answer with meros (the reader Relay
// setups use), and checks it against what graphql-js 17 itself answers on
// the same schema and data: experimentalExecuteIncrementally for
// Accept: multipart/mixed (graphql-js 17's format), legacyExecuteIncrementally
// for deferSpec=20220824 (the format Apollo Client 3 reads).
// Exits non-zero with a message on the first difference.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { buildSchema, parse, experimentalExecuteIncrementally, legacyExecuteIncrementally } from "graphql";
import { meros } from "meros/browser"; // for fetch's Response

const [url, key, sdlFile] = process.argv.slice(2);
const schema = buildSchema(readFileSync(sdlFile, "utf8"));
const fail = (msg) => { console.error(msg); process.exit(1); };
const show = (v) => JSON.stringify(v);

async function post(query, variables, accept) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "X-API-Key": key, "Content-Type": "application/json", Accept: accept },
    body: JSON.stringify({ query, variables }),
  });
  if (res.status !== 200) fail(`${query}: HTTP ${res.status} ${await res.text()}`);
  const parts = await meros(res);
  if (!parts[Symbol.asyncIterator]) return [await parts.json()];
  const out = [];
  for await (const part of parts) {
    if (!part.json) fail(`${query}: a part is not JSON: ${part.body}`);
    out.push(part.body);
  }
  return out;
}

// graphql-js 17's payloads for the same operation over the mock's complete data.
async function reference(execute, query, variables, data) {
  const r = await execute({ schema, document: parse(query), rootValue: data, variableValues: variables });
  if (!("initialResult" in r)) return [r];
  const out = [r.initialResult];
  for await (const p of r.subsequentResults) out.push(p);
  return JSON.parse(JSON.stringify(out)); // plain objects (graphql-js's have no prototype)
}

// flatten joins the lists of payloads after the first, whose boundaries a
// server chooses (graphql-js batches what completes at once); completions
// are in id order, as the order of siblings' completions follows
// graphql-js's own scheduling (an empty stream completes a tick earlier).
function flatten(payloads) {
  const f = { pending: [], incremental: [], completed: [] };
  for (const p of payloads.slice(1)) for (const k of Object.keys(f)) f[k].push(...(p[k] ?? []));
  f.completed.sort((a, b) => Number(a.id) - Number(b.id));
  return f;
}

// merge applies every increment to the initial data as a client does.
function merge(original) {
  const payloads = structuredClone(original); // merging moves the payloads' objects into the data
  const data = payloads[0].data;
  const paths = {};
  for (const p of payloads) for (const e of p.pending ?? []) paths[e.id] = e.path;
  const at = (path) => path.reduce((v, k) => v[k], data);
  const deep = (dst, src) => {
    for (const [k, v] of Object.entries(src)) {
      if (v && typeof v === "object" && dst[k] && typeof dst[k] === "object") deep(dst[k], v);
      else dst[k] = v;
    }
  };
  for (const p of payloads.slice(1)) {
    for (const inc of p.incremental ?? []) {
      const path = [...(inc.id !== undefined ? paths[inc.id] : inc.path), ...(inc.subPath ?? [])];
      if (inc.items) {
        const list = inc.id !== undefined ? at(path) : at(path.slice(0, -1));
        list.push(...inc.items);
      } else deep(at(path), inc.data);
    }
  }
  return data;
}

const complete = async (query, variables) => {
  const [r] = await post(query, variables, "application/json");
  if (r.errors || r.hasNext !== undefined) fail(`${query}: the complete answer: ${show(r)}`);
  return r.data;
};

const first = (await complete(`{ books { id } }`)).books[0].id;
const cases = [
  // [name, query, variables]: the payloads' entries must equal graphql-js's
  ["defer in list items", `{ books { id ... @defer(label: "who") { title author { name } } } }`, {}],
  ["stream", `{ books @stream(initialCount: 1, label: "rest") { id title } }`, {}],
  ["nested defers", `query($id: ID!) { book(id: $id) { id ... @defer(label: "outer") { title author { ... @defer(label: "inner") { name } } } } }`, { id: first }],
  ["a deferred field below a delivered one", `{ books { id author { id } ... @defer(label: "d") { author { name } } } }`, {}],
  ["a nested defer below its parent's object", `query($id: ID!) { book(id: $id) { id ... @defer(label: "a") { author { name } ... @defer(label: "b") { author { id } } } } }`, { id: first }],
  ["stream in a deferred fragment, defer(if: false)", `{ books { id ... @defer(label: "l") { author { books @stream(initialCount: 1) { id } } } ... @defer(if: false) { title } } }`, {}],
];
for (const [name, query, variables] of cases) {
  const data = await complete(query, variables);
  for (const [accept, execute] of [["multipart/mixed", experimentalExecuteIncrementally], ["multipart/mixed;deferSpec=20220824,application/json", legacyExecuteIncrementally]]) {
    const got = await post(query, variables, accept);
    const want = await reference(execute, query, variables, data);
    const label = `${name} (${accept})`;
    if (want.length < 2) fail(`${label}: graphql-js delivered it whole: ${show(want)}`);
    if (got.length < 2 || got[0].hasNext !== true || got.at(-1).hasNext !== false) fail(`${label}: not incremental: ${show(got)}`);
    if (!isDeepStrictEqual(got[0], want[0])) fail(`${label}: initial payload\n got ${show(got[0])}\nwant ${show(want[0])}`);
    if (!isDeepStrictEqual(flatten(got), flatten(want))) fail(`${label}: increments\n got ${show(flatten(got))}\nwant ${show(flatten(want))}`);
    if (!isDeepStrictEqual(merge(got), merge(want)) || !isDeepStrictEqual(merge(got), data)) fail(`${label}: merged\n got ${show(merge(got))}\nwant ${show(data)}`);
  }
}
console.log("ok");
