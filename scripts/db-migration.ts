// npm run db:migration -- NAME: writes prisma/migrations/<UTC timestamp>_<name>/migration.sql with
// the SQL that takes the existing migrations to prisma/schema.prisma, like `prisma migrate dev
// --create-only`. The migrations are replayed in an in-memory PGlite, so no database is needed.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { diffMigrationsToSchema, LOCKFILE, MIGRATION_LOCK, MIGRATIONS_DIR } from "../src/server/db/migrate";

const name = (process.argv[2] ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
if (!name) {
  console.error("Usage: npm run db:migration -- <name>   (e.g. add_blog_tags)");
  process.exit(1);
}

try {
  const sql = await diffMigrationsToSchema();
  if (!sql) {
    console.log("No changes: prisma/migrations already matches prisma/schema.prisma.");
  } else {
    const timestamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14); // YYYYMMDDHHMMSS, UTC as Prisma
    const dir = join(MIGRATIONS_DIR, `${timestamp}_${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "migration.sql"), sql);
    await writeFile(join(MIGRATIONS_DIR, LOCKFILE), MIGRATION_LOCK);
    console.log(`Created ${join("prisma/migrations", `${timestamp}_${name}`, "migration.sql")}`);
  }
} catch (error) {
  console.error(`Could not create the migration: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
