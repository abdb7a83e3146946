// A Playwright fixture that gives every test a sandbox of its own
// (docs/using/testing.md): each request of the test's page and of its
// `request` fixture carries X-Mock-Sandbox, so tests running in parallel
// against one mock project never see each other's writes. With the option
// sandboxState (test.use({ sandboxState: "cart-3" })) each test's sandbox
// starts from that named state instead of the project's data.
import { test as base } from "@playwright/test";

export const test = base.extend({
  sandboxState: ["", { option: true }],
  sandbox: async ({}, use, testInfo) => {
    await use(`pw-${testInfo.testId}-${testInfo.repeatEachIndex}-${testInfo.retry}`);
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, sandbox, sandboxState }, use) => {
    await use({ ...extraHTTPHeaders, "X-Mock-Sandbox": sandboxState ? `${sandbox}@${sandboxState}` : sandbox });
  },
});
export { expect } from "@playwright/test";
