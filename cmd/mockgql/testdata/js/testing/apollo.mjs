// The testing guide's Apollo Client example: a client per test whose
// link sends the test's sandbox, and a field error read as a partial
// answer (errorPolicy "all"). Usage: node apollo.mjs <runtime URL> <key>
import { ApolloClient, InMemoryCache, HttpLink, gql } from "@apollo/client/core/index.js";
import assert from "node:assert/strict";

const [url, key] = process.argv.slice(2);

// clientFor is what a test suite's setup does: one sandbox per test.
function clientFor(sandbox) {
  return new ApolloClient({
    link: new HttpLink({ uri: url, headers: { "X-API-Key": key, "X-Mock-Sandbox": sandbox } }),
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: "no-cache" } },
  });
}

const TOTAL = gql`{ products(pageSize: 1) { total } }`;
const a = clientFor(`apollo-a-${process.pid}`), b = clientFor(`apollo-b-${process.pid}`);
const before = (await a.query({ query: TOTAL })).data.products.total;
await a.mutate({ mutation: gql`mutation { createProduct(input: {name: "Apollo A", price: 1}) { id } }` });
assert.equal((await a.query({ query: TOTAL })).data.products.total, before + 1, "the test's own sandbox has its product");
assert.equal((await b.query({ query: TOTAL })).data.products.total, before, "another test's sandbox does not");

// An error state: the price field fails; the rest of the answer is there.
const PRODUCTS = gql`{ products(pageSize: 2) { items { id name price } } }`;
const res = await a.query({ query: PRODUCTS, errorPolicy: "all",
  context: { headers: { "X-Mock-Fault": "field=Product.price" } } });
assert.ok(res.data.products.items[0].name);
assert.equal(res.data.products.items[0].price, null);
assert.deepEqual(res.errors[0].path, ["products", "items", 0, "price"]);
console.log("apollo: ok");
