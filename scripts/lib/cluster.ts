/**
 * The multi-instance rig of tests/cluster (docs/deploying.md): production servers on one
 * PostgreSQL and one Redis behind HAProxy (round robin, health checks on /api/health), their
 * connections to PostgreSQL through PgBouncer in transaction mode, as managed poolers hand them
 * out, with DIRECT_URL for what needs a session (LISTEN, the job worker, migrations). HAProxy and
 * PgBouncer come from Debian's packages, installed here when missing (as .ci/run installs Chromium).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort, startProductionServer, type RunningServer } from "./next-server";
import { giveToPostgresUser, runsAsRoot } from "./postgres-user";

const HAPROXY = "/usr/sbin/haproxy";
const PGBOUNCER = "/usr/sbin/pgbouncer";

export interface ClusterOptions {
  /** The database, reached directly (the rig puts PgBouncer in front of its server). */
  databaseUrl: string;
  /** Every instance's environment (Redis, mail, webhooks); the rig adds the database, balancer and secrets. */
  env: NodeJS.ProcessEnv;
  instances?: number;
  /** Receives the instances' output too. */
  onOutput?: (chunk: Buffer) => void;
  /** Where each process's output is kept, never on the console: app1.log, app2.log... (restarts append), haproxy.log, pgbouncer.log. */
  logDir: string;
}

export interface Cluster {
  /** HAProxy's address: what clients use. */
  balancerUrl: string;
  /** Each instance's own address, to ask one of them directly. */
  instanceUrls: string[];
  /** The pooled URL the instances use (PgBouncer, transaction mode). */
  pooledUrl: string;
  /** Stops instance `index` with SIGTERM and, once it has exited, starts it again on its port; settles when it serves. */
  restart(index: number): Promise<{ exitedAfterMs: number; servingAfterMs: number }>;
  stop(): Promise<void>;
}

export async function startCluster({ databaseUrl, env, instances = 3, onOutput, logDir }: ClusterOptions): Promise<Cluster> {
  installMissingPackages();
  const dir = await mkdtemp(join(tmpdir(), "blogmgr-cluster-"));
  const children: ChildProcess[] = [];
  const servers: RunningServer[] = [];
  try {
    await mkdir(logDir, { recursive: true });
    const direct = new URL(databaseUrl);
    const bouncerPort = await freePort();
    children.push(await startPgBouncer(dir, bouncerPort, direct, join(logDir, "pgbouncer.log")));
    const pooled = new URL(databaseUrl);
    pooled.host = `127.0.0.1:${bouncerPort}`;

    const ports: number[] = [];
    for (let i = 0; i < instances; i++) ports.push(await freePort());
    const balancerPort = await freePort();
    const balancerUrl = `http://127.0.0.1:${balancerPort}`;
    const instanceEnv: NodeJS.ProcessEnv = {
      ...env,
      DATABASE_URL: pooled.href,
      DIRECT_URL: direct.href,
      // PgBouncer 1.18 (Debian 12) keeps no prepared statements in transaction mode.
      DATABASE_PREPARED_STATEMENTS: "0",
      // One secret for all: a session signed in through one instance is valid on every other.
      BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
      BETTER_AUTH_URL: balancerUrl,
      // HAProxy appends the client's address to X-Forwarded-For.
      TRUSTED_PROXY_HOPS: "1",
      // Longer than HAProxy's health check takes to mark a draining instance down (below).
      SHUTDOWN_DELAY_SECONDS: "2",
      WEBHOOK_WORKER: "1",
    };
    const start = (index: number) => startProductionServer(instanceEnv, { port: ports[index], logFile: join(logDir, `app${index + 1}.log`), onOutput });
    for (let i = 0; i < instances; i++) servers.push(await start(i));
    children.push(await startHaproxy(dir, balancerPort, ports, join(logDir, "haproxy.log")));
    await waitForAllBackends(balancerUrl, instances);

    return {
      balancerUrl,
      instanceUrls: ports.map((port) => `http://127.0.0.1:${port}`),
      pooledUrl: pooled.href,
      async restart(index) {
        const began = Date.now();
        await servers[index]!.stop();
        const exitedAfterMs = Date.now() - began;
        servers[index] = await start(index);
        return { exitedAfterMs, servingAfterMs: Date.now() - began };
      },
      stop: () => stopAll(servers, children, dir),
    };
  } catch (error) {
    await stopAll(servers, children, dir);
    throw error;
  }
}

