import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Caller } from "~/server/accounts/caller";
import { inTransaction, type Db } from "~/server/db";

/**
 * What makes a change to a blog, as its revisions record it (docs/api.md, revisions). A write the
 * app does not name (direct SQL) is recorded as "database". The dashboard's editor names its
 * `editSession`: a change within 10 minutes of the blog's newest revision, when that one is the same
 * session's, updates it instead of adding one, so writing with autosave leaves one revision a session.
 */
export type ChangeSource = { by: "owner"; editSession?: string } | { by: "api_key"; name: string } | { by: "cli" } | { by: "import" } | { by: "restore" };

export function changeSourceOf(caller: Caller): ChangeSource {
  return caller.kind === "member" ? { by: "owner" } : { by: "api_key", name: caller.key.name };
}

export type BlogWriter = Db | Prisma.TransactionClient;

/**
 * Runs `work` in a transaction (the one `db` is, or a new one) that names `source` for the
 * revision trigger on "blog" (the publishing migration reads blogmgr.change_source), so every
 * revision the work records says what made it.
 */
export async function writeAs<T>(
  db: BlogWriter,
  source: ChangeSource,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options?: { timeout?: number },
): Promise<T> {
  const named = async (tx: Prisma.TransactionClient) => {
    // Merged into what the transaction names already: the actor of the audit log (src/server/db/audit-writes.ts).
    await tx.$executeRaw`SELECT set_config('blogmgr.change_source', (COALESCE(NULLIF(current_setting('blogmgr.change_source', true), ''), '{}')::jsonb || ${JSON.stringify(source)}::jsonb)::text, true)`;
    return work(tx);
  };
  return inTransaction(db, named, options);
}
