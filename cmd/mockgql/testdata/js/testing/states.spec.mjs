// The testing guide's named-state example: a beforeAll saves the scenario
// "a cart of 3" through the management API, and every test starts its own
// sandbox from it (X-Mock-Sandbox: <sandbox>@cart-3), so tests that change
// it in parallel each begin from the same three rows.
import { test, expect } from "./sandbox.mjs";

const management = process.env.MOCKGQL_MANAGEMENT_URL;
const projectId = process.env.MOCKGQL_PROJECT_ID;

async function gql(request, url, query, variables, headers = {}) {
  const res = await request.post(url, { data: { query, variables }, headers });
  const out = await res.json();
  expect(out.errors).toBeUndefined();
  return out.data;
}

test.beforeAll(async ({ playwright }) => {
  // Each worker runs it: it builds the scenario in a fresh sandbox of its
  // own and saves it under the same name, so the state holds the same rows
  // whichever worker saved last.
  const setup = `setup-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const runtime = await playwright.request.newContext({
    extraHTTPHeaders: { "X-API-Key": process.env.MOCKGQL_KEY, "X-Mock-Sandbox": setup } });
  for (const i of [1, 2, 3]) {
    await gql(runtime, process.env.MOCKGQL_RUNTIME_URL, `mutation { createProduct(input: {name: "Cart item ${i}", price: ${i}}) { id } }`);
  }
  const mgmt = await playwright.request.newContext({ extraHTTPHeaders: { "X-API-Key": process.env.MOCKGQL_MANAGEMENT_KEY } });
  await gql(mgmt, management, "mutation($p: ID!, $s: String) { saveMockState(projectId: $p, name: \"cart-3\", sandbox: $s) { name } }", { p: projectId, s: setup });
  await gql(mgmt, management, "mutation($p: ID!, $s: String!) { deleteSandbox(projectId: $p, sandbox: $s) }", { p: projectId, s: setup });
  await runtime.dispose();
  await mgmt.dispose();
});

test.use({ sandboxState: "cart-3" });

const cart = async (request) =>
  (await gql(request, "", `{ searchProducts(q: "Cart item", pageSize: 50) { items { id name } } }`)).searchProducts.items;

test("removing an item leaves two", async ({ request }) => {
  const items = await cart(request);
  expect(items.map((p) => p.name).sort()).toEqual(["Cart item 1", "Cart item 2", "Cart item 3"]);
  await gql(request, "", `mutation { deleteProduct(id: "${items[0].id}") { id } }`);
  expect(await cart(request)).toHaveLength(2);
});

test("adding an item makes four", async ({ request }) => {
  expect(await cart(request)).toHaveLength(3);
  await gql(request, "", `mutation { createProduct(input: {name: "Cart item 4", price: 4}) { id } }`);
  expect(await cart(request)).toHaveLength(4);
});
