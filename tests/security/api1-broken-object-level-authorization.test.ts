import { beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTES } from "~/server/api/rest/routes";
import { expectError, expectSuccess } from "../api/expect";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs, seedImage, type ApiResponse, type TestAccount } from "../support/api";
import * as fixtures from "../images/fixtures";
import { API_KEY_PROCEDURES, DASHBOARD_PROCEDURES, signIn, trpc, type TrpcAnswer } from "../support/dashboard";
import { expectUnchanged } from "../support/stored-objects";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { EMPTY_IMPORT_REPORT } from "~/shared/imports";
import { zipOf } from "../imports/sources";

/**
 * OWASP API1:2023 Broken Object Level Authorization. Two accounts, Ann and Bob: every operation
 * that names an object (REST under /api/v1 with Bob's key, the dashboard's /api/trpc with Bob's
 * session) treats Ann's objects as nonexistent (404), and Ann's rows are unchanged afterwards,
 * read back from the database. Operations that name no object are scoped to the caller. The
 * case tables are checked against the router itself, so a new operation without a case fails.
 */

let ann: TestAccount;
let bob: TestAccount;
let bobCookie: string;
/** Ann's blogs: with API access (three, for a cursor), and one with API access off. */
let annBlogs: string[];
let annBlog: string;
let annHidden: string;
let annKeyId: string;
let bobSameSlugBlog: string;
let annEndpointId: string;
let annDeliveryId: string;
let annRevision: string;
let annPreviewLink: string;
let annImage: string;
let annSubscriber: string;
let annImport: string;
/** A member of Ann's publication (a person of their own), and an invitation of hers, pending. */
let annMemberId: string;
let annInvitationId: string;

const SHARED_SLUG = "shared-slug";
const ANN_ONLY_SLUG = "ann-only-slug";
const HIDDEN_SLUG = "ann-hidden-slug";
const ANN_ONLY_TAG = "Ann only tag";
const ANN_PUBLICATION = "Ann's private gazette";
const ANN_DOMAIN = "gazette-of-ann.example.test";
const ANN_READER = "reader-of-ann@example.test";

beforeAll(async () => {
  [ann, bob] = await Promise.all([createTestAccount("pro"), createTestAccount("free")]);
  bobCookie = await signIn(bob);
  annBlogs = await seedBlogs(ann.id, [
    { title: "Ann's shared slug", blogSlug: SHARED_SLUG },
    { title: "Ann's only post", blogSlug: ANN_ONLY_SLUG, isPublic: false },
    { title: "Ann's public post", isPublic: true },
  ]);
  annBlog = annBlogs[1]!;
  annHidden = (await seedBlogs(ann.id, [{ title: "Ann's hidden draft", blogSlug: HIDDEN_SLUG, allowApiAccess: false, isPublic: true }]))[0]!;
  bobSameSlugBlog = (await seedBlogs(bob.id, [{ title: "Bob's shared slug", blogSlug: SHARED_SLUG }]))[0]!;
  await db().blog.update({ where: { id: annBlog }, data: { tags: [ANN_ONLY_TAG] } });
  annRevision = (await db().blogRevision.findFirstOrThrow({ where: { blogId: annBlog }, select: { id: true } })).id;
  annPreviewLink = (await db().previewLink.create({ data: { blogId: annBlog, tokenHash: `api1-${ann.id}`, expiresAt: new Date(Date.now() + 3_600_000) } })).id;
  annKeyId = (await db().apiKey.findFirstOrThrow({ where: { userId: ann.id }, select: { id: true } })).id;
  // An endpoint no change of this test notifies, with one delivery that is never queued.
  annEndpointId = (await createWebhookEndpoint(db(), { accountId: ann.id, url: "http://127.0.0.1:9/hooks", eventTypes: ["api_key.expiring"] })).id;
  const event = await db().webhookEvent.create({ data: { id: `msg_api1${ann.id}`, userId: ann.id, type: "api_key.expiring", data: { id: annKeyId }, dispatchedAt: new Date() } });
  annDeliveryId = (await db().webhookDelivery.create({ data: { eventId: event.id, endpointId: annEndpointId } })).id;
  annImage = await seedImage(ann.id);
  // Ann's audience (active and confirmed: her public post's newsletter below is under way to it).
  annSubscriber = (await db().subscriber.create({ data: { userId: ann.id, email: ANN_READER, status: "active", source: "api", confirmedAt: new Date(), unsubscribeToken: `api1-${ann.id}` } })).id;
  await db().publication.create({ data: { userId: ann.id, title: ANN_PUBLICATION, domain: ANN_DOMAIN, domainToken: `blogmgr-verify=${ann.id}` } });
  // Readers of Ann's post, today (UTC), as the views batch writes them.
  const today = new Date(new Date().toISOString().slice(0, 10));
  await db().blogViewDaily.create({ data: { userId: ann.id, day: today, blogId: annBlog, views: 3 } });
  await db().referrerViewDaily.create({ data: { userId: ann.id, day: today, host: "ann-fans.example", views: 3 } });
  await db().newsletter.create({ data: { blogId: annBlogs[2]!, userId: ann.id, total: 1 } });
  // An import of Ann's, finished, that made her public post (undoing it would delete the post).
  annImport = (await db().import.create({ data: { userId: ann.id, format: "markdown", fileName: "ann.zip", fileBytes: 100, status: "done", report: EMPTY_IMPORT_REPORT, finishedAt: new Date() } })).id;
  await db().blog.update({ where: { id: annBlogs[2]! }, data: { importId: annImport, importSourceId: "markdown:ann.md" } });
  const annWriter = await createTestAccount("free");
  annMemberId = (await db().member.create({ data: { id: `api1-member-${ann.id}`, organizationId: ann.id, userId: annWriter.id, role: "author" } })).id;
  annInvitationId = (
    await db().invitation.create({
      data: { id: `api1-invitation-${ann.id}`, organizationId: ann.id, email: "invited-by-ann@example.test", role: "editor", inviterId: ann.id, expiresAt: new Date(Date.now() + 86_400_000) },
    })
  ).id;
});

