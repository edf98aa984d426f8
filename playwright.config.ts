import { defineConfig } from "@playwright/test";
import { chromiumExecutable } from "./scripts/lib/chromium";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
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
