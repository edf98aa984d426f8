import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface RunningServer {
  baseUrl: string;
  stop(): void;
}

/** Starts the built app (`next start`) on a free port and waits until its API answers. */
export async function startNextServer(env: NodeJS.ProcessEnv, { quiet = false } = {}): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn("npx", ["--no-install", "next", "start", "--port", String(port)], {
    env: { ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "ignore" : "inherit"],
    detached: true,
  });
  const stop = () => {
    // npx starts next in a child of its own: end the whole process group.
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  };
  try {
    await waitUntilServing(`${baseUrl}/api/v1/openapi.json`, child);
  } catch (error) {
    stop();
    throw error;
  }
  return { baseUrl, stop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

export async function waitUntilServing(url: string, child?: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs / 1000} s`);
}
