// The Playwright configuration of the testing guide's example: the mock's
// runtime URL and key come from the environment; tests run in parallel.
import os from "node:os";
import path from "node:path";

export default {
  testDir: ".",
  outputDir: path.join(os.tmpdir(), "mockgql-playwright-results"),
  testMatch: "*.spec.mjs",
  fullyParallel: true,
  workers: 4,
  reporter: "line",
  use: {
    baseURL: process.env.MOCKGQL_RUNTIME_URL,
    extraHTTPHeaders: { "X-API-Key": process.env.MOCKGQL_KEY },
    launchOptions: process.env.CHROMIUM ? { executablePath: process.env.CHROMIUM } : {},
  },
};
