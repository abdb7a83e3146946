// Usage: node defer.mjs <runtimeURL> <apiKey>
// Drives a table project's runtime with an operation using @defer:
// Apollo Client 3 (its HttpLink asks for multipart/mixed;deferSpec=20220824)
// must see the initial data first, then the completed data; meros (the
// multipart reader Relay setups use) must read the same answer as parts.
// Exits non-zero with a message when either does not.
import { ApolloClient, InMemoryCache, HttpLink, gql } from "@apollo/client/core/index.js";
import { meros } from "meros/browser"; // for fetch's Response

const [url, key] = process.argv.slice(2);
const headers = { "X-API-Key": key };
const fail = (msg) => { console.error(msg); process.exit(1); };
const show = (v) => JSON.stringify(v);
const QUERY = `query Shelf { categories { items { id ... @defer(label: "more") { title products { name } } } } }`;

// The complete result, as a client that asks for JSON only gets it.
const plain = await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ query: QUERY }) }).then((r) => r.json());
if (plain.errors || !plain.data.categories.items.length || plain.data.categories.items[0].title === undefined) fail("the complete answer: " + show(plain));
const strip = (v) => JSON.parse(JSON.stringify(v, (k, x) => (k === "__typename" ? undefined : x)));

// 1. Apollo Client 3: watchQuery emits the initial result, then the whole.
const client = new ApolloClient({ link: new HttpLink({ uri: url, headers }), cache: new InMemoryCache() });
const seen = await new Promise((resolve, reject) => {
  const results = [];
  const sub = client.watchQuery({ query: gql(QUERY), fetchPolicy: "network-only" }).subscribe({
    next: (r) => {
      if (r.error || r.errors) reject(new Error(show(r)));
      results.push(strip(r.data));
      if (r.data && r.data.categories.items.every((c) => c.title !== undefined) && !r.loading) { sub.unsubscribe(); resolve(results); }
    },
    error: reject,
  });
  setTimeout(() => reject(new Error("Apollo Client never saw the completed data: " + show(results))), 20000).unref();
}).catch((e) => fail("apollo: " + e.message));
client.stop();
const first = seen.find((d) => d);
if (!first || first.categories.items.some((c) => "title" in c || "products" in c)) fail("apollo's first result already has the deferred fields: " + show(seen));
if (show(seen.at(-1)) !== show(plain.data)) fail("apollo's last result is not the complete data:\n got " + show(seen.at(-1)) + "\nwant " + show(plain.data));

// 2. meros reads the parts of graphql-js 17's format.
const res = await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json", Accept: "multipart/mixed" }, body: JSON.stringify({ query: QUERY }) });
const parts = await meros(res);
if (!parts[Symbol.asyncIterator]) fail("meros: not a multipart answer: " + res.headers.get("content-type"));
const bodies = [];
for await (const p of parts) bodies.push(p.body);
const n = plain.data.categories.items.length;
if (bodies.length !== n + 1 || bodies[0].pending.length !== n || bodies.at(-1).hasNext !== false) fail("meros parts: " + show(bodies));
bodies.slice(1).forEach((b, i) => {
  const want = (({ id, ...rest }) => rest)(plain.data.categories.items[i]);
  if (b.completed[0].id !== String(i) || show(b.incremental[0].data) !== show(want)) fail(`meros part ${i + 1}: ${show(b)}, want ${show(want)}`);
});
console.log("ok");
