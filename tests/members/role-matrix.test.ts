import { beforeAll, describe, expect, it } from "vitest";
import { ROLES, roleAtLeast, type Role } from "~/shared/roles";
import { call, createTestAccount, createTestKey, db, seedBlogs, seedImage, type ApiResponse, type TestAccount } from "../support/api";
import { API_KEY_PROCEDURES, PROCEDURES, signIn, trpc, type TrpcAnswer } from "../support/dashboard";
import { addMembership, addTestMember } from "../support/members";

/**
 * The role matrix (docs/teams.md, Roles): every role against every operation of the app router,
 * through both doors. In the dashboard (/api/trpc) a member is allowed exactly the operations whose
 * least trusted role (`minRole` in the procedure's meta) is theirs or below, and refused the others
 * with 403 INSUFFICIENT_PERMISSIONS before anything runs; over /api/v1 a key is allowed by its
 * permissions alone, whoever made it and whether they are still a member. The table below is the
 * expected rule, written out; it must name every procedure of the router, so a new procedure
 * without a rule fails here.
 */
const MIN_ROLE: Record<string, Role> = {
  // Posts: every member reads them all and writes; what an author or a contributor may do to a
  // post that is not theirs, or publish, is the posts' own rule (tests/members/post-rules.test.ts).
  "blogs.list": "contributor",
  "blogs.get": "contributor",
  "blogs.getBySlug": "contributor",
  "blogs.newsletter": "contributor",
  "blogs.create": "contributor",
  "blogs.update": "contributor",
  "blogs.patch": "contributor",
  "blogs.delete": "contributor",
  "blogs.editor.create": "contributor",
  "blogs.editor.update": "contributor",
  "blogs.previews.create": "contributor",
  "blogs.previews.list": "contributor",
  "blogs.previews.revoke": "contributor",
  "blogs.revisions.list": "contributor",
  "blogs.revisions.get": "contributor",
  "blogs.revisions.restore": "contributor",
  "tags.list": "contributor",
  "publication.get": "contributor",
  "analytics.get": "contributor",
  "views.get": "contributor",
  "newsletters.audience": "contributor",
  // Images: every member uploads and picks; deleting them is an editor's.
  "images.upload": "contributor",
  "images.list": "contributor",
  "images.get": "contributor",
  "images.storage": "contributor",
  "images.library": "contributor",
  "images.delete": "editor",
  "images.deleteMany": "editor",
  // Emailing a post: an author emails their posts, so they may send themselves a test.
  "newsletters.sendTest": "author",
  // Keys: an author and up make keys within their role's permissions and manage their own;
  // administrators every key (tests/members/keys.test.ts).
  "keys.list": "author",
  "keys.create": "author",
  "keys.update": "author",
  "keys.roll": "author",
  "keys.endGrace": "author",
  "keys.deactivate": "author",
  "keys.activity": "author",
  // Subscribers: every one of them is an editor's.
  "subscribers.list": "editor",
  "subscribers.create": "editor",
  "subscribers.delete": "editor",
  "subscribers.add": "editor",
  "subscribers.counts": "editor",
  "subscribers.import": "editor",
  "subscribers.export": "editor",
  // The publication itself: its settings, imports, webhooks and usage are administrators'.
  "publication.update": "administrator",
  "publication.preview": "administrator",
  "publication.domainRecord": "administrator",
  "publication.verifyDomain": "administrator",
  "imports.create": "administrator",
  "imports.get": "administrator",
  "imports.list": "administrator",
  "imports.undo": "administrator",
  "usage.analytics": "administrator",
  "usage.rateLimit": "administrator",
  "webhooks.list": "administrator",
  "webhooks.create": "administrator",
  "webhooks.setEnabled": "administrator",
  "webhooks.setEventTypes": "administrator",
  "webhooks.rollSecret": "administrator",
  "webhooks.delete": "administrator",
  "webhooks.deliveries": "administrator",
  "webhooks.resend": "administrator",
  "webhooks.sendTest": "administrator",
  "audit.list": "administrator",
  "audit.export": "administrator",
  // Members: every member lists them, leaves and switches; who may invite, change or remove whom
  // is the members' own rule (tests/unit/member-rules.test.ts). Only the owner hands over ownership.
  "members.list": "contributor",
  "members.invite": "contributor",
  "members.revokeInvitation": "contributor",
  "members.changeRole": "contributor",
  "members.remove": "contributor",
  "members.publications": "contributor",
  "members.switchPublication": "contributor",
  "members.transferOwnership": "owner",
};

/** An input naming nothing that exists: an allowed call answers 400 or 404 (or its answer), a refused one 403 before reading it. */
const PROBE_INPUT = { id: "none", blogId: "none", importId: "none", subscriberId: "none", imageId: "none", revisionId: "none", previewId: "none" };

let publication: TestAccount;
const cookies = {} as Record<Role, string>;

beforeAll(async () => {
  publication = await createTestAccount("enterprise");
  cookies.owner = await signIn(publication);
  for (const role of ROLES.filter((r) => r !== "owner")) cookies[role] = await signIn(await addTestMember(publication.id, role));
});

const apiCodeOf = (answer: TrpcAnswer): string | undefined => answer.body?.error?.data?.apiCode;

describe("the role table", () => {
  it("names every procedure of the app router, no more", () => {
    expect(Object.keys(MIN_ROLE).sort()).toEqual(PROCEDURES.map((p) => p.path).sort());
  });

  it("is what every procedure declares in its meta (minRole), once", () => {
    const declared = Object.fromEntries(PROCEDURES.map((p) => [p.path, p.meta.minRole]));
    expect(declared).toEqual(MIN_ROLE);
  });
});

