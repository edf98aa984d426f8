// A post's email to subscribers over HTTP (docs/newsletters.md, Emailing a post): the blog's
// emailSubscribers (default false, writable until the blog has been public) and read-only
// emailedAt, and GET /blogs/{id}/newsletter. The sending itself is the newsletter_send job's.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { expectError, expectSuccess } from "./expect";

let account: TestAccount;

const json = (method: string, body: unknown) => ({ method, key: account.key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const create = async (body: Record<string, unknown>) => expectSuccess(await call("/blogs", json("POST", body)), 201).blog;
const patch = (id: string, body: unknown) => call(`/blogs/${id}`, json("PATCH", body));
const newsletterOf = async (id: string, key = account.key) => expectSuccess(await call(`/blogs/${id}/newsletter`, { key })).newsletter;
const NONE = { status: "none", total: 0, sent: 0, failed: 0, startedAt: null, finishedAt: null };

/** `count` active subscribers of the account, confirmed a minute ago, as the subscribe flow leaves them. */
async function seedActiveSubscribers(accountId: string, count: number): Promise<void> {
  const confirmedAt = new Date(Date.now() - 60_000);
  await db().subscriber.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      userId: accountId,
      email: `reader-${i}-${randomUUID()}@example.test`,
      status: "active" as const,
      source: "api" as const,
      confirmedAt,
      unsubscribeToken: randomUUID(),
    })),
  });
}

beforeAll(async () => {
  account = await createTestAccount();
});

describe("emailSubscribers and emailedAt", () => {
  it("default to false and null, and emailSubscribers is set on create and changed by an update before publication", async () => {
    const plain = await create({ title: "Plain" });
    expect(plain).toMatchObject({ emailSubscribers: false, emailedAt: null });
    const asked = await create({ title: "Asked", emailSubscribers: true });
    expect(asked).toMatchObject({ emailSubscribers: true, emailedAt: null });
    expect(expectSuccess(await patch(plain.id, { emailSubscribers: true })).blog.emailSubscribers).toBe(true);
    expect(expectSuccess(await patch(plain.id, { emailSubscribers: false })).blog.emailSubscribers).toBe(false);
    // Scheduled is not yet public: still writable.
    const scheduled = expectSuccess(await patch(asked.id, { publishAt: new Date(Date.now() + 3_600_000).toISOString(), emailSubscribers: false })).blog;
    expect(scheduled).toMatchObject({ status: "scheduled", emailSubscribers: false });
    expect(expectSuccess(await call(`/blogs/${asked.id}`, { key: account.key })).blog.emailSubscribers).toBe(false);
  });

  it("refuses anything but a boolean, naming the field", async () => {
    for (const value of ["yes", 1, null]) {
      const error = expectError(await call("/blogs", json("POST", { title: "Odd", emailSubscribers: value })), 400, "INVALID_PARAMETER");
      expect(error.message).toBe("Invalid parameter: emailSubscribers");
    }
  });

  it("refuses a change once the blog has been published, accepting the same value; emailedAt is read-only", async () => {
    const blog = await create({ title: "Published without email", isPublic: true });
    expect(blog).toMatchObject({ status: "published", emailSubscribers: false, emailedAt: null });
    const refused = expectError(await patch(blog.id, { emailSubscribers: true }), 400, "INVALID_PARAMETER");
    expect(refused).toMatchObject({ message: "Invalid parameter: emailSubscribers" });
    expect(refused.details).toContain("already been published");
    expectSuccess(await patch(blog.id, { emailSubscribers: false, title: "Same choice" }));
    // Unpublished, it has still been public: republishing never sends.
    expectSuccess(await patch(blog.id, { isPublic: false }));
    expectError(await patch(blog.id, { emailSubscribers: true }), 400, "INVALID_PARAMETER");
    const stored = await db().blog.findUniqueOrThrow({ where: { id: blog.id } });
    expect(stored).toMatchObject({ emailSubscribers: false, emailedAt: null, title: "Same choice" });
    const forged = expectError(await patch(blog.id, { emailedAt: "2001-02-03T04:05:06.000Z" }), 400, "INVALID_PARAMETER");
    expect(forged.message).toBe("Invalid parameter: emailedAt");
    expectSuccess(await patch(blog.id, { emailedAt: null, title: "Sent back" }));
  });
});

