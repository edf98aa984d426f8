import { execFile } from "node:child_process";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The operator CLI as `npm run cli` runs it (README, Operator CLI): tsx from node_modules rather
 * than npx, which writes its own warnings to stderr, in React's server condition for `server-only`.
 * `env` is added to this process's environment (DATABASE_URL names the database).
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile("node_modules/.bin/tsx", ["--conditions=react-server", "src/cli/main.ts", ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