async function stopAll(servers: RunningServer[], children: ChildProcess[], dir: string): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
  await Promise.all(children.map(stopChild));
  await rm(dir, { recursive: true, force: true });
}

function installMissingPackages(): void {
  const missing = [
    ["haproxy", HAPROXY],
    ["pgbouncer", PGBOUNCER],
  ].flatMap(([name, binary]) => (existsSync(binary!) ? [] : [name!]));
  if (missing.length === 0) return;
  const apt = (args: string[]) => execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    apt(["install", "-y", "-qq", ...missing]);
  } catch {
    apt(["update", "-qq"]);
    apt(["install", "-y", "-qq", ...missing]);
  }
}

/** Starts `command` with its stdout and stderr appended to `logFile`. */
function spawnLogged(command: string, args: string[], logFile: string): ChildProcess {
  const log = openSync(logFile, "a");
  try {
    return spawn(command, args, { stdio: ["ignore", log, log] });
  } finally {
    // The child holds its own copy.
    closeSync(log);
  }
}

/** PgBouncer refuses to run as root: it runs as the postgres user, in a directory it owns. */
async function startPgBouncer(dir: string, port: number, database: URL, logFile: string): Promise<ChildProcess> {
  const user = decodeURIComponent(database.username || "postgres");
  await writeFile(join(dir, "userlist.txt"), `"${user}" ""\n`);
  await writeFile(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${database.hostname} port=${database.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      // The machine's PostgreSQL trusts local connections; a managed pooler would check passwords.
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      // Fewer server connections than the instances' pools hold together, as with a managed pooler.
      "default_pool_size = 15",
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits,options",
      "log_connections = 0",
      "log_disconnections = 0",
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
    ].join("\n") + "\n",
  );
  await giveToPostgresUser(["", "userlist.txt", "pgbouncer.ini"].map((file) => join(dir, file)));
  const child = spawnLogged(PGBOUNCER, [...(runsAsRoot() ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")], logFile);
  await waitForPort(port, child, "PgBouncer");
  return child;
}

async function startHaproxy(dir: string, port: number, backendPorts: number[], logFile: string): Promise<ChildProcess> {
  const config = join(dir, "haproxy.cfg");
  await writeFile(
    config,
    [
      "global",
      "  maxconn 4000",
      // Failed or aborted requests only, with HAProxy's termination state (who closed what, when).
      "  log stderr format raw daemon",
      "defaults",
      "  mode http",
      "  log global",
      "  option httplog",
      "  option dontlog-normal",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      // A connection refused (an instance restarting) is tried again on another instance.
      "  retries 3",
      "  option redispatch 1",
      "  option forwardfor",
      "frontend app",
      `  bind 127.0.0.1:${port}`,
      "  default_backend instances",
      "backend instances",
      "  balance roundrobin",
      "  option httpchk GET /api/health",
      "  http-check expect status 200",
      // A draining instance (503) is out after two checks, 500 ms, well inside its
      // SHUTDOWN_DELAY_SECONDS; a check slow under load (up to 2 s) does not take one out.
      "  timeout check 2s",
      "  default-server inter 250ms fall 2 rise 1",
      ...backendPorts.map((backend, i) => `  server app${i + 1} 127.0.0.1:${backend} check`),
    ].join("\n") + "\n",
  );
  const child = spawnLogged(HAPROXY, ["-f", config, "-db"], logFile);
  await waitForPort(port, child, "HAProxy");
  return child;
}

/** Settles once `instances` requests in a row through the balancer were answered by distinct, healthy instances. */
async function waitForAllBackends(balancerUrl: string, instances: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let healthyInARow = 0;
  while (healthyInARow < instances * 2) {
    if (Date.now() > deadline) throw new Error(`HAProxy at ${balancerUrl} did not reach ${instances} healthy instances`);
    const ok = await fetch(`${balancerUrl}/api/health`).then((r) => r.ok, () => false);
    healthyInARow = ok ? healthyInARow + 1 : 0;
    if (!ok) await new Promise((r) => setTimeout(r, 250));
  }
}

async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not listen on ${port}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
