// Usage: node relay.mjs <runtimeURL> <apiKey> <expectedRows>
// Walks itemsConnection with urql (@urql/core, as a frontend does) forwards
// (first/after, sorted by price descending) and backwards (last/before, in
// storage order) while it creates, renames and deletes other rows between
// pages; every row that exists throughout must be seen exactly once.
// Exits non-zero with a message on any failure.
import { Client, fetchExchange } from "@urql/core";

const [url, key, expected] = process.argv.slice(2);
const fail = (msg) => { console.error(msg); process.exit(1); };
const client = new Client({ url, exchanges: [fetchExchange], requestPolicy: "network-only", fetchOptions: { headers: { "X-API-Key": key } } });

const forwards = `query($first: Int, $after: String) {
  itemsConnection(first: $first, after: $after, orderBy: [{field: price, direction: DESC}]) {
    totalCount edges { cursor node { id price } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
const backwards = `query($last: Int, $before: String) {
  itemsConnection(last: $last, before: $before) {
    totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

async function run(query, variables) {
  const res = await client.query(query, variables).toPromise();
  if (res.error) fail(JSON.stringify(variables) + ": " + res.error.message);
  return res.data;
}

async function mutate(query, variables) {
  const res = await client.mutation(query, variables).toPromise();
  if (res.error) fail("mutation: " + res.error.message);
  return res.data;
}

let next = 1; // a simple deterministic generator
const rand = (n) => { next = (next * 1103515245 + 12345) % 2147483648; return next % n; };

const rows = Number(expected);
const deleted = new Set(); // original rows deleted so far, over both walks
const live = () => { let id; do id = String(1 + rand(rows)); while (deleted.has(id)); return id; };

async function walk(dir) {
  const first = await run(dir === "forwards" ? forwards : backwards, { first: 1, last: 1 });
  const total = first.itemsConnection.totalCount;
  const seen = new Map();
  const before = deleted.size;
  let cursor = null, pages = 0, lastPrice = Infinity;
  for (;;) {
    const n = 50 + rand(150);
    const data = dir === "forwards" ? await run(forwards, { first: n, after: cursor }) : await run(backwards, { last: n, before: cursor });
    const c = data.itemsConnection;
    const edges = dir === "forwards" ? c.edges : [...c.edges].reverse();
    for (const e of edges) {
      seen.set(e.node.id, (seen.get(e.node.id) ?? 0) + 1);
      if (dir === "forwards") {
        if (e.node.price > lastPrice) fail(`${dir}: price ${e.node.price} after ${lastPrice}`);
        lastPrice = e.node.price;
      }
    }
    pages++;
    if (dir === "forwards" ? !c.pageInfo.hasNextPage : !c.pageInfo.hasPreviousPage) break;
    cursor = dir === "forwards" ? c.pageInfo.endCursor : c.pageInfo.startCursor;
    const cursorID = Buffer.from(cursor, "base64url").toString().replace(/^row:/, "");
    // Other rows change between pages: a new row, a renamed row, a deleted row.
    await mutate(`mutation($i: ItemInput!) { createItem(input: $i) { id } }`, { i: { name: "new", price: rand(1000) } });
    await mutate(`mutation($id: ID!) { updateItem(id: $id, input: {name: "renamed"}) { id } }`, { id: live() });
    const victim = live();
    if (victim !== cursorID) {
      const d = await mutate(`mutation($id: ID!) { deleteItem(id: $id) { id } }`, { id: victim });
      if (d.deleteItem) deleted.add(victim);
    }
  }
  for (const [id, k] of seen) if (k !== 1) fail(`${dir}: row ${id} seen ${k} times`);
  let missing = 0;
  for (let i = 1; i <= rows; i++) {
    const id = String(i);
    if (!deleted.has(id) && !seen.has(id)) missing++;
  }
  if (missing) fail(`${dir}: ${missing} rows that stayed were never seen`);
  console.log(`${dir}: ${pages} pages, ${seen.size} rows seen once, ${deleted.size - before} deleted on the way`);
  return total;
}

const total = await walk("forwards");
if (String(total) !== expected) fail(`totalCount ${total}, want ${expected}`);
await walk("backwards");
console.log("ok");
