import { expect } from "vitest";
import { db } from "./api";

/** An account as stored: its user row, blogs, keys ("Last Used" aside: its own requests move it), webhook endpoints with their deliveries, images, subscribers, imports, and its publication's members and invitations. */
export async function storedObjectsOf(accountId: string) {
  const [user, blogs, keys, webhookEndpoints, images, subscribers, imports, members, invitations] = await Promise.all([
    db().user.findUniqueOrThrow({ where: { id: accountId } }),
    // With their history and preview links: a refused restore or revoke changes neither.
    db().blog.findMany({
      where: { userId: accountId },
      orderBy: { id: "asc" },
      include: { revisions: { orderBy: { seq: "asc" } }, previewLinks: { orderBy: { id: "asc" } } },
    }),
    db().apiKey.findMany({ where: { userId: accountId }, orderBy: { id: "asc" }, omit: { lastUsedAt: true } }),
    db().webhookEndpoint.findMany({ where: { userId: accountId }, orderBy: { id: "asc" }, include: { deliveries: { orderBy: { id: "asc" } } } }),
    db().image.findMany({ where: { userId: accountId }, orderBy: { id: "asc" } }),
    db().subscriber.findMany({ where: { userId: accountId }, orderBy: { id: "asc" } }),
    db().import.findMany({ where: { userId: accountId }, orderBy: { id: "asc" } }),
    db().member.findMany({ where: { organizationId: accountId }, orderBy: { id: "asc" } }),
    db().invitation.findMany({ where: { organizationId: accountId }, orderBy: { id: "asc" } }),
  ]);
  return { user, blogs, keys, webhookEndpoints, images, subscribers, imports, members, invitations };
}

/** Runs `attempt`, then checks that nothing the account has stored changed. */
export async function expectUnchanged(accountId: string, attempt: () => Promise<void>): Promise<void> {
  const before = await storedObjectsOf(accountId);
  await attempt();
  expect(await storedObjectsOf(accountId)).toEqual(before);
}
