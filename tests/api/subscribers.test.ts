import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectError, expectSuccess } from "./expect";

let owner: TestAccount;
let other: TestAccount;

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const add = (body: unknown, key = owner.key) => call("/subscribers", { key, ...json(body) });
const list = (query = "", key = owner.key) => call(`/subscribers${query}`, { key });

/** Subscribers made straight in the database, `minutesAgo` apart so their order is known. */
async function seed(accountId: string, rows: { email: string; name?: string; status?: "pending" | "active" | "unsubscribed" | "bounced"; minutesAgo: number }[]) {
  await db().subscriber.createMany({
    data: rows.map((row) => ({
      userId: accountId,
      email: row.email,
      name: row.name ?? "",
      status: row.status ?? "active",
      source: "form" as const,
      createdAt: new Date(Date.now() - row.minutesAgo * 60_000),
      unsubscribeToken: randomUUID(),
    })),
  });
}

beforeAll(async () => {
  [owner, other] = await Promise.all([createTestAccount(), createTestAccount()]);
  await seed(owner.id, [
    { email: "ada@example.com", name: "Ada Lovelace", minutesAgo: 50 },
    { email: "grace@navy.example", name: "Grace Hopper", status: "unsubscribed", minutesAgo: 40 },
    { email: "alan@example.org", name: "Alan", status: "pending", minutesAgo: 30 },
    { email: "edsger@example.com", status: "bounced", minutesAgo: 20 },
    { email: "barbara@example.com", name: "Barbara 100%_off", minutesAgo: 10 },
  ]);
  await seed(other.id, [{ email: "someone@else.example", minutesAgo: 5 }]);
});

describe("GET /api/v1/subscribers", () => {
  it("lists the account's subscribers newest first, paginated like the blogs", async () => {
    const data = expectSuccess(await list("?limit=2"));
    expect(data.subscribers.map((s: { email: string }) => s.email)).toEqual(["barbara@example.com", "edsger@example.com"]);
    expect(data.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: false });
    expect(Object.keys(data.subscribers[0]).sort()).toEqual(["confirmedAt", "createdAt", "email", "id", "name", "source", "status", "unsubscribedAt"]);
    const last = expectSuccess(await list("?limit=2&page=3"));
    expect(last.subscribers.map((s: { email: string }) => s.email)).toEqual(["ada@example.com"]);
    expect(last.pagination).toMatchObject({ page: 3, hasNext: false, hasPrev: true });
    expect(expectSuccess(await list("?page=9")).subscribers).toEqual([]);
  });

  it("filters by status and searches address and name, ignoring case, wildcards literal", async () => {
    const emails = async (query: string) => expectSuccess(await list(query)).subscribers.map((s: { email: string }) => s.email);
    expect(await emails("?status=unsubscribed")).toEqual(["grace@navy.example"]);
    expect(await emails("?status=pending")).toEqual(["alan@example.org"]);
    expect(await emails("?q=EXAMPLE.COM")).toEqual(["barbara@example.com", "edsger@example.com", "ada@example.com"]);
    expect(await emails("?q=%20hopper%20")).toEqual(["grace@navy.example"]);
    expect(await emails("?q=100%25_")).toEqual(["barbara@example.com"]);
    expect(await emails("?q=a_b")).toEqual([]); // "_" is no wildcard: "barbara" does not match
    expect(await emails("?q=example.com&status=active")).toEqual(["barbara@example.com", "ada@example.com"]);
  });

  it("refuses a status or a page size outside the rules, naming the parameter", async () => {
    expect(expectError(await list("?status=gone"), 400, "INVALID_PARAMETER").message).toContain("status");
    expect(expectError(await list("?limit=51"), 400, "INVALID_PARAMETER").message).toContain("limit");
  });

  it("never shows another account's subscribers", async () => {
    expect(JSON.stringify(expectSuccess(await list("?limit=50", other.key)))).not.toContain("ada@example.com");
  });
});

describe("POST /api/v1/subscribers", () => {
  it("adds an address as active at once (201), then answers it unchanged (200)", async () => {
    const created = expectSuccess(await add({ email: "  New.Reader@Example.COM ", name: " Rita " }), 201).subscriber;
    expect(created).toMatchObject({ email: "new.reader@example.com", name: "Rita", status: "active", source: "api", unsubscribedAt: null });
    expect(created.confirmedAt).toBe(created.createdAt);
    const row = await db().subscriber.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.unsubscribeToken.length).toBeGreaterThanOrEqual(32);
    const again = expectSuccess(await add({ email: "new.reader@example.com", name: "Someone else" }), 200).subscriber;
    expect(again).toEqual(created);
  });

  it("never reactivates an unsubscribed or bounced address", async () => {
    expect(expectSuccess(await add({ email: "Grace@Navy.example" }), 200).subscriber).toMatchObject({ status: "unsubscribed", source: "form" });
    expect(expectSuccess(await add({ email: "edsger@example.com" }), 200).subscriber).toMatchObject({ status: "bounced" });
  });

  it("refuses bad input in the error envelope, naming the field", async () => {
    expect(expectError(await add({ email: "not an address" }), 400, "INVALID_PARAMETER").message).toContain("email");
    expect(expectError(await add({ name: "No address" }), 400, "MISSING_REQUIRED_FIELD").message).toContain("email");
    expect(expectError(await add({ email: "  " }), 400, "MISSING_REQUIRED_FIELD").message).toContain("email");
    expect(expectError(await add({ email: "long@example.com", name: "x".repeat(201) }), 400, "INVALID_PARAMETER").message).toContain("name");
    expect(expectError(await add({ email: 42 }), 400, "INVALID_PARAMETER").message).toContain("email");
  });

  it("refuses past the plan's quota, every status counted (free: 1,000)", async () => {
    const free = await createTestAccount("free");
    await db().subscriber.createMany({
      data: Array.from({ length: 1000 }, (_, i) => ({
        userId: free.id,
        email: `reader-${i}@example.com`,
        status: i % 2 === 0 ? ("active" as const) : ("unsubscribed" as const),
        source: "import" as const,
        unsubscribeToken: randomUUID(),
      })),
    });
    const error = expectError(await add({ email: "one-more@example.com" }, free.key), 413, "QUOTA_EXCEEDED");
    expect(error.details).toContain("1,000");
    // An address already there is still answered: nothing is added.
    expectSuccess(await add({ email: "reader-1@example.com" }, free.key), 200);
    await db().subscriber.deleteMany({ where: { userId: free.id, email: "reader-0@example.com" } });
    expectSuccess(await add({ email: "one-more@example.com" }, free.key), 201);
  });
});