/** The bytes Bob's images take, as the database has them. */
async function bobStorage(): Promise<number> {
  return (await db().image.aggregate({ where: { userId: bob.id }, _sum: { storedBytes: true } }))._sum.storedBytes ?? 0;
}

/** Runs `attack` and checks that none of Ann's stored objects changed. */
const leavesAnnUnchanged = (attack: () => Promise<void>) => expectUnchanged(ann.id, attack);

const blogPath = (template: string, id: string) => template.replace("{blogId}", id);
const bodyFor = (method: string) => (["POST", "PUT", "PATCH"].includes(method) ? JSON.stringify({ title: "Taken over", isPublic: true }) : undefined);
const jsonHeaders = { "content-type": "application/json" };

function expectNotFound(response: ApiResponse): void {
  expectError(response, 404, "RESOURCE_NOT_FOUND");
}

function expectTrpcNotFound(answer: TrpcAnswer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(404);
  expect(answer.body.error.data.code).toBe("NOT_FOUND");
}

/** Every blog id of `account` the API lists, all pages. */
async function listedIds(key: string, query = ""): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const data = expectSuccess(await call(`/blogs?limit=50&page=${page}${query}`, { key }));
    ids.push(...data.blogs.map((b: { id: string }) => b.id));
    if (!data.pagination.hasNext) return ids;
  }
}

