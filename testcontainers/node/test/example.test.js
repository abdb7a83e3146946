// The example: start mockgql with a schema, query its runtime URL with the
// key, write, and reset between tests. MOCKGQL_IMAGE names the image (the
// repository's container test sets the tag it built; default make image's).
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { MockgqlContainer } from "../index.js";

const schema = `
type Book { id: ID! title: String! }
type Query { books: [Book!]! }
type Mutation { createBook(title: String!): Book! }
`;

let mock;
let initial;
before(async () => {
  mock = await new MockgqlContainer(process.env.MOCKGQL_IMAGE || "mockgql:latest").withSchema(schema).start();
  initial = (await books()).length;
});
after(async () => {
  await mock?.stop();
});
beforeEach(async () => {
  await mock.resetMockData();
});

async function runtime(query, key = mock.key) {
  const res = await fetch(mock.runtimeUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": key },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

async function books() {
  const { status, body } = await runtime("{ books { id title } }");
  assert.equal(status, 200, JSON.stringify(body));
  return body.data.books;
}

test("a write shows in the list", async () => {
  assert.ok(initial > 0, "the schema's list serves rows");
  const { body } = await runtime(`mutation { createBook(title: "Dune") { title } }`);
  assert.equal(body.data.createBook.title, "Dune");
  assert.equal((await books()).length, initial + 1);
});

test("resetMockData took the last test's write back", async () => {
  const all = await books();
  assert.equal(all.length, initial);
  assert.ok(!all.some((b) => b.title === "Dune"));
});

test("a wrong key is refused", async () => {
  const { status } = await runtime("{ books { id } }", "not-a-key");
  assert.equal(status, 401);
});
