import "server-only";
// Embedded PostgreSQL for zero-setup runs: PGlite (Postgres compiled to Wasm) served over the
// Postgres wire protocol by pglite-socket, so the app, Prisma and the migration engine all use the
// same `pg` path as with a real server.
//
// How pglite-socket 0.2.17 behaves with several connections (read in its source and probed):
// - PGlite has one session. The server accepts up to `maxConnections` sockets (default 1; it also
//   sets net.Server#maxConnections, so an extra socket is closed at once and `pg` sees ECONNRESET)
//   and multiplexes them through one queue, one protocol message at a time.
// - Transactions do not interleave: while PGlite is inside BEGIN…COMMIT the queue only serves the
//   connection that opened it (others wait), and it rolls back if that client disconnects.
// - But outside a transaction only single messages are exclusive, not a client's Parse…Sync batch.
//   `pg` sends a batch in one write, yet a message over 64 KB (say a long blog post as a bind
//   parameter) reaches the server in several reads, and another connection's batch can run in
//   between and replace the unnamed prepared statement: the first client then runs the wrong SQL
//   (a probe got 3 wrong results in 200 parallel queries). `exclusiveUntilIdle` fixes that below.
// - Still one session (PostgreSQL 18.6 in PGlite 0.5.14) for all connections: session state (SET,
//   named prepared statements, temp tables, advisory locks) is shared, pg_backend_pid() is the same
//   everywhere, and a connection idling inside a transaction holds up all the others.
// - If PGlite itself throws on a message, the queue stays marked busy and every client hangs (the
//   library returns from its loop without resetting it); SQL errors are replies, not throws.
// A PGlite data directory must be opened by one process only: the running server advertises
// itself in `<dataDir>/../embedded.json` so other processes (the CLI) connect to it instead.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** DATA_DIR/pglite, DATA_DIR defaulting to .data (README, Configuration). */
export function defaultDataDir(): string {
  return join(process.env.DATA_DIR ?? ".data", "pglite");
}

/** Enough for the app's pool, Prisma's migration engine and a CLI at once; idle ones cost little. */
const MAX_CONNECTIONS = 100;

export interface EmbeddedPostgres {
  /** postgresql://postgres@127.0.0.1:<port>/postgres?sslmode=disable, for `pg`, PrismaPg and psql. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Serves `dataDir` (default DATA_DIR/pglite; "memory://" for a throwaway database that is not
 * advertised to other processes) on `host` (the bind address; the url always names 127.0.0.1, which
 * reaches the default and 0.0.0.0) and `port` (default: a free one).
 */
export async function startEmbeddedPostgres({
  dataDir = defaultDataDir(),
  port = 0,
  host = "127.0.0.1",
}: { dataDir?: string; port?: number; host?: string } = {}): Promise<EmbeddedPostgres> {
  const persisted = !dataDir.startsWith("memory://");
  if (persisted) {
    const running = await findRunningEmbedded(dataDir);
    if (running) throw new Error(`${dataDir} is already served by another process at ${running}`);
    await mkdir(dirname(dataDir), { recursive: true });
  }
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({
    db: exclusiveUntilIdle(db),
    port, // 0 lets the OS pick a free port
    host,
    maxConnections: MAX_CONNECTIONS,
  });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const actualPort = Number(server.getServerConn().split(":").pop());
  const stateFile = join(dirname(dataDir), "embedded.json");
  if (persisted) await writeFile(stateFile, JSON.stringify({ port: actualPort, pid: process.pid }));

  return {
    url: connectionUrl(actualPort),
    port: actualPort,
    async stop() {
      if (persisted) await rm(stateFile, { force: true });
      await server.stop();
      await db.close();
    },
  };
}

/** The url of the embedded server another process runs on `dataDir`, if it is up. */
export async function findRunningEmbedded(dataDir = defaultDataDir()): Promise<string | null> {
  const state = await readFile(join(dirname(dataDir), "embedded.json"), "utf8").catch(() => null);
  if (state === null) return null;
  const { port } = JSON.parse(state) as { port: number; pid: number };
  // The file outlives a killed server: only a port that still answers counts.
  return (await acceptsConnection(port)) ? connectionUrl(port) : null;
}

function connectionUrl(port: number): string {
  // PGlite ignores user, password and database name; sslmode=disable skips the SSL round trip.
  return `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

function acceptsConnection(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

const TERMINATE = 0x58; // "X"
const READY_FOR_QUERY_IDLE = [0x5a, 0, 0, 0, 5, 0x49]; // "Z", length 5, status "I"

// pglite-socket keeps serving the same connection while `db.isInTransaction()` is true. Answering
// "true" until PGlite's last reply ends in ReadyForQuery(idle) extends that to a whole request
// (Parse…Sync, or a simple Query), so batches of different connections never interleave.
function exclusiveUntilIdle(db: PGlite): PGlite {
  let idle = true;
  return new Proxy(db, {
    get(target, property) {
      switch (property) {
        case "isInTransaction":
          return () => !idle;
        case "execProtocolRawStream":
          return async (message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) => {
            let tail = new Uint8Array(0);
            await target.execProtocolRawStream(message, {
              ...options,
              onRawData(data) {
                tail = Uint8Array.from([...tail, ...data.slice(-6)]).slice(-6);
                options.onRawData(data);
              },
            });
            // Terminate gets no reply; an open transaction must still be rolled back on close.
            if (message[0] !== TERMINATE) idle = READY_FOR_QUERY_IDLE.every((b, i) => tail[i] === b);
          };
        case "exec": // only called by pglite-socket, to roll back after a client vanished
          return async (query: string) => {
            const result = await target.exec(query);
            idle = true;
            return result;
          };
        default: {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}
