import { defineConfig } from "@playwright/test";
import { chromiumExecutable } from "./scripts/lib/chromium";

export default defineConfig({
  testDir: "e2e",
  // Playwright empties its output directory when it starts: not test-results/, which holds the
  // servers' logs of the run (scripts/lib/server-logs.ts).
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: process.env.API_BASE_URL ?? "http://127.0.0.1:3000",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
});