/** A REST operation attacked with Bob's key: what Bob gets, and what must hold afterwards. */
const REST_CASES: Record<string, () => Promise<void>> = {
  "GET /openapi.json": async () => {
    // Names no object: one document for everyone, nothing of any caller in it.
    const [anonymous, asAnn, asBob] = await Promise.all([call("/openapi.json"), call("/openapi.json", { key: ann.key }), call("/openapi.json", { key: bob.key })]);
    expect(asAnn.body).toEqual(anonymous.body);
    expect(asBob.body).toEqual(anonymous.body);
    expect(JSON.stringify(anonymous.body)).not.toContain(ann.id);
  },
  "GET /blogs": async () => {
    const ids = [...(await listedIds(bob.key)), ...(await listedIds(bob.key, "&public=true")), ...(await listedIds(bob.key, "&from=2000-01-01&to=2100-01-01"))];
    expect(ids).toContain(bobSameSlugBlog);
    for (const id of [...annBlogs, annHidden]) expect(ids).not.toContain(id);
    // Ann's cursor names a position in Ann's list; in Bob's hands it reads Bob's list only.
    const annFirst = expectSuccess(await call("/blogs?limit=1", { key: ann.key }));
    expect(annFirst.pagination.nextCursor).toEqual(expect.any(String));
    const withAnnCursor = await call(`/blogs?cursor=${annFirst.pagination.nextCursor}`, { key: bob.key });
    if (withAnnCursor.status === 200) {
      for (const blog of withAnnCursor.json.data.blogs) expect(annBlogs).not.toContain(blog.id);
    } else {
      expectError(withAnnCursor, 400, "INVALID_PARAMETER");
    }
  },
  "GET /blogs/{blogId}": async () => {
    for (const id of [annBlog, annHidden]) expectNotFound(await call(`/blogs/${id}`, { key: bob.key }));
  },
  "GET /blogs/slug/{blogSlug}": async () => {
    for (const slug of [ANN_ONLY_SLUG, HIDDEN_SLUG]) expectNotFound(await call(`/blogs/slug/${slug}`, { key: bob.key }));
    // A slug both accounts use names Bob's own blog for Bob.
    expect(expectSuccess(await call(`/blogs/slug/${SHARED_SLUG}`, { key: bob.key })).blog.id).toBe(bobSameSlugBlog);
  },
  "POST /blogs": async () => {
    // An owner field in the body is not how a blog's account is chosen: the key's account is.
    const created = expectSuccess(
      await call("/blogs", { key: bob.key, method: "POST", headers: jsonHeaders, body: JSON.stringify({ title: "Planted", userId: ann.id, user: { connect: { id: ann.id } } }) }),
      201,
    );
    expect((await db().blog.findUniqueOrThrow({ where: { id: created.blog.id } })).userId).toBe(bob.id);
    // An Idempotency-Key is the caller's own: Ann's key replays nothing of Ann's to Bob.
    const idempotent = { method: "POST", headers: { ...jsonHeaders, "idempotency-key": `owasp-api1-${ann.id}` }, body: JSON.stringify({ title: "Same request" }) };
    const annCreated = expectSuccess(await call("/blogs", { key: ann.key, ...idempotent }), 201);
    const bobAnswer = await call("/blogs", { key: bob.key, ...idempotent });
    const bobCreated = expectSuccess(bobAnswer, 201);
    expect(bobAnswer.headers.get("idempotent-replayed")).toBeNull();
    expect(bobCreated.blog.id).not.toBe(annCreated.blog.id);
    expect((await db().blog.findUniqueOrThrow({ where: { id: bobCreated.blog.id } })).userId).toBe(bob.id);
    await db().blog.delete({ where: { id: annCreated.blog.id } });
  },
  "PUT /blogs/{blogId}": () => bobWritesAnnsBlogs("PUT", "/blogs/{blogId}"),
  "PATCH /blogs/{blogId}": () => bobWritesAnnsBlogs("PATCH", "/blogs/{blogId}"),
  "DELETE /blogs/{blogId}": () => bobWritesAnnsBlogs("DELETE", "/blogs/{blogId}"),
  "GET /analytics": async () => {
    expectSuccess(await call("/blogs", { key: ann.key }));
    const data = expectSuccess(await call("/analytics", { key: bob.key }));
    const bobKeyIds = (await db().apiKey.findMany({ where: { userId: bob.id }, select: { id: true } })).map((k) => k.id);
    for (const row of data.byKey) expect(bobKeyIds).toContain(row.keyId);
    expect(JSON.stringify(data)).not.toContain(annKeyId);
  },
  "GET /blogs/{blogId}/revisions": async () => {
    for (const id of [annBlog, annHidden]) expectNotFound(await call(`/blogs/${id}/revisions`, { key: bob.key }));
  },
  "GET /blogs/{blogId}/revisions/{revisionId}": async () => {
    // Neither through Ann's blog nor through Bob's own.
    for (const id of [annBlog, bobSameSlugBlog]) expectNotFound(await call(`/blogs/${id}/revisions/${annRevision}`, { key: bob.key }));
  },
  "POST /blogs/{blogId}/revisions/{revisionId}/restore": async () => {
    for (const id of [annBlog, bobSameSlugBlog]) {
      expectNotFound(await call(`/blogs/${id}/revisions/${annRevision}/restore`, { key: bob.key, method: "POST" }));
    }
  },
  "GET /blogs/{blogId}/newsletter": async () => {
    for (const id of [annBlogs[2]!, annHidden]) expectNotFound(await call(`/blogs/${id}/newsletter`, { key: bob.key }));
  },
  "POST /imports": async () => {
    // Whatever the body or query names, the import is Bob's.
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await zipOf({ "_posts/2026-01-01-bob.md": "---\ntitle: Bob's\n---\nHi.\n" }))]), "bob.zip");
    form.set("userId", ann.id);
    const answer = await call(`/imports?userId=${ann.id}`, { key: bob.key, method: "POST", body: form as never });
    expect((await db().import.findUniqueOrThrow({ where: { id: expectSuccess(answer, 202).import.id } })).userId).toBe(bob.id);
  },
  "GET /imports/{importId}": async () => expectNotFound(await call(`/imports/${annImport}`, { key: bob.key })),
  "GET /publication": async () => {
    const mine = expectSuccess(await call("/publication", { key: bob.key })).publication;
    expect(mine.title).toBe((await db().user.findUniqueOrThrow({ where: { id: bob.id } })).name);
    expect(JSON.stringify(mine)).not.toContain(ANN_PUBLICATION);
  },
  "GET /views": async () => {
    const data = expectSuccess(await call("/views", { key: bob.key }));
    expect(data.total).toBe(0);
    expect(JSON.stringify(data)).not.toContain(annBlog);
  },
  "GET /tags": async () => {
    expect(expectSuccess(await call("/tags", { key: ann.key })).tags.map((t: { name: string }) => t.name)).toContain(ANN_ONLY_TAG);
    expect(JSON.stringify(expectSuccess(await call("/tags", { key: bob.key })))).not.toContain(ANN_ONLY_TAG);
  },
  "POST /images": async () => {
    // Whatever the body or query names, the image is Bob's.
    const answer = await call(`/images?userId=${ann.id}`, { key: bob.key, method: "POST", headers: { "content-type": "image/png" }, body: (await fixtures.png()) as never });
    expect((await db().image.findUniqueOrThrow({ where: { id: expectSuccess(answer, 201).image.id } })).userId).toBe(bob.id);
  },
  "GET /images": async () => {
    expect(JSON.stringify(expectSuccess(await call("/images?limit=50", { key: bob.key })))).not.toContain(annImage);
  },
  "GET /images/{imageId}": async () => expectNotFound(await call(`/images/${annImage}`, { key: bob.key })),
  "DELETE /images/{imageId}": async () => expectNotFound(await call(`/images/${annImage}`, { key: bob.key, method: "DELETE" })),
  "GET /subscribers": async () => {
    expect(JSON.stringify(expectSuccess(await call(`/subscribers?limit=50&q=${ANN_READER}`, { key: bob.key })))).not.toContain(annSubscriber);
  },
  "POST /subscribers": async () => {
    // Ann's reader's address, added by Bob, is Bob's own new subscriber; Ann's is untouched.
    const answer = await call(`/subscribers?userId=${ann.id}`, { key: bob.key, method: "POST", headers: jsonHeaders, body: JSON.stringify({ email: ANN_READER }) });
    const subscriber = expectSuccess(answer, 201).subscriber;
    expect(subscriber.id).not.toBe(annSubscriber);
    expect((await db().subscriber.findUniqueOrThrow({ where: { id: subscriber.id } })).userId).toBe(bob.id);
  },
  "DELETE /subscribers/{subscriberId}": async () => expectNotFound(await call(`/subscribers/${annSubscriber}`, { key: bob.key, method: "DELETE" })),
  "GET /audit-log": async () => {
    // Names no object: whatever the filters or cursor name, only Bob's own entries.
    const annEntry = (await db().auditLog.findFirstOrThrow({ where: { userId: ann.id }, orderBy: { id: "desc" } })).id;
    for (const query of ["", `&actor=${annKeyId}`, "&action=blog", `&cursor=${annEntry + 1n}`, `&userId=${ann.id}`]) {
      const text = JSON.stringify(expectSuccess(await call(`/audit-log?limit=100${query}`, { key: bob.key })));
      for (const id of [...annBlogs, annKeyId, annSubscriber, annImport]) expect(text).not.toContain(id);
    }
  },
  "GET /rate_limit": async () => {
    // Names no object: Bob sees his own account's budget (free), untouched by Ann's requests (pro).
    const before = expectSuccess(await call("/rate_limit", { key: bob.key }));
    expectSuccess(await call("/blogs", { key: ann.key }));
    const after = expectSuccess(await call("/rate_limit", { key: bob.key }));
    expect([before.plan, before.limit]).toEqual(["free", 100]);
    expect(after.used).toBe(before.used);
  },
};

