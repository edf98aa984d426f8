// The audit log records every change with its actor (docs/audit-log.md): through an API key, the
// dashboard, the CLI and a job (scheduled publishing), with the request's id, address and user
// agent, the names of the changed fields and never a secret; in the change's own transaction.
import { isIP } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { signIn, trpc } from "../support/dashboard";
import { actingAs } from "~/server/audit/context";
import { entriesFor, entriesOf, eventually } from "./support";

vi.setConfig({ testTimeout: 120_000 });

let account: TestAccount;
let cookie: string;
let tempDir: string;

beforeAll(async () => {
  account = await createTestAccount();
  cookie = await signIn(account);
  tempDir = await mkdtemp(join(tmpdir(), "blogmgr-audit-"));
});

afterAll(async () => {
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
});

const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json", "user-agent": "audit-test/1.0" }, body: JSON.stringify(body) });

describe("a blog change", () => {
  it("through an API key: the key, its request's id, address and user agent, and the fields", async () => {
    const created = await call("/blogs", { key: account.key, ...json({ title: "Via key", content: "Body" }) });
    expect(created.status).toBe(201);
    const blogId: string = created.json.data.blog.id;
    const patched = await call(`/blogs/${blogId}`, {
      key: account.key,
      method: "PATCH",
      headers: { "content-type": "application/json", "user-agent": "audit-test/1.0" },
      body: JSON.stringify({ title: "Via key, again", seoTitle: "SEO" }),
    });
    expect(patched.status).toBe(200);
    const keyRow = await db().apiKey.findFirstOrThrow({ where: { userId: account.id }, select: { id: true, name: true } });

    const [create, update] = await entriesFor(account.id, blogId);
    expect(create).toMatchObject({ actorKind: "api_key", actorId: keyRow.id, actorName: keyRow.name, action: "blog.created", targetType: "blog", userAgent: "audit-test/1.0" });
    expect(create!.requestId).toBe(created.headers.get("x-request-id"));
    expect(update).toMatchObject({ actorKind: "api_key", actorId: keyRow.id, action: "blog.updated", changedFields: ["seoTitle", "title"] });
    expect(update!.requestId).toBe(patched.headers.get("x-request-id"));
    expect(isIP(update!.ip ?? "")).not.toBe(0);
  });

  it("through the dashboard: the member, by name, with the request's id", async () => {
    const created = await call("/blogs", { key: account.key, ...json({ title: "Via dashboard" }) });
    const blogId: string = created.json.data.blog.id;
    const answer = await trpc(cookie, "blogs.update", { blogId, description: "Set in the dashboard", isPublic: true }, { headers: { "user-agent": "dashboard-browser" } });
    expect(answer.status).toBe(200);
    const entries = await entriesFor(account.id, blogId);
    expect(entries.map((e) => e.action)).toEqual(["blog.created", "blog.published"]);
    const user = await db().user.findUniqueOrThrow({ where: { email: account.email }, select: { id: true, name: true } });
    expect(entries[1]).toMatchObject({ actorKind: "member", actorId: user.id, userAgent: "dashboard-browser", requestId: answer.headers.get("x-request-id") });
    expect(entries[1]!.actorName).toBeTruthy();
    expect(entries[1]!.changedFields).toEqual(expect.arrayContaining(["description", "isPublic", "publishedAt", "status"]));
  });

  it("through the CLI: the command, no request", async () => {
    const file = join(tempDir, "blogs.json");
    await writeFile(file, JSON.stringify([{ title: "Via CLI", blogSlug: `via-cli-${Date.now()}` }]));
    const run = await runCli(["blogs", "import", "--email", account.email, "--file", file], { DATABASE_URL: process.env.DATABASE_URL! });
    expect(run.code, run.stderr).toBe(0);
    const blog = await db().blog.findFirstOrThrow({ where: { userId: account.id, title: "Via CLI" }, select: { id: true } });
    const [entry] = await entriesFor(account.id, blog.id);
    expect(entry).toMatchObject({ actorKind: "cli", actorName: "cli blogs import", action: "blog.created", requestId: null, ip: null });
  });

  it("by a job (scheduled publishing): the job, by name", async () => {
    const publishAt = new Date(Date.now() + 1_500).toISOString();
    const created = await call("/blogs", { key: account.key, ...json({ title: "Scheduled", publishAt }) });
    expect(created.status).toBe(201);
    const blogId: string = created.json.data.blog.id;
    const entries = await eventually(() => entriesFor(account.id, blogId), (rows) => rows.some((row) => row.action === "blog.published"));
    expect(entries[0]).toMatchObject({ actorKind: "api_key", action: "blog.created" });
    const published = entries.find((row) => row.action === "blog.published")!;
    expect(published.actorKind).toBe("job");
    expect(["blog_publish", "blog_publish_catch_up"]).toContain(published.actorName);
    expect(published.actorId).toMatch(/^\d+$/);
    expect(published.changedFields).toEqual(expect.arrayContaining(["isPublic", "publishAt", "publishedAt", "status"]));
  });
});

