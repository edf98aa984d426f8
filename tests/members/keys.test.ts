import { beforeAll, describe, expect, it } from "vitest";
import { PERMISSIONS } from "~/shared/permissions";
import { aRole, keyPermissionsOf, ROLES, roleAtLeast, type Role } from "~/shared/roles";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { signIn, trpc, type TrpcAnswer } from "../support/dashboard";
import { addTestMember, type TestMember } from "../support/members";

/**
 * Keys belong to the publication (docs/teams.md, Keys): a member makes keys with the permissions
 * their role has and no other, the key records who made it, and it keeps working when they leave;
 * administrators manage every key, the others the keys they made.
 */

let publication: TestAccount;
let ownerCookie: string;

beforeAll(async () => {
  publication = await createTestAccount("enterprise");
  ownerCookie = await signIn(publication);
});

const apiCodeOf = (answer: TrpcAnswer): string | undefined => answer.body?.error?.data?.apiCode;

async function memberSignedIn(role: Role): Promise<TestMember & { cookie: string }> {
  const member = await addTestMember(publication.id, role);
  return { ...member, cookie: await signIn(member) };
}

async function createKey(cookie: string, permissions: readonly string[], name = "A member's key"): Promise<TrpcAnswer> {
  return trpc(cookie, "keys.create", { name, permissions });
}

describe.each(ROLES.filter((role) => roleAtLeast(role, "author")))("a member who is %s", (role) => {
  it("makes a key with the permissions their role has, recorded as theirs", async () => {
    const member = role === "owner" ? { cookie: ownerCookie, userId: publication.id } : await memberSignedIn(role);
    const made = await createKey(member.cookie, keyPermissionsOf(role));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: made.body.result.data.id } });
    expect({ createdById: stored.createdById, permissions: stored.permissions }).toEqual({ createdById: member.userId, permissions: [...keyPermissionsOf(role)] });
  });

  const beyondRole = PERMISSIONS.filter((p) => !keyPermissionsOf(role).includes(p));
  if (beyondRole.length === 0) return;
  it.each(beyondRole)("may not give a key %s", async (permission) => {
    const member = await memberSignedIn(role);
    const before = await db().apiKey.count({ where: { userId: publication.id } });
    const refused = await createKey(member.cookie, ["read:blogs", permission]);
    expect({ status: refused.status, apiCode: apiCodeOf(refused), field: refused.body.error.data.field }).toEqual({
      status: 403,
      apiCode: "INSUFFICIENT_PERMISSIONS",
      field: "permissions",
    });
    const aRoleCapitalized = aRole(role).replace(/^a/, "A");
    expect(refused.body.error.message).toBe(`${aRoleCapitalized} cannot give a key ${permission}`);
    expect(await db().apiKey.count({ where: { userId: publication.id } })).toBe(before);
  });
});

describe("a contributor", () => {
  it("makes no keys at all", async () => {
    const contributor = await memberSignedIn("contributor");
    expect(keyPermissionsOf("contributor")).toEqual([]);
    const refused = await createKey(contributor.cookie, ["read:blogs"]);
    expect({ status: refused.status, apiCode: apiCodeOf(refused) }).toEqual({ status: 403, apiCode: "INSUFFICIENT_PERMISSIONS" });
  });
});

describe("managing keys", () => {
  it("is an author's for the keys they made, an administrator's for every key", async () => {
    const author = await memberSignedIn("author");
    const editor = await memberSignedIn("editor");
    const administrator = await memberSignedIn("administrator");
    const authorsKey: string = (await createKey(author.cookie, ["read:blogs"], "Author's key")).body.result.data.id;
    const editorsKey: string = (await createKey(editor.cookie, ["write:blogs"], "Editor's key")).body.result.data.id;

    expect((await trpc(author.cookie, "keys.update", { id: authorsKey, name: "Author's renamed key" })).status).toBe(200);
    for (const [path, input] of [
      ["keys.update", { id: editorsKey, name: "Taken over" }],
      ["keys.deactivate", { id: editorsKey }],
      ["keys.roll", { id: editorsKey }],
      ["keys.activity", { id: editorsKey }],
    ] as const) {
      const refused = await trpc(author.cookie, path, input);
      expect({ path, status: refused.status, message: refused.body.error.message }).toEqual({
        path,
        status: 403,
        message: "Only administrators may manage keys other members made",
      });
    }
    const editorsKeyRow = await db().apiKey.findUniqueOrThrow({ where: { id: editorsKey } });
    expect({ name: editorsKeyRow.name, deactivatedAt: editorsKeyRow.deactivatedAt, rolledAt: editorsKeyRow.rolledAt }).toEqual({ name: "Editor's key", deactivatedAt: null, rolledAt: null });

    expect((await trpc(administrator.cookie, "keys.activity", { id: authorsKey })).status).toBe(200);
    expect((await trpc(administrator.cookie, "keys.deactivate", { id: authorsKey })).status).toBe(200);
  });

  it("rolls a key into one of the roller's, only with permissions the roller's role has", async () => {
    const editor = await memberSignedIn("editor");
    const made = (await createKey(editor.cookie, ["read:blogs", "write:blogs"], "To roll")).body.result.data;
    // The editor becomes an author: they may no longer give a key write:blogs, so not roll it either.
    await db().member.update({ where: { id: editor.memberId }, data: { role: "author" } });
    const refused = await trpc(editor.cookie, "keys.roll", { id: made.id });
    expect({ status: refused.status, message: refused.body.error.message }).toEqual({ status: 403, message: "An author cannot give a key write:blogs" });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: made.id } })).rolledAt).toBeNull();

    const administrator = await memberSignedIn("administrator");
    const rolled = await trpc(administrator.cookie, "keys.roll", { id: made.id, grace: "0" });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    const replacement = await db().apiKey.findFirstOrThrow({ where: { userId: publication.id, rolledAt: null, name: "To roll" } });
    expect(replacement.createdById).toBe(administrator.userId);
  });
});

describe("a key whose maker leaves", () => {
  it("keeps working, and the list says a former member made it", async () => {
    const editor = await memberSignedIn("editor");
    const made = await createKey(editor.cookie, ["read:blogs"], "Outlives its maker");
    const { id, key } = made.body.result.data as { id: string; key: string };
    const listed = async () => ((await trpc(ownerCookie, "keys.list")).body.result.data as { id: string; createdBy: string | null }[]).find((k) => k.id === id);
    const editorName = (await db().user.findUniqueOrThrow({ where: { id: editor.userId } })).name;
    expect((await listed())?.createdBy).toBe(editorName);

    await db().member.delete({ where: { id: editor.memberId } });
    expect((await call("/blogs", { key })).status).toBe(200);
    expect((await listed())?.createdBy).toBeNull();
    // Their session no longer works in the publication.
    expect((await trpc(editor.cookie, "keys.list")).status).not.toBe(200);

    // Even once the person is gone altogether.
    await db().user.delete({ where: { id: editor.userId } });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id } })).createdById).toBeNull();
    expect((await call("/blogs", { key })).status).toBe(200);
    expect((await listed())?.createdBy).toBeNull();
  });

  it("is listed to every member who may open the keys, with its maker's name", async () => {
    expect((await createKey(ownerCookie, ["read:blogs"], "The owner's key")).status).toBe(200);
    const author = await memberSignedIn("author");
    const answer = await trpc(author.cookie, "keys.list");
    expect(answer.status).toBe(200);
    const ownerName = (await db().user.findUniqueOrThrow({ where: { id: publication.id } })).name;
    expect((answer.body.result.data as { createdBy: string | null }[]).map((k) => k.createdBy)).toContain(ownerName);
  });
});
