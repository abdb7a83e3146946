// Usage: node contract_subscriptions.mjs <runtimeURL> <apiKey>
// A contract project (imported from SDL) whose Subscription has
// bookCreated: Book!. graphql-ws's client and graphql-sse's client each
// subscribe to bookCreated, a book is created over HTTP with createBook,
// and the client must receive its event with the same row that a
// following books query returns. Prints one line per client; exits
// non-zero with a message on the first failure.
import WebSocket from "ws";
import { createClient as createWSClient } from "graphql-ws";
import { createClient as createSSEClient } from "graphql-sse";
import { isDeepStrictEqual } from "node:util";

const [url, key] = process.argv.slice(2);
const headers = { Authorization: "Bearer " + key };
const fail = (msg) => { console.error(msg); process.exit(1); };
const ROW = `id title price`;
const SUB = `subscription { bookCreated { ${ROW} } }`;

async function http(query, variables) {
  const r = await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const body = await r.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const clients = {
  "graphql-ws": (onData, onError) => {
    const c = createWSClient({ url: url.replace(/^http/, "ws"), webSocketImpl: WebSocket, connectionParams: headers, retryAttempts: 0, lazy: true });
    const stop = c.subscribe({ query: SUB }, { next: onData, error: onError, complete: () => {} });
    return () => { stop(); c.dispose(); };
  },
  "graphql-sse": (onData, onError) => {
    const c = createSSEClient({ url, headers, retryAttempts: 0 });
    const stop = c.subscribe({ query: SUB }, { next: onData, error: onError, complete: () => {} });
    return () => { stop(); c.dispose(); };
  },
};

async function run(name) {
  const events = [];
  let failed;
  const stop = clients[name]((r) => events.push(r), (e) => { failed = e; });
  try {
    const made = [];
    for (let attempt = 0; attempt < 20 && !events.length; attempt++) {
      await new Promise((r) => setTimeout(r, 150));
      if (failed) fail(`${name}: subscription error ${JSON.stringify(failed?.message ?? failed)}`);
      const title = `${name} book ${attempt}`;
      made.push(title);
      await http(`mutation($t: String!) { createBook(input: {title: $t, price: 12.5}) { id } }`, { t: title });
      for (let wait = 0; wait < 10 && !events.length; wait++) await new Promise((r) => setTimeout(r, 50));
    }
    if (!events.length) fail(`${name}: no event after ${made.length} mutations`);
    const ev = events[0];
    if (ev.errors) fail(`${name}: event errors ${JSON.stringify(ev.errors)}`);
    const row = ev.data.bookCreated;
    if (!made.includes(row.title)) fail(`${name}: event of an unknown row ${JSON.stringify(row)}`);
    const { books } = await http(`{ books { ${ROW} } }`);
    const listed = books.find((b) => b.id === row.id);
    if (!isDeepStrictEqual(listed, row)) fail(`${name}: event ${JSON.stringify(row)} but the list has ${JSON.stringify(listed)}`);
    console.log(`${name}: received ${JSON.stringify(row)}`);
  } finally {
    stop();
  }
}

for (const name of Object.keys(clients)) await run(name);
process.exit(0);
