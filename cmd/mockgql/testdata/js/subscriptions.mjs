// Usage: node subscriptions.mjs <runtimeURL> <apiKey> [client...]
// Each client (graphql-ws, graphql-sse, apollo, urql; all by default)
// subscribes to productCreated on the runtime, a product is created over
// HTTP, and the client must receive its event with the same row that a
// following list query returns. Then (plain-post) a subscription sent as a
// plain POST, by graphql-request and by Apollo's HttpLink alone, must be
// refused with the reason in GraphQL errors. Prints one line per client;
// exits non-zero with a message on the first failure.
import WebSocket from "ws";
import { createClient as createWSClient } from "graphql-ws";
import { createClient as createSSEClient } from "graphql-sse";
import { ApolloClient, InMemoryCache, HttpLink, split, gql } from "@apollo/client/core/index.js";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions/index.js";
import { getMainDefinition } from "@apollo/client/utilities/index.js";
import { Client, fetchExchange, subscriptionExchange } from "@urql/core";
import { GraphQLClient, ClientError } from "graphql-request";
import { isDeepStrictEqual } from "node:util";

const [url, key, ...only] = process.argv.slice(2);
const wsURL = url.replace(/^http/, "ws");
const headers = { Authorization: "Bearer " + key };
const fail = (msg) => { console.error(msg); process.exit(1); };
const SUB = `subscription { productCreated { id name price category { title } } }`;
const ROW = `id name price category { title }`;

async function http(query, variables) {
  const r = await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const body = await r.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const wsClient = () => createWSClient({ url: wsURL, webSocketImpl: WebSocket, connectionParams: { Authorization: "Bearer " + key }, retryAttempts: 0, lazy: true });

// Each client's subscribe(onData) starts its subscription and returns a stop function.
const clients = {
  "graphql-ws": (onData, onError) => {
    const c = wsClient();
    const stop = c.subscribe({ query: SUB }, { next: (r) => onData(r), error: onError, complete: () => {} });
    return () => { stop(); c.dispose(); };
  },
  "graphql-sse": (onData, onError) => {
    const c = createSSEClient({ url, headers, retryAttempts: 0 });
    const stop = c.subscribe({ query: SUB }, { next: (r) => onData(r), error: onError, complete: () => {} });
    return () => { stop(); c.dispose(); };
  },
  apollo: (onData, onError) => {
    const ws = wsClient();
    const link = split(({ query }) => { const d = getMainDefinition(query); return d.kind === "OperationDefinition" && d.operation === "subscription"; },
      new GraphQLWsLink(ws), new HttpLink({ uri: url, headers }));
    const client = new ApolloClient({ link, cache: new InMemoryCache({ addTypename: false }) });
    const sub = client.subscribe({ query: gql(SUB) }).subscribe({ next: (r) => onData(r), error: onError });
    return () => { sub.unsubscribe(); client.stop(); ws.dispose(); };
  },
  urql: (onData, onError) => {
    const ws = wsClient();
    const client = new Client({ url, fetchOptions: { headers }, exchanges: [fetchExchange, subscriptionExchange({
      forwardSubscription: (req) => ({ subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...req, query: req.query || "" }, sink) }) }),
    })] });
    const { unsubscribe } = client.subscription(SUB, {}).subscribe((r) => (r.error ? onError(r.error) : onData(r)));
    return () => { unsubscribe(); ws.dispose(); };
  },
};

// run subscribes with one client, creates products until its event comes
// (the subscription may start a moment after the client sent it), and
// compares the event's row with the list query's.
async function run(name) {
  const events = [];
  let failed;
  const stop = clients[name]((r) => events.push(r), (e) => { failed = e; });
  try {
    const made = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      await new Promise((r) => setTimeout(r, 150));
      if (failed) fail(`${name}: subscription error ${JSON.stringify(failed?.message ?? failed)}`);
      const n = `${name} product ${attempt}`;
      made.push(n);
      await http(`mutation($n: String!) { createProduct(input: {name: $n, price: 7.5, categoryId: 1}) { id } }`, { n });
      for (let wait = 0; wait < 10 && !events.length; wait++) await new Promise((r) => setTimeout(r, 50));
      if (events.length) break;
    }
    if (!events.length) fail(`${name}: no event after ${made.length} mutations`);
    const ev = events[0];
    if (ev.errors) fail(`${name}: event errors ${JSON.stringify(ev.errors)}`);
    const row = ev.data.productCreated;
    if (!made.includes(row.name)) fail(`${name}: event of an unknown row ${JSON.stringify(row)}`);
    const list = await http(`query($q: FilterValue) { searchProducts(q: $q) { items { ${ROW} } } }`, { q: row.name });
    const listed = list.searchProducts.items.find((x) => x.id === row.id);
    if (!isDeepStrictEqual(listed, row)) fail(`${name}: event ${JSON.stringify(row)} but the list has ${JSON.stringify(listed)}`);
    console.log(`${name}: received ${JSON.stringify(row)}`);
  } finally {
    stop();
  }
}

// plainPost sends the subscription as a plain POST, as graphql-request
// and an Apollo Client without a WebSocket link do: a 400 whose GraphQL
// errors say why (the reason names the WebSocket), shown by both.
async function plainPost() {
  const why = (errors) => {
    const e = errors?.[0];
    return e && /WebSocket/.test(e.message) && e.extensions?.code === "Bad Request";
  };
  try {
    await new GraphQLClient(url, { headers }).request(SUB);
    fail("graphql-request: a subscription over a plain POST was answered");
  } catch (e) {
    if (!(e instanceof ClientError) || e.response.status !== 400 || !why(e.response.errors)) fail("graphql-request: " + e);
  }
  const apollo = new ApolloClient({ link: new HttpLink({ uri: url, headers }), cache: new InMemoryCache() });
  const err = await new Promise((resolve) => apollo.subscribe({ query: gql(SUB) }).subscribe({
    next: (r) => resolve(new Error("answered " + JSON.stringify(r))), error: resolve }));
  apollo.stop();
  const se = err.networkError ?? err; // a subscription's observer gets the link's ServerError itself
  const res = se.result;
  if (se.statusCode !== 400 || !why(res?.errors)) fail("apollo HttpLink: " + err + " " + JSON.stringify(res));
  console.log(`plain-post: refused ${JSON.stringify(res.errors[0].message)}`);
}

for (const name of Object.keys(clients).filter((n) => !only.length || only.includes(n))) await run(name);
if (!only.length || only.includes("plain-post")) await plainPost();
process.exit(0);