describe.each(ROLES)("a member who is %s, in the dashboard (/api/trpc)", (role) => {
  it.each(Object.keys(MIN_ROLE).sort())("%s", async (path) => {
    const answer = await trpc(cookies[role], path, PROBE_INPUT);
    if (roleAtLeast(role, MIN_ROLE[path]!)) {
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
      expect(apiCodeOf(answer), JSON.stringify(answer.body)).not.toBe("INSUFFICIENT_PERMISSIONS");
    } else {
      expect({ status: answer.status, apiCode: apiCodeOf(answer) }).toEqual({ status: 403, apiCode: "INSUFFICIENT_PERMISSIONS" });
      expect(answer.body.error.message).toContain(MIN_ROLE[path]);
    }
  });
});

/** One REST operation with ids that name nothing, as a key holder would send it. */
function callOperation(key: string, openapi: { method: string; path: string }): Promise<ApiResponse> {
  const path = openapi.path.replace(/\{[^}]+\}/g, "none");
  const hasBody = ["POST", "PUT", "PATCH"].includes(openapi.method);
  return call(path, { key, method: openapi.method, headers: hasBody ? { "content-type": "application/json" } : {}, body: hasBody ? "{}" : undefined });
}

describe("an API key over /api/v1, whoever made it", () => {
  let keyOfFormerMember: string;
  let readOnlyKeyOfAuthor: string;

  beforeAll(async () => {
    // A key with every permission, made by an administrator who has since left; and an author's read-only one.
    const administrator = await addTestMember(publication.id, "administrator");
    keyOfFormerMember = await createTestKey(publication.id, { createdById: administrator.userId });
    await db().member.delete({ where: { id: administrator.memberId } });
    const author = await addTestMember(publication.id, "author");
    readOnlyKeyOfAuthor = await createTestKey(publication.id, { permissions: ["read:blogs"], createdById: author.userId });
  });

  it.each(API_KEY_PROCEDURES.map((p) => [`${p.openapi!.method} ${p.openapi!.path}`, p] as const))("%s: allowed by the key's permission alone", async (_, procedure) => {
    const all = await callOperation(keyOfFormerMember, procedure.openapi!);
    expect(all.status, JSON.stringify(all.body)).toBeLessThan(500);
    expect([401, 403]).not.toContain(all.status);
    const readOnly = await callOperation(readOnlyKeyOfAuthor, procedure.openapi!);
    if (procedure.meta.permission === "read:blogs") {
      expect([401, 403, 500]).not.toContain(readOnly.status);
    } else {
      expect({ status: readOnly.status, code: readOnly.json.error?.code }).toEqual({ status: 403, code: "INSUFFICIENT_PERMISSIONS" });
      expect(readOnly.json.error?.message).toBe(`This API key lacks the ${procedure.meta.permission} permission`);
    }
  });
});

describe("members of one publication", () => {
  let other: TestAccount;
  let otherBlog: string;
  let otherImage: string;
  let otherKeyId: string;
  let ownBlog: string;

  beforeAll(async () => {
    other = await createTestAccount("free");
    [otherBlog] = (await seedBlogs(other.id, [{ title: "The other publication's draft" }])) as [string];
    otherImage = await seedImage(other.id);
    otherKeyId = (await db().apiKey.findFirstOrThrow({ where: { userId: other.id }, select: { id: true } })).id;
    [ownBlog] = (await seedBlogs(publication.id, [{ title: "This publication's draft" }])) as [string];
  });

  it.each(ROLES)("never see another publication's posts, images or keys (%s)", async (role) => {
    const cookie = cookies[role];
    const listed = await trpc(cookie, "blogs.list", {});
    expect(listed.status).toBe(200);
    const ids: string[] = listed.body.result.data.data.blogs.map((b: { id: string }) => b.id);
    expect(ids).toContain(ownBlog);
    expect(ids).not.toContain(otherBlog);
    for (const [path, input] of [
      ["blogs.get", { blogId: otherBlog }],
      ["blogs.patch", { blogId: otherBlog, title: "Taken over" }],
      ["images.get", { imageId: otherImage }],
    ] as const) {
      const answer = await trpc(cookie, path, input);
      expect({ path, status: answer.status, apiCode: apiCodeOf(answer) }).toEqual({ path, status: 404, apiCode: "RESOURCE_NOT_FOUND" });
    }
    if (roleAtLeast(role, "author")) {
      const answer = await trpc(cookie, "keys.deactivate", { id: otherKeyId });
      expect({ status: answer.status, apiCode: apiCodeOf(answer) }).toEqual({ status: 404, apiCode: "RESOURCE_NOT_FOUND" });
    }
    expect((await db().blog.findUniqueOrThrow({ where: { id: otherBlog } })).title).toBe("The other publication's draft");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: otherKeyId } })).deactivatedAt).toBeNull();
  });

  it("see only the publication their session works in when they belong to two", async () => {
    // The other publication's owner is also an editor here: their session works in their own
    // (how a session switches: docs/teams.md, Switching publications).
    await addMembership(publication.id, other.id, "editor");
    const cookie = await signIn(other);
    const listed = await trpc(cookie, "blogs.list", {});
    expect((listed.body.result.data.data.blogs as { id: string }[]).map((b) => b.id)).toEqual([otherBlog]);
    const here = await trpc(cookie, "blogs.get", { blogId: ownBlog });
    expect({ status: here.status, apiCode: apiCodeOf(here) }).toEqual({ status: 404, apiCode: "RESOURCE_NOT_FOUND" });
  });
});