async function bobWritesAnnsBlogs(method: string, template: string): Promise<void> {
  for (const id of [annBlog, annHidden]) {
    expectNotFound(await call(blogPath(template, id), { key: bob.key, method, headers: jsonHeaders, body: bodyFor(method) }));
  }
}

describe("REST (/api/v1) with another account's key", () => {
  it("has a case for every operation the API serves", () => {
    expect(Object.keys(REST_CASES).sort()).toEqual(REST_ROUTES.map((r) => `${r.method} ${r.template}`).sort());
  });

  it.each(Object.keys(REST_CASES))("%s: Ann's objects do not exist for Bob, and stay unchanged", async (operation) => {
    await leavesAnnUnchanged(REST_CASES[operation]!);
  });
});

/** A dashboard procedure called with Bob's session on Ann's objects, or scoped to Bob when it names none. */
const DASHBOARD_CASES: Record<string, () => Promise<void>> = {
  "blogs.editor.create": async () => {
    const answer = await trpc(bobCookie, "blogs.editor.create", { title: "Planted by the editor", id: annBlog, userId: ann.id, editSession: "bob-session" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const created = answer.body.result.data.data.blog;
    expect(created.id).not.toBe(annBlog);
    expect((await db().blog.findUniqueOrThrow({ where: { id: created.id } })).userId).toBe(bob.id);
  },
  "blogs.editor.update": async () => {
    for (const blogId of [annBlog, annHidden]) {
      expectTrpcNotFound(await trpc(bobCookie, "blogs.editor.update", { blogId, title: "Taken over", editSession: "bob-session" }));
    }
  },
  "blogs.previews.create": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.previews.create", { blogId }));
  },
  "blogs.previews.list": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.previews.list", { blogId }));
  },
  "blogs.previews.revoke": async () => {
    // Neither through Ann's blog nor through Bob's own.
    for (const blogId of [annBlog, bobSameSlugBlog]) {
      expectTrpcNotFound(await trpc(bobCookie, "blogs.previews.revoke", { blogId, previewId: annPreviewLink }));
    }
  },
  "members.list": async () => {
    const listed = (await trpc(bobCookie, "members.list")).body.result.data;
    expect(listed.publication.id).toBe(bob.id);
    expect(listed.members.map((m: { id: string }) => m.id)).not.toContain(annMemberId);
    expect(listed.invitations.map((i: { id: string }) => i.id)).not.toContain(annInvitationId);
  },
  "members.invite": async () => {
    const answer = await trpc(bobCookie, "members.invite", { email: "invited-by-bob@example.test", role: "author" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await db().invitation.findUniqueOrThrow({ where: { id: answer.body.result.data.id } })).organizationId).toBe(bob.id);
  },
  "members.revokeInvitation": async () => expectTrpcNotFound(await trpc(bobCookie, "members.revokeInvitation", { invitationId: annInvitationId })),
  "members.changeRole": async () => expectTrpcNotFound(await trpc(bobCookie, "members.changeRole", { memberId: annMemberId, role: "administrator" })),
  "members.remove": async () => expectTrpcNotFound(await trpc(bobCookie, "members.remove", { memberId: annMemberId })),
  "members.transferOwnership": async () => expectTrpcNotFound(await trpc(bobCookie, "members.transferOwnership", { memberId: annMemberId, password: "password-123" })),
  "members.publications": async () => {
    expect((await trpc(bobCookie, "members.publications")).body.result.data.map((p: { id: string }) => p.id)).toEqual([bob.id]);
  },
  "members.switchPublication": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "members.switchPublication", { publicationId: ann.id }));
    expect((await trpc(bobCookie, "members.list")).body.result.data.publication.id).toBe(bob.id);
  },
  "keys.list": async () => {
    const keys = (await trpc(bobCookie, "keys.list")).body.result.data;
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.map((k: { id: string }) => k.id)).not.toContain(annKeyId);
  },
  "keys.create": async () => {
    const answer = await trpc(bobCookie, "keys.create", { name: "planted", permissions: ["read:blogs"], accountId: ann.id, userId: ann.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: answer.body.result.data.id } })).userId).toBe(bob.id);
  },
  "keys.deactivate": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "keys.deactivate", { id: annKeyId }));
    expectSuccess(await call("/blogs", { key: ann.key }));
  },
  "webhooks.list": async () => {
    expect((await trpc(bobCookie, "webhooks.list")).body.result.data).toEqual([]);
  },
  "webhooks.create": async () => {
    const answer = await trpc(bobCookie, "webhooks.create", { url: "http://127.0.0.1:9/bob", eventTypes: ["blog.created"], accountId: ann.id, userId: ann.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: answer.body.result.data.id } })).userId).toBe(bob.id);
  },
  "webhooks.setEnabled": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.setEnabled", { id: annEndpointId, enabled: false })),
  "webhooks.setEventTypes": async () =>
    expectTrpcNotFound(await trpc(bobCookie, "webhooks.setEventTypes", { id: annEndpointId, eventTypes: ["blog.created"] })),
  "webhooks.rollSecret": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.rollSecret", { id: annEndpointId })),
  "webhooks.delete": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.delete", { id: annEndpointId })),
  "webhooks.deliveries": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.deliveries", { id: annEndpointId })),
  "webhooks.sendTest": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.sendTest", { id: annEndpointId })),
  "webhooks.resend": async () => expectTrpcNotFound(await trpc(bobCookie, "webhooks.resend", { deliveryId: annDeliveryId })),
  "keys.update": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "keys.update", { id: annKeyId, name: "Taken over", description: "Bob's now" }));
  },
  "keys.roll": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "keys.roll", { id: annKeyId, grace: "0" }));
    expectSuccess(await call("/blogs", { key: ann.key }));
  },
  "keys.endGrace": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "keys.endGrace", { id: annKeyId }));
  },
  "keys.activity": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "keys.activity", { id: annKeyId }));
  },
  "images.storage": async () => {
    // Bob's own storage, however much Ann holds.
    expect((await trpc(bobCookie, "images.storage")).body.result.data).toMatchObject({ quota: 100_000_000 });
    expect((await trpc(bobCookie, "images.storage")).body.result.data.used).toBe(await bobStorage());
  },
  "images.library": async () => {
    const library = (await trpc(bobCookie, "images.library", {})).body.result.data;
    expect(JSON.stringify(library)).not.toContain(annImage);
  },
  "subscribers.add": async () => {
    const { subscriber, created } = (await trpc(bobCookie, "subscribers.add", { email: ANN_READER.toUpperCase() })).body.result.data;
    expect(subscriber.id).not.toBe(annSubscriber);
    expect(typeof created).toBe("boolean");
  },
  "subscribers.counts": async () => {
    // Bob's own counts (free plan), however many Ann has.
    const { counts, quota } = (await trpc(bobCookie, "subscribers.counts")).body.result.data;
    expect(quota).toBe(1000);
    expect(counts.total).toBe(await db().subscriber.count({ where: { userId: bob.id } }));
  },
  "subscribers.import": async () => {
    const report = (await trpc(bobCookie, "subscribers.import", { csv: `email\n${ANN_READER}\n` })).body.result.data;
    expect(report.added + report.alreadyThere).toBe(1);
    expect(await db().subscriber.count({ where: { email: ANN_READER, userId: bob.id } })).toBe(1);
  },
  "subscribers.export": async () => {
    const { csv } = (await trpc(bobCookie, "subscribers.export")).body.result.data;
    expect(csv.split("\n").filter((line: string) => line.includes(ANN_READER)).length).toBeLessThanOrEqual(1);
    expect(csv).not.toContain(annSubscriber);
    expect(await db().subscriber.count({ where: { userId: ann.id } })).toBe(1);
  },
  "imports.list": async () => {
    expect(JSON.stringify((await trpc(bobCookie, "imports.list")).body.result.data)).not.toContain(annImport);
  },
  "audit.export": async () => {
    const { csv } = (await trpc(bobCookie, "audit.export", { actor: annKeyId })).body.result.data;
    expect(csv.trim().split("\n")).toHaveLength(1);
    const all = (await trpc(bobCookie, "audit.export", {})).body.result.data.csv;
    for (const id of [...annBlogs, annKeyId, annSubscriber, annImport]) expect(all).not.toContain(id);
  },
  "imports.undo": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "imports.undo", { importId: annImport }));
  },
  "images.deleteMany": async () => {
    expectTrpcNotFound(await trpc(bobCookie, "images.deleteMany", { imageIds: [annImage], force: true }));
    expect(await db().image.count({ where: { id: annImage } })).toBe(1);
  },
  "usage.rateLimit": async () => {
    // Ann is on pro; Bob sees his own plan and window.
    expect((await trpc(bobCookie, "usage.rateLimit")).body.result.data).toMatchObject({ plan: "free", hourlyLimit: 100 });
  },
  "publication.update": async () => {
    // Whatever the session sends, the publication changed is Bob's own.
    expect((await trpc(bobCookie, "publication.update", { title: "Bob's notes" })).status).toBe(200);
    expect((await trpc(bobCookie, "publication.update", { logo: annImage })).status).toBe(400);
    expect((await db().publication.findUniqueOrThrow({ where: { userId: ann.id } })).title).toBe(ANN_PUBLICATION);
  },
  "publication.preview": async () => {
    expect((await trpc(bobCookie, "publication.preview", { icon: annImage })).status).toBe(400);
    expect((await trpc(bobCookie, "publication.preview", {})).body.result.data.html).not.toContain(ANN_PUBLICATION);
  },
  "publication.domainRecord": async () => {
    expect(JSON.stringify((await trpc(bobCookie, "publication.domainRecord")).body)).not.toContain(ANN_DOMAIN);
  },
  "publication.verifyDomain": async () => {
    expect((await trpc(bobCookie, "publication.verifyDomain")).status).not.toBe(200);
    expect((await db().publication.findUniqueOrThrow({ where: { userId: ann.id } })).domainVerifiedAt).toBeNull();
  },
  "newsletters.audience": async () => {
    // Bob's own active subscribers, made more than Ann's for the count to tell them apart.
    const extra = ["bob-reader-1@example.test", "bob-reader-2@example.test"];
    await db().subscriber.createMany({
      data: extra.map((email) => ({ userId: bob.id, email, status: "active" as const, source: "api" as const, confirmedAt: new Date(), unsubscribeToken: `api1-${email}` })),
    });
    try {
      const [bobs, anns] = await Promise.all([bob.id, ann.id].map((userId) => db().subscriber.count({ where: { userId, status: "active" } })));
      expect(bobs).not.toBe(anns);
      expect((await trpc(bobCookie, "newsletters.audience")).body.result.data).toEqual({ active: bobs });
    } finally {
      await db().subscriber.deleteMany({ where: { userId: bob.id, email: { in: extra } } });
    }
  },
  "newsletters.sendTest": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "newsletters.sendTest", { blogId }));
  },
  "usage.analytics": async () => {
    expectSuccess(await call("/blogs", { key: ann.key }));
    const data = (await trpc(bobCookie, "usage.analytics")).body.result.data;
    expect(JSON.stringify(data)).not.toContain(annKeyId);
  },
};

