import { describe, expect, it } from "vitest";
import { getSqlPool } from "~/server/db";
import { deleteExpiredIdempotencyRecords } from "~/server/api/idempotency-store";
import { call, createTestAccount, db } from "../support/api";
import { expectError, expectSuccess } from "./expect";

const post = (key: string, idempotencyKey: string, body: string) =>
  call("/blogs", { key, method: "POST", body, headers: { "content-type": "application/json", "idempotency-key": idempotencyKey } });

describe("Idempotency-Key on POST /api/v1/blogs", () => {
  it("replays the first response to a retry with the same body, creating nothing more", async () => {
    const account = await createTestAccount();
    const first = await post(account.key, "retry-1", JSON.stringify({ title: "Once", isPublic: true }));
    const blog = expectSuccess(first, 201).blog;
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same JSON with other whitespace and key order is the same body.
    const retry = await post(account.key, "retry-1", '{ "isPublic": true,\n "title": "Once" }');
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
    expect(blog.title).toBe("Once");
  });

  it("refuses the same key with another body with 409", async () => {
    const account = await createTestAccount();
    expectSuccess(await post(account.key, "k", JSON.stringify({ title: "A" })), 201);
    const error = expectError(await post(account.key, "k", JSON.stringify({ title: "B" })), 409, "RESOURCE_CONFLICT");
    expect(error.details).toMatch(/different request body/);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
  });

  it("replays a first response that was an error, status and body", async () => {
    const account = await createTestAccount();
    expectSuccess(await post(account.key, "other", JSON.stringify({ title: "Taken", blogSlug: "taken" })), 201);
    const first = await post(account.key, "conflict", JSON.stringify({ title: "Again", blogSlug: "taken" }));
    expectError(first, 409, "RESOURCE_CONFLICT");
    const retry = await post(account.key, "conflict", JSON.stringify({ title: "Again", blogSlug: "taken" }));
    expect([retry.status, retry.body]).toEqual([409, first.body]);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
  });

  it("creates once when identical requests arrive at the same moment", async () => {
    const account = await createTestAccount();
    const body = JSON.stringify({ title: "Simultaneous" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(account.key, "same-moment", body)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
  });

  it("keeps keys apart between accounts", async () => {
    const [a, b] = await Promise.all([createTestAccount(), createTestAccount()]);
    const body = JSON.stringify({ title: "Shared key" });
    const fromA = expectSuccess(await post(a.key, "shared", body), 201).blog;
    const fromB = await post(b.key, "shared", body);
    expect(expectSuccess(fromB, 201).blog.id).not.toBe(fromA.id);
    expect(fromB.headers.get("idempotent-replayed")).toBeNull();
  });

  it("runs afresh once the first response is older than 24 hours", async () => {
    const account = await createTestAccount();
    const body = JSON.stringify({ title: "Expiring" });
    expectSuccess(await post(account.key, "old", body), 201);
    await db().idempotencyRecord.updateMany({ where: { userId: account.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = await post(account.key, "old", body);
    expectSuccess(again, 201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(2);
  });

  it("runs afresh at once when the key was left claimed without a response (as an earlier version could)", async () => {
    const account = await createTestAccount();
    await db().idempotencyRecord.create({
      data: { userId: account.id, key: "stuck", requestHash: "0".repeat(64), expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const started = performance.now();
    const created = await post(account.key, "stuck", JSON.stringify({ title: "Unstuck" }));
    expect(expectSuccess(created, 201).blog.title).toBe("Unstuck");
    expect(performance.now() - started).toBeLessThan(2_000);
    const retry = await post(account.key, "stuck", JSON.stringify({ title: "Unstuck" }));
    expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
  });
});

describe("deleteExpiredIdempotencyRecords", () => {
  it("deletes expired records of any account, at most the given number per call, and keeps live ones", async () => {
    const [a, b] = await Promise.all([createTestAccount(), createTestAccount()]);
    const record = (userId: string, key: string, expiresAt: Date) => ({ userId, key, requestHash: "h", status: 201, body: {}, expiresAt });
    const longAgo = new Date(Date.UTC(1990, 0, 1));
    await db().idempotencyRecord.createMany({
      data: [
        record(a.id, "expired-1", longAgo),
        record(a.id, "expired-2", longAgo),
        record(b.id, "expired", longAgo),
        record(a.id, "live", new Date(Date.now() + 3_600_000)),
      ],
    });
    let deleted = await deleteExpiredIdempotencyRecords(getSqlPool(), 2);
    expect(deleted).toBeLessThanOrEqual(2);
    while (deleted === 2) deleted = await deleteExpiredIdempotencyRecords(getSqlPool(), 2);
    const left = await db().idempotencyRecord.findMany({ where: { userId: { in: [a.id, b.id] } }, select: { key: true } });
    expect(left).toEqual([{ key: "live" }]);
  });
});