describe("GET /api/v1/blogs/{id}/newsletter", () => {
  it("answers none for a blog never emailed, and 404 for an unknown blog, another account's or one without API access", async () => {
    const blog = await create({ title: "Never emailed", emailSubscribers: true });
    expect(await newsletterOf(blog.id)).toEqual(NONE);
    expectError(await call("/blogs/nope/newsletter", { key: account.key }), 404, "RESOURCE_NOT_FOUND");
    const other = await createTestAccount();
    expectError(await call(`/blogs/${blog.id}/newsletter`, { key: other.key }), 404, "RESOURCE_NOT_FOUND");
    await db().blog.update({ where: { id: blog.id }, data: { allowApiAccess: false } });
    expectError(await call(`/blogs/${blog.id}/newsletter`, { key: account.key }), 404, "RESOURCE_NOT_FOUND");
  });

  it("needs read:analytics", async () => {
    const blog = await create({ title: "Permission" });
    const reader = await createTestKey(account.id, { permissions: ["read:blogs"] });
    expectError(await call(`/blogs/${blog.id}/newsletter`, { key: reader }), 403, "INSUFFICIENT_PERMISSIONS");
    const analyst = await createTestKey(account.id, { permissions: ["read:analytics"] });
    expect(await newsletterOf(blog.id, analyst)).toEqual(NONE);
  });

  it("starts sending when a blog asking for it first becomes public: emailedAt set, the newsletter's total the active subscribers; one blog.published, no blog.updated", async () => {
    await seedActiveSubscribers(account.id, 3);
    await db().subscriber.create({ data: { userId: account.id, email: `pending-${randomUUID()}@example.test`, status: "pending", source: "form", unsubscribeToken: randomUUID() } });
    // An endpoint that records the events (its deliveries go nowhere).
    await createWebhookEndpoint(db(), { accountId: account.id, url: "http://127.0.0.1:9/hooks", eventTypes: ["blog.updated", "blog.published"] });
    const blog = await create({ title: "Emailed", emailSubscribers: true });
    const before = Date.now();
    const published = expectSuccess(await patch(blog.id, { isPublic: true })).blog;
    expect(published).toMatchObject({ status: "published", emailSubscribers: true });
    expect(Date.parse(published.emailedAt)).toBeGreaterThanOrEqual(before - 1000);
    const newsletter = await newsletterOf(blog.id);
    expect(newsletter).toMatchObject({ status: "sending", total: 3, failed: 0, startedAt: published.emailedAt, finishedAt: null });
    expect(newsletter.sent).toBeLessThanOrEqual(3);
    const events = (await db().webhookEvent.findMany({ where: { userId: account.id }, select: { type: true, data: true } })).filter(
      (event) => (event.data as { id?: string }).id === blog.id,
    );
    expect(events.map((event) => event.type)).toEqual(["blog.published"]);
    expect(events[0]!.data).toMatchObject({ id: blog.id, emailSubscribers: true, emailedAt: published.emailedAt });

    // Sent: the choice is closed, and unpublishing and republishing keep the one emailedAt.
    const refused = expectError(await patch(blog.id, { emailSubscribers: false }), 400, "INVALID_PARAMETER");
    expect(refused.details).toContain("already been emailed");
    expectSuccess(await patch(blog.id, { isPublic: false }));
    const again = expectSuccess(await patch(blog.id, { isPublic: true })).blog;
    expect(again.emailedAt).toBe(published.emailedAt);
    expect(await db().newsletter.count({ where: { blogId: blog.id } })).toBe(1);
  });
});
