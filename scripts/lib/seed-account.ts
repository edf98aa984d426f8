/**
 * An account made by SQL for the benchmarks and the Lighthouse run: the person, their own
 * publication of the same id and their owner membership (docs/teams.md), as sign-up makes them.
 * Inserting it again replaces it, and everything it owned.
 */
import type pg from "pg";

export interface SeededAccount {
  id: string;
  name: string;
  email: string;
  handle: string;
  plan: "free" | "pro" | "enterprise";
}

export async function insertAccount(client: pg.Client, account: SeededAccount): Promise<void> {
  const { id, name, email, handle, plan } = account;
  await client.query(`DELETE FROM "organization" WHERE "id" = $1`, [id]);
  await client.query(`DELETE FROM "user" WHERE "id" = $1`, [id]);
  await client.query(`INSERT INTO "user" ("id", "name", "email", "handle", "updatedAt") VALUES ($1, $2, $3, $4, now())`, [id, name, email, handle]);
  await client.query(`INSERT INTO "organization" ("id", "name", "handle", "plan") VALUES ($1, $2, $3, $4)`, [id, name, handle, plan]);
  await client.query(`INSERT INTO "member" ("id", "organizationId", "userId", "role") VALUES ($1, $1, $1, 'owner')`, [id]);
}