describe("in the change's own transaction", () => {
  it("is there with the change, seen by no one else before the commit, and gone with a rollback", async () => {
    const [blog] = await db().blog.findMany({ where: { userId: account.id }, take: 1, select: { id: true } });
    const before = (await entriesFor(account.id, blog!.id)).length;
    const outside = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await outside.connect();
    try {
      await expect(
        actingAs({ kind: "member", id: "someone", name: "Someone" }, () =>
          db().$transaction(async (tx) => {
            await tx.blog.update({ where: { id: blog!.id }, data: { title: "Never kept" } });
            const inside = await tx.auditLog.findMany({ where: { targetId: blog!.id }, orderBy: { id: "desc" }, take: 1 });
            expect(inside[0]).toMatchObject({ actorKind: "member", actorId: "someone", action: "blog.updated", changedFields: ["title"] });
            const seen = await outside.query(`SELECT count(*)::int AS n FROM "audit_log" WHERE "targetId" = $1`, [blog!.id]);
            expect(seen.rows[0].n).toBe(before);
            throw new Error("rolled back");
          }),
        ),
      ).rejects.toThrow("rolled back");
    } finally {
      await outside.end();
    }
    expect(await entriesFor(account.id, blog!.id)).toHaveLength(before);
    const kept = await db().blog.findUniqueOrThrow({ where: { id: blog!.id }, select: { title: true } });
    expect(kept.title).not.toBe("Never kept");
  });

  it("a lone write outside any transaction gets one of its own, named", async () => {
    const [blog] = await db().blog.findMany({ where: { userId: account.id }, take: 1, select: { id: true } });
    // Awaited inside: a Prisma query runs when awaited, and only there is the actor known.
    await actingAs({ kind: "cli", name: "a test" }, async () => {
      await db().blog.update({ where: { id: blog!.id }, data: { seoDescription: "lone" } });
    });
    const last = (await entriesFor(account.id, blog!.id)).at(-1);
    expect(last).toMatchObject({ actorKind: "cli", actorName: "a test", changedFields: ["seoDescription"] });
  });

  it("a write the app does not name is the database's", async () => {
    const [blog] = await db().blog.findMany({ where: { userId: account.id }, take: 1, select: { id: true } });
    await db().$executeRaw`UPDATE "blog" SET "seoDescription" = 'raw' WHERE "id" = ${blog!.id}`;
    const last = (await entriesFor(account.id, blog!.id)).at(-1);
    expect(last).toMatchObject({ actorKind: "database", actorId: null, changedFields: ["seoDescription"] });
  });
});

describe("secrets", () => {
  it("are never named nor stored: keys made and rolled, webhooks made and their secret rolled", async () => {
    const key = await trpc(cookie, "keys.create", { name: "secret-check", permissions: ["read:blogs"] });
    expect(key.status).toBe(200);
    const plainKey: string = key.body.result.data.key;
    const rolled = await trpc(cookie, "keys.roll", { id: key.body.result.data.id });
    expect(rolled.status).toBe(200);
    const hook = await trpc(cookie, "webhooks.create", { url: "http://127.0.0.1:9/hook", eventTypes: ["blog.created"] });
    expect(hook.status).toBe(200);
    const hookSecret: string = hook.body.result.data.secret;
    expect((await trpc(cookie, "webhooks.rollSecret", { id: hook.body.result.data.id })).status).toBe(200);
    expect((await call("/subscribers", { key: account.key, ...json({ email: `reader-${Date.now()}@example.test` }) })).status).toBe(201);

    const entries = await entriesOf(account.id);
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["api_key.created", "api_key.rolled", "webhook.created", "webhook.secret_rolled", "subscriber.created"]));
    const keyHashes = (await db().apiKey.findMany({ where: { userId: account.id }, select: { keyHash: true } })).map((k) => k.keyHash);
    const named = new Set(entries.flatMap((e) => e.changedFields));
    for (const secret of ["keyHash", "secret", "confirmTokenHash", "unsubscribeToken", "domainToken", "password", "token"]) expect(named).not.toContain(secret);
    const stored = JSON.stringify(entries, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    for (const value of [plainKey, hookSecret, ...keyHashes]) expect(stored).not.toContain(value);
    // A secret rolled is recorded by its action alone: the column is never named.
    expect(entries.find((e) => e.action === "webhook.secret_rolled")?.changedFields).toEqual([]);
  });
});