/** The blogs' procedures (the API's own) called through /api/trpc with Bob's session on Ann's objects. */
const SESSION_BLOG_CASES: Record<string, () => Promise<void>> = {
  "blogs.list": async () => {
    const all = await trpc(bobCookie, "blogs.list", { limit: 50 });
    const ids = all.body.result.data.data.blogs.map((b: { id: string }) => b.id);
    expect(ids).toContain(bobSameSlugBlog);
    for (const id of [...annBlogs, annHidden]) expect(ids).not.toContain(id);
    expect((await trpc(bobCookie, "blogs.list", { q: "Ann's" })).body.result.data.data.pagination.total).toBe(0);
  },
  "blogs.get": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.get", { blogId }));
  },
  "blogs.create": async () => {
    const answer = await trpc(bobCookie, "blogs.create", { title: "Planted", id: annBlog, userId: ann.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const created = answer.body.result.data.data.blog;
    expect(created.id).not.toBe(annBlog);
    expect((await db().blog.findUniqueOrThrow({ where: { id: created.id } })).userId).toBe(bob.id);
  },
  "blogs.update": async () => {
    for (const blogId of [annBlog, annHidden]) {
      expectTrpcNotFound(await trpc(bobCookie, "blogs.update", { blogId, title: "Taken over" }));
      expectTrpcNotFound(await trpc(bobCookie, "blogs.update", { blogId, allowApiAccess: true, isPublic: true }));
    }
  },
  "blogs.delete": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.delete", { blogId }));
  },
  "blogs.newsletter": async () => {
    for (const blogId of [annBlogs[2]!, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.newsletter", { blogId }));
  },
  "blogs.revisions.list": async () => {
    for (const blogId of [annBlog, annHidden]) expectTrpcNotFound(await trpc(bobCookie, "blogs.revisions.list", { blogId }));
  },
  "blogs.revisions.get": async () => {
    for (const blogId of [annBlog, bobSameSlugBlog]) expectTrpcNotFound(await trpc(bobCookie, "blogs.revisions.get", { blogId, revisionId: annRevision }));
  },
  "blogs.revisions.restore": async () => {
    for (const blogId of [annBlog, bobSameSlugBlog]) {
      expectTrpcNotFound(await trpc(bobCookie, "blogs.revisions.restore", { blogId, revisionId: annRevision }));
    }
  },
};

describe("the blogs' procedures through /api/trpc with another account's session", () => {
  it("has a case for every blog procedure", () => {
    expect(Object.keys(SESSION_BLOG_CASES).sort()).toEqual(
      API_KEY_PROCEDURES.filter((p) => p.path.startsWith("blogs.") && !["blogs.getBySlug", "blogs.patch"].includes(p.path)).map((p) => p.path).sort(),
    );
  });

  it.each(Object.keys(SESSION_BLOG_CASES))("%s: Ann's objects do not exist for Bob, and stay unchanged", async (procedure) => {
    await leavesAnnUnchanged(SESSION_BLOG_CASES[procedure]!);
  });
});

describe("the dashboard (/api/trpc) with another account's session", () => {
  it("has a case for every dashboard procedure", () => {
    expect(Object.keys(DASHBOARD_CASES).sort()).toEqual(DASHBOARD_PROCEDURES.map((p) => p.path).sort());
  });

  it.each(Object.keys(DASHBOARD_CASES))("%s: Ann's objects do not exist for Bob, and stay unchanged", async (procedure) => {
    await leavesAnnUnchanged(DASHBOARD_CASES[procedure]!);
  });
});

describe("Ann's audit log (docs/audit-log.md)", () => {
  it("holds nothing Bob's key or session did, after every case above", async () => {
    const bobKeys = (await db().apiKey.findMany({ where: { userId: bob.id }, select: { id: true } })).map((k) => k.id);
    const bobUser = (await db().user.findUniqueOrThrow({ where: { email: bob.email }, select: { id: true } })).id;
    const byBob = await db().auditLog.count({ where: { userId: ann.id, actorId: { in: [...bobKeys, bobUser] } } });
    expect(byBob).toBe(0);
    // Bob's own log has his attempts that changed something of his.
    expect(await db().auditLog.count({ where: { userId: bob.id, actorId: { in: [...bobKeys, bobUser] } } })).toBeGreaterThan(0);
  });
});

describe("a blog with API access off", () => {
  it("does not exist for its own account's key: not listed, not read, not written, not deleted", async () => {
    await leavesAnnUnchanged(async () => {
      expect(await listedIds(ann.key)).not.toContain(annHidden);
      expectNotFound(await call(`/blogs/${annHidden}`, { key: ann.key }));
      expectNotFound(await call(`/blogs/slug/${HIDDEN_SLUG}`, { key: ann.key }));
      for (const route of REST_ROUTES.filter((r) => r.template === "/blogs/{blogId}" && r.method !== "GET")) {
        expectNotFound(await call(blogPath(route.template, annHidden), { key: ann.key, method: route.method, headers: jsonHeaders, body: bodyFor(route.method) }));
      }
    });
  });
});

describe("an image that a blog with API access off shows", () => {
  it("does not exist for its own account's key, as cover or in Markdown: not listed, read, deleted or made a cover; the owner still sees it", async () => {
    const [cover, inMarkdown, unused] = await Promise.all([seedImage(ann.id), seedImage(ann.id), seedImage(ann.id)]);
    const [hidden] = await seedBlogs(ann.id, [{ title: "Hidden, with pictures", allowApiAccess: false, content: `![A chart](${apiBaseUrl()}/images/${inMarkdown}/2000x1000.jpeg)` }]);
    await db().blog.update({ where: { id: hidden }, data: { coverImageId: cover } });
    await leavesAnnUnchanged(async () => {
      const listed = expectSuccess(await call("/images?limit=50", { key: ann.key }));
      expect(listed.images.map((image: { id: string }) => image.id)).toContain(unused);
      for (const imageId of [cover, inMarkdown]) {
        expect(listed.images.map((image: { id: string }) => image.id)).not.toContain(imageId);
        expectNotFound(await call(`/images/${imageId}`, { key: ann.key }));
        expectNotFound(await call(`/images/${imageId}`, { key: ann.key, method: "DELETE" }));
        // Nor can the key name it as a cover: refused as an unknown id is.
        const cover = JSON.stringify({ coverImage: imageId });
        expectError(await call(`/blogs/${annBlog}`, { key: ann.key, method: "PATCH", headers: jsonHeaders, body: cover }), 400, "INVALID_PARAMETER");
        const created = JSON.stringify({ title: "With a hidden cover", coverImage: imageId });
        expectError(await call("/blogs", { key: ann.key, method: "POST", headers: jsonHeaders, body: created }), 400, "INVALID_PARAMETER");
      }
      expect(listed.pagination.total).toBe(listed.images.length);
    });
    const annCookie = await signIn(ann);
    for (const imageId of [cover, inMarkdown]) expect((await trpc(annCookie, "images.get", { imageId })).body.result.data.data.image.id).toBe(imageId);
  });
});

describe("public pages", () => {
  it("show no blog that is not public, to anyone signed in or not", async () => {
    for (const cookie of [null, bobCookie]) {
      const headers = cookie ? { cookie } : undefined;
      const page = await fetch(new URL(`/${ann.handle}/${ANN_ONLY_SLUG}`, apiBaseUrl()), { headers });
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain("only post");
      const index = await fetch(new URL(`/${ann.handle}`, apiBaseUrl()), { headers });
      const html = await index.text();
      expect(html).not.toContain(ANN_ONLY_SLUG);
      expect(html).not.toContain(SHARED_SLUG);
    }
  });
});
