import { join } from "node:path";

/**
 * Runs `work` with DATABASE_URL set: the one given, else the embedded database that `npm run dev`
 * or `npm start` is serving, else that embedded database opened for this command alone (migrated
 * first, closed after). Set before `work` imports the app's modules, which read env when loaded.
 */
export async function withDatabaseUrl<T>(work: () => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return work();

  // Loaded only here: PGlite and the migration engine are heavy and not needed with a server.
  const { findRunningEmbedded, startEmbeddedPostgres } = await import("~/server/db/embedded");
  const dataDir = join(process.env.DATA_DIR ?? ".data", "pglite");
  const running = await findRunningEmbedded(dataDir);
  if (running) {
    process.env.DATABASE_URL = running;
    return work();
  }
  const embedded = await startEmbeddedPostgres({ dataDir });
  try {
    const { applyMigrations } = await import("~/server/db/migrate");
    await applyMigrations(embedded.url);
    process.env.DATABASE_URL = embedded.url;
    return await work();
  } finally {
    await embedded.stop();
  }
}
