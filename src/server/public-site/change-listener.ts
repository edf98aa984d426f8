import "server-only";
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { SqlPool } from "~/server/db";
import { log } from "~/server/runtime/log";
import type { PublicPageCache } from "./cache";

/**
 * Listens on one dedicated connection for the notices PostgreSQL sends when an account's public
 * content changes (channel blogmgr_public_content, payload the account's id, or `*` for all; the
 * public_cache migration), and tells the cache (./cache.ts). A notice only proves itself by
 * arriving, so every PROBE_INTERVAL_MS a probe notice is sent through the app's own pool: until
 * one comes back, and whenever one is PROBE_TIMEOUT_MS late or the connection errs or ends, the
 * cache trusts nothing it keeps (each hit checks the database) and the listener reconnects.
 * Needs a session of its own: DIRECT_URL when DATABASE_URL goes through a pooler in transaction mode (docs/deploying.md).
 */
export const CHANGE_CHANNEL = "blogmgr_public_content";
const PROBE_INTERVAL_MS = 10_000;
const PROBE_TIMEOUT_MS = 5_000;
const RECONNECT_MS = { first: 500, max: 10_000 };

export interface ChangeListener {
  stop(): Promise<void>;
}

export function listenForPublicChanges(databaseUrl: string, pool: SqlPool, cache: PublicPageCache): ChangeListener {
  let client: pg.Client | undefined;
  let stopped = false;
  let reconnectDelay = RECONNECT_MS.first;
  let probeTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  /** The probe awaited, and when it counts as lost. */
  let probe: { token: string; deadline: NodeJS.Timeout } | undefined;

  const clearTimers = () => {
    clearTimeout(probeTimer);
    clearTimeout(probe?.deadline);
    probe = undefined;
  };

  function lost(reason: string) {
    if (!client) return;
    const gone = client;
    client = undefined;
    clearTimers();
    cache.listeningStopped();
    gone.removeAllListeners("notification");
    gone.end().catch(() => undefined);
    if (stopped) return;
    log.warn({ reason, retryInMs: reconnectDelay }, "public page cache: change listener lost; checking every hit until it is back");
    reconnectTimer = setTimeout(() => void connect(), reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MS.max);
  }

  function sendProbe() {
    const token = `probe:${randomUUID()}`;
    probe = { token, deadline: setTimeout(() => lost("probe notice late"), PROBE_TIMEOUT_MS) };
    pool.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, token]).catch((error: Error) => lost(`probe failed: ${error.message}`));
  }

  function onNotice({ payload }: pg.Notification) {
    if (payload === undefined) return;
    if (payload === probe?.token) {
      clearTimeout(probe.deadline);
      probe = undefined;
      cache.listeningProven(Date.now());
      reconnectDelay = RECONNECT_MS.first;
      probeTimer = setTimeout(sendProbe, PROBE_INTERVAL_MS);
    } else if (payload === "*") cache.everythingChanged();
    else if (!payload.startsWith("probe:")) cache.changed(payload);
  }

  async function connect() {
    const connecting = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    client = connecting;
    connecting.on("notification", onNotice);
    connecting.on("error", (error) => client === connecting && lost(error.message));
    connecting.on("end", () => client === connecting && lost("connection ended"));
    try {
      await connecting.connect();
      await connecting.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      if (client === connecting) lost(`cannot listen: ${(error as Error).message}`);
      return;
    }
    if (client !== connecting) return;
    // Notices from here on arrive; answers made before may have missed some.
    cache.listeningStarted();
    sendProbe();
  }

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      const current = client;
      lost("stopped");
      await current?.end().catch(() => undefined);
    },
  };
}
