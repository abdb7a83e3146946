// Usage: node clients.mjs <runtimeURL> <apiKey>
// Exits non-zero with a message when a client cannot use the runtime.
import { buildClientSchema, getIntrospectionQuery, parse, validate, printSchema } from "graphql";
import { GraphQLClient, ClientError, gql } from "graphql-request";
import { Client, fetchExchange } from "@urql/core";

const [url, key] = process.argv.slice(2);
const headers = { "X-API-Key": key };
const fail = (msg) => { console.error(msg); process.exit(1); };

// 1. graphql-js: the full GraphiQL introspection query builds a client schema
// against which a real query validates.
const intro = await fetch(url, {
  method: "POST",
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify({ query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }) }),
}).then((r) => r.json());
if (intro.errors) fail("introspection errors: " + JSON.stringify(intro.errors));
const schema = buildClientSchema(intro.data);
const doc = parse(`query List($min: FilterValue) { searchProducts(minPrice: $min, sortField: "price", sortDirection: DESC) { total items { id name price category { title } } } }`);
const errs = validate(schema, doc);
if (errs.length) fail("validation: " + errs.map(String).join("; "));
if (!printSchema(schema).includes("type ProductPage")) fail("printed schema lacks ProductPage");

// 2. graphql-request: variables, data, and a 400 surfaced as ClientError with errors.
const client = new GraphQLClient(url, { headers });
const data = await client.request(gql`query($n: Int) { products(pageSize: $n, sortField: "price") { total items { name price } } }`, { n: 2 });
if (data.products.items.length !== 2 || data.products.items[0].name !== "Lamp") fail("graphql-request data: " + JSON.stringify(data));
try {
  await client.request(gql`{ nope }`);
  fail("graphql-request: an invalid query did not throw");
} catch (e) {
  if (!(e instanceof ClientError) || !String(e.response.errors?.[0]?.message).includes("nope")) fail("graphql-request error: " + e);
}

// 3. urql: its default Accept header and fetch exchange.
const urql = new Client({ url, exchanges: [fetchExchange], fetchOptions: { headers } });
const res = await urql.query(`query { searchProducts(minPrice: 20) { total } }`, {}).toPromise();
if (res.error || res.data.searchProducts.total !== 3) fail("urql: " + JSON.stringify(res.error ?? res.data));
const bad = await urql.query(`query { products { nope } }`, {}).toPromise();
if (!bad.error || !bad.error.graphQLErrors.length) fail("urql did not show the validation error: " + JSON.stringify(bad));
console.log("ok");
