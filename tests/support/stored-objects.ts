import { expect } from "vitest";
import { db } from "./api";

/** An account as stored: its user row, blogs and keys ("Last Used" aside: its own requests move it). */
export async function storedObjectsOf(accountId: string) {
  const [user, blogs, keys] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: accountId } }),
    db().blog.findMany({ where: { userId: accountId }, orderBy: { id: "asc" } }),
    db().apiKey.findMany({ where: { userId: accountId }, orderBy: { id: "asc" }, omit: { lastUsedAt: true } }),
  ]);
  return { user, blogs, keys };
}

/** Runs `attempt`, then checks that nothing the account has stored changed. */
export async function expectUnchanged(accountId: string, attempt: () => Promise<void>): Promise<void> {
  const before = await storedObjectsOf(accountId);
  await attempt();
  expect(await storedObjectsOf(accountId)).toEqual(before);
}
