// The testing guide's Playwright example: tests that write to the mock run
// in parallel, each in its own sandbox (sandbox.mjs), and an error state
// comes from a field error for one request.
import { test, expect } from "./sandbox.mjs";

async function gql(request, query, headers = {}) {
  const res = await request.post("", { data: { query }, headers });
  expect(res.ok()).toBeTruthy();
  return res.json();
}

const total = async (request) => (await gql(request, "{ products(pageSize: 1) { total } }")).data.products.total;

for (const n of [1, 2, 3, 4]) {
  test(`test ${n} sees only its own ${n} new products`, async ({ request }) => {
    const before = await total(request);
    for (let i = 0; i < n; i++) {
      await gql(request, `mutation { createProduct(input: {name: "Playwright ${n}.${i}", price: ${n}}) { id } }`);
    }
    expect(await total(request)).toBe(before + n);
  });
}

test("the page reads its test's sandbox", async ({ page, request, sandbox }) => {
  await gql(request, `mutation { createProduct(input: {name: "Only in ${sandbox}", price: 1}) { id } }`);
  // The app's page asks the mock as an app does, with fetch: the context's
  // extra headers (the sandbox) go with it.
  await page.goto("");
  const names = await page.evaluate(async () => {
    const res = await fetch(location.href, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ query: `{ searchProducts(q: "Only in", pageSize: 50) { items { name } } }` }) });
    return (await res.json()).data.searchProducts.items.map((p) => p.name);
  });
  expect(names).toEqual([`Only in ${sandbox}`]);
});

test("an error state: the price field fails", async ({ request }) => {
  const out = await gql(request, "{ products(pageSize: 2) { items { name price } } }", { "X-Mock-Fault": "field=Product.price" });
  expect(out.data.products.items[0].name).toBeTruthy();
  expect(out.data.products.items[0].price).toBeNull();
  expect(out.errors[0].path).toEqual(["products", "items", 0, "price"]);
});
