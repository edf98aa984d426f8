// npm run db:migrate: applies the pending prisma/migrations to DIRECT_URL, else DATABASE_URL, like `prisma migrate
// deploy`. Without DATABASE_URL it targets the embedded database (DATA_DIR/pglite): through the
// server another process (npm run dev) runs on it, else by opening it just for this.
import { defaultDataDir, findRunningEmbedded, startEmbeddedPostgres } from "../src/server/db/embedded";
import { applyMigrations } from "../src/server/db/migrate";

async function migrate(): Promise<{ applied: string[]; target: string }> {
  if (process.env.DIRECT_URL) return { ...(await applyMigrations(process.env.DIRECT_URL)), target: "DIRECT_URL" };
  if (process.env.DATABASE_URL) return { ...(await applyMigrations(process.env.DATABASE_URL)), target: "DATABASE_URL" };
  const target = `the embedded database in ${defaultDataDir()}`;
  const running = await findRunningEmbedded();
  if (running) return { ...(await applyMigrations(running)), target: `${target} (served at ${running})` };
  const embedded = await startEmbeddedPostgres();
  try {
    return { ...(await applyMigrations(embedded.url)), target };
  } finally {
    await embedded.stop();
  }
}

try {
  const { applied, target } = await migrate();
  console.log(
    applied.length
      ? `Applied ${applied.length} migration(s) to ${target}:\n${applied.map((name) => `  ${name}`).join("\n")}`
      : `No pending migrations for ${target}.`,
  );
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
