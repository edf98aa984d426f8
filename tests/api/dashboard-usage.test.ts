import { describe, expect, it } from "vitest";
import { call, createTestAccount, db } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

/** The dashboard's usage page over real HTTP: a chosen date range, and today's 429s for its warning. */

describe("dashboard usage", () => {
  it("reads the range asked for, and points at the field of a bad one", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: account.id } })).id;
    const base = { userId: account.id, keyId, method: "GET", path: "/blogs" };
    await db().usageDaily.createMany({
      data: [
        { ...base, day: new Date("2026-01-10"), requests: 3, succeeded: 3 },
        { ...base, day: new Date("2026-02-10"), requests: 5, succeeded: 5 },
      ],
    });
    const january = (await trpc(cookie, "usage.analytics", { from: "2026-01-01", to: "2026-01-31" })).body.result.data;
    expect(january).toMatchObject({ from: "2026-01-01", to: "2026-01-31", totals: { requests: 3 } });
    expect(january.daily).toHaveLength(31);
    const reversed = await trpc(cookie, "usage.analytics", { from: "2026-02-01", to: "2026-01-01" });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.data.field).toBe("from");
    const invalid = await trpc(cookie, "usage.analytics", { to: "2026-02-30" });
    expect(invalid.body.error.data.field).toBe("to");
    expect((await trpc(cookie, "usage.analytics")).body.result.data.daily).toHaveLength(30);
  });

  it("counts today's requests refused with 429", async () => {
    const account = await createTestAccount("free");
    const cookie = await signIn(account);
    expect((await trpc(cookie, "usage.rateLimit")).body.result.data).toMatchObject({ plan: "free", hourlyLimit: 100, rateLimitedToday: 0 });
    const answers = await Promise.all(Array.from({ length: 102 }, () => call("/blogs", { key: account.key })));
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(2);
    const rate = (await trpc(cookie, "usage.rateLimit")).body.result.data;
    expect(rate).toMatchObject({ used: 100, remaining: 0, rateLimitedToday: 2 });
  });
});