describe("DELETE /api/v1/subscribers/{subscriberId}", () => {
  it("erases the subscriber, answering like the API's other deletes", async () => {
    const { id } = expectSuccess(await add({ email: "leaving@example.com" }), 201).subscriber;
    expect(expectSuccess(await call(`/subscribers/${id}`, { key: owner.key, method: "DELETE" }))).toEqual({ id, deleted: true });
    expect(await db().subscriber.findUnique({ where: { id } })).toBeNull();
    expectError(await call(`/subscribers/${id}`, { key: owner.key, method: "DELETE" }), 404, "RESOURCE_NOT_FOUND");
  });

  it("answers 404 for another account's subscriber, which stays", async () => {
    const theirs = await db().subscriber.findFirstOrThrow({ where: { userId: other.id } });
    expectError(await call(`/subscribers/${theirs.id}`, { key: owner.key, method: "DELETE" }), 404, "RESOURCE_NOT_FOUND");
    expect(await db().subscriber.findUnique({ where: { id: theirs.id } })).not.toBeNull();
  });
});

describe("permissions", () => {
  it("needs read:subscribers to list and write:subscribers to add or delete", async () => {
    const blogsOnly = await createTestKey(owner.id, { permissions: ["read:blogs", "write:blogs", "delete:blogs", "read:analytics"] });
    const readOnly = await createTestKey(owner.id, { permissions: ["read:subscribers"] });
    expect(expectError(await list("", blogsOnly), 403, "INSUFFICIENT_PERMISSIONS").message).toContain("read:subscribers");
    expectSuccess(await list("", readOnly));
    expect(expectError(await add({ email: "x@example.com" }, readOnly), 403, "INSUFFICIENT_PERMISSIONS").message).toContain("write:subscribers");
    const ada = await db().subscriber.findFirstOrThrow({ where: { userId: owner.id, email: "ada@example.com" } });
    expectError(await call(`/subscribers/${ada.id}`, { key: readOnly, method: "DELETE" }), 403, "INSUFFICIENT_PERMISSIONS");
  });
});

describe("the dashboard's procedures", () => {
  it("counts by status, imports a CSV with a report, and exports the list", async () => {
    const account = await createTestAccount("free");
    const cookie = await signIn(account);
    await seed(account.id, [{ email: "kept@example.com", status: "unsubscribed", minutesAgo: 1 }]);
    const csv = [
      "Email Address,First Name,Last Name,MEMBER_RATING,OPTIN_TIME,UNSUB_TIME",
      "one@example.com,One,Reader,2,2024-01-01 10:00:00,",
      "KEPT@example.com,Kept,,2,2024-01-01 10:00:00,",
      "nope,Bad,,2,,",
      "gone@example.com,Gone,,1,2024-01-01 10:00:00,2024-03-01 10:00:00",
      "one@example.com,Twice,,2,,",
    ].join("\r\n");
    const report = (await trpc(cookie, "subscribers.import", { csv })).body.result.data;
    expect(report).toEqual({
      layout: "mailchimp",
      added: 1,
      addedUnsubscribed: 1,
      alreadyThere: 1,
      skipped: [
        { line: 4, email: "nope", reason: "invalid address" },
        { line: 6, email: "one@example.com", reason: "duplicate in file" },
      ],
    });
    expect((await trpc(cookie, "subscribers.counts")).body.result.data).toEqual({
      counts: { pending: 0, active: 1, unsubscribed: 2, bounced: 0, total: 3 },
      quota: 1000,
    });
    const exported: string = (await trpc(cookie, "subscribers.export")).body.result.data.csv;
    const lines = exported.trim().split("\n");
    expect(lines[0]).toBe("email,name,status,source,created_at,confirmed_at,unsubscribed_at");
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 4).join(",")).sort()).toEqual([
      "gone@example.com,Gone,unsubscribed,import",
      "kept@example.com,,unsubscribed,form",
      "one@example.com,One Reader,active,import",
    ]);
  });

  it("refuses a file that is no subscriber list, naming the file", async () => {
    const cookie = await signIn(await createTestAccount());
    const answer = await trpc(cookie, "subscribers.import", { csv: "title,body\nHello,World\n" });
    expect(answer.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field: "file" });
  });
});
