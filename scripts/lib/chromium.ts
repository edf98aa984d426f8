/**
 * The Chromium of the browser tests: CHROMIUM_PATH, else Debian's where it is installed, else
 * Playwright's own download (README, Configuration).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const SYSTEM_CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
export const INSTALL_COMMAND = "npx playwright install chromium";

/** The Chromium binary to launch, or undefined for Playwright's own. */
export function chromiumExecutable(candidates: readonly string[] = SYSTEM_CHROMIUM): string | undefined {
  return process.env.CHROMIUM_PATH || candidates.find((path) => existsSync(path));
}

/**
 * Makes sure the browser tests have a Chromium before anything else runs: CHROMIUM_PATH must
 * exist; without it or Debian's, Playwright's own is installed (a no-op when it already is).
 * Returns the problem, with the command that fixes it, when there is still none.
 */
export function ensureChromium(candidates: readonly string[] = SYSTEM_CHROMIUM): string | null {
  const executable = chromiumExecutable(candidates);
  if (executable) return existsSync(executable) ? null : `CHROMIUM_PATH=${executable} does not exist; unset it or run \`${INSTALL_COMMAND}\``;
  console.log(`[test] no system Chromium: ${INSTALL_COMMAND}`);
  const install = spawnSync("npx", ["--no-install", "playwright", "install", "chromium"], { stdio: "inherit" });
  return install.status === 0 ? null : `no Chromium for the browser tests and its installation failed; run \`${INSTALL_COMMAND}\` (or set CHROMIUM_PATH), then npm test again`;
}
