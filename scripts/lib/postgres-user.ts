import { execFileSync } from "node:child_process";
import { chown } from "node:fs/promises";

/** PostgreSQL's programs (its server, initdb, PgBouncer) refuse to run as root, as CI runs: they run as the postgres OS user then. */
export const runsAsRoot = (): boolean => process.getuid?.() === 0;

/** Hands `paths` (a scratch directory, the files written into it) to the postgres OS user when running as root; otherwise they are already the caller's. */
export async function giveToPostgresUser(paths: string[]): Promise<void> {
  if (!runsAsRoot()) return;
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
  for (const path of paths) await chown(path, uid, gid);
}
