import { describe, expect, it } from "vitest";
import { DomainError } from "~/server/common/domain-error";
import { countAccountBlogs, withinBlogQuota } from "~/server/quotas/blog-quota";
import { countActiveKeys, withinActiveKeyQuota } from "~/server/quotas/key-quota";
import { QUOTAS } from "~/server/quotas/quotas";
import { createTestAccount, createTestKey, db, seedBlogs } from "../support/api";

/** The quota rules on their own, against the database (the HTTP side: tests/security/api4-*). */

describe("the blog quota", () => {
  it("counts every blog of the account, with API access or not, as count(*) does", async () => {
    const account = await createTestAccount("free");
    await seedBlogs(account.id, [{ allowApiAccess: false }, { isPublic: true }, {}, { allowApiAccess: false, isPublic: true }]);
    expect(await countAccountBlogs(db(), account.id)).toBe(4);
    expect(await countAccountBlogs(db(), "no-such-account")).toBe(0);
  });

  it("lets exactly the free places through when creates race", async () => {
    const account = await createTestAccount("free");
    await seedBlogs(account.id, Array.from({ length: QUOTAS.blogsPerAccount.free - 3 }, () => ({})));
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => withinBlogQuota(db(), { id: account.id, plan: "free" }, () => seedBlogs(account.id, [{}]))),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(3);
    const refusals = attempts.flatMap((a) => (a.status === "rejected" ? [a.reason] : []));
    expect(refusals).toHaveLength(5);
    expect(refusals.every((e) => e instanceof DomainError && e.code === "RESOURCE_CONFLICT")).toBe(true);
    expect(await countAccountBlogs(db(), account.id)).toBe(QUOTAS.blogsPerAccount.free);
  });

  it("is the plan's", async () => {
    const account = await createTestAccount("pro");
    await seedBlogs(account.id, Array.from({ length: QUOTAS.blogsPerAccount.free }, () => ({})));
    await expect(withinBlogQuota(db(), { id: account.id, plan: "pro" }, async () => "created")).resolves.toBe("created");
  });
});

describe("the active-key quota", () => {
  it("counts keys neither deactivated nor expired", async () => {
    const account = await createTestAccount();
    await createTestKey(account.id, { expiresAt: "2020-01-01T00:00:00Z" });
    await createTestKey(account.id, { expires: "30d" });
    const deactivated = await db().apiKey.findFirstOrThrow({ where: { userId: account.id, expiresAt: null } });
    await db().apiKey.update({ where: { id: deactivated.id }, data: { deactivatedAt: new Date() } });
    expect(await countActiveKeys(db(), account.id)).toBe(1);
  });

  it("refuses a key past the quota", async () => {
    const account = await createTestAccount();
    for (let i = 1; i < QUOTAS.activeKeysPerAccount; i++) await createTestKey(account.id);
    await expect(withinActiveKeyQuota(db(), account.id, async () => "created")).rejects.toThrow("API key quota reached");
  });
});
