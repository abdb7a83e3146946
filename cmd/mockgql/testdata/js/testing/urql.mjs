// The testing guide's urql example: a client per test whose fetch options
// send the test's sandbox. Usage: node urql.mjs <runtime URL> <key>
import { Client, fetchExchange, gql } from "@urql/core";
import assert from "node:assert/strict";

const [url, key] = process.argv.slice(2);

function clientFor(sandbox) {
  return new Client({
    url,
    exchanges: [fetchExchange],
    requestPolicy: "network-only",
    fetchOptions: { headers: { "X-API-Key": key, "X-Mock-Sandbox": sandbox } },
  });
}

const TOTAL = gql`{ products(pageSize: 1) { total } }`;
const a = clientFor(`urql-a-${process.pid}`), b = clientFor(`urql-b-${process.pid}`);
const before = (await a.query(TOTAL, {}).toPromise()).data.products.total;
const created = await a.mutation(gql`mutation { createProduct(input: {name: "urql A", price: 1}) { id } }`, {}).toPromise();
assert.ifError(created.error);
assert.equal((await a.query(TOTAL, {}).toPromise()).data.products.total, before + 1, "the test's own sandbox has its product");
assert.equal((await b.query(TOTAL, {}).toPromise()).data.products.total, before, "another test's sandbox does not");
console.log("urql: ok");
