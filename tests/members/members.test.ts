import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount, db, getPath, seedBlogs, type TestAccount } from "../support/api";
import { authPost, signIn, trpc, type TrpcAnswer } from "../support/dashboard";
import { emailsTo, waitForLink } from "../support/mailbox";

/**
 * Members, invitations and switching publications (docs/teams.md) against the built server, real
 * PostgreSQL and the suite's mailbox: the members procedures at /api/trpc, joining at
 * /api/auth/organization/accept-invitation (the one organization endpoint the door opens).
 */

interface Person extends TestAccount {
  cookie: string;
}

async function person(): Promise<Person> {
  const account = await createTestAccount();
  return { ...account, cookie: await signIn(account) };
}

function ok(answer: TrpcAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.data;
}

function refused(answer: TrpcAnswer, status: number, apiCode: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error.data.apiCode).toBe(apiCode);
  return answer.body.error;
}

/** Invites `invitee` to `inviter`'s active publication as `role`; the invitation's id, read from the emailed link. */
async function invite(inviter: Person, invitee: Pick<TestAccount, "email">, role: string): Promise<string> {
  const before = (await db().invitation.count({ where: { email: invitee.email } })) + 0;
  const created = ok(await trpc(inviter.cookie, "members.invite", { email: invitee.email, role }));
  expect(created).toMatchObject({ email: invitee.email, role });
  const { link } = await waitForLink(invitee.email, before + 1);
  expect(link).toMatch(new RegExp(`/invitations/${created.id}$`));
  return created.id as string;
}

const accept = (who: Person, invitationId: string) => authPost("/organization/accept-invitation", { invitationId }, who.cookie);

/** Invites and accepts: `invitee` becomes a member of `inviter`'s publication as `role`, their session now working in it. */
async function join(inviter: Person, invitee: Person, role: string): Promise<void> {
  const invitationId = await invite(inviter, invitee, role);
  const answer = await accept(invitee, invitationId);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const memberIdOf = async (publicationId: string, userId: string) => (await db().member.findFirstOrThrow({ where: { organizationId: publicationId, userId } })).id;

describe("an invitation, accepted", () => {
  let owner: Person;
  let invitee: Person;

  beforeAll(async () => {
    [owner, invitee] = await Promise.all([person(), person()]);
  });

  it("emails a link; the invitee joins, works in the publication at once, and sees it among theirs", async () => {
    const invitationId = await invite(owner, invitee, "author");
    // The email names the publication, the inviter (whose address is verified) and the role.
    const [email] = await emailsTo(invitee.email);
    expect(email!.subject).toBe(`Join ${owner.handle} on Blog Manager`);
    expect(email!.text).toContain(`${owner.handle} invites you to join ${owner.handle} on Blog Manager as an author.`);
    const page = await (await getPath(`/invitations/${invitationId}`, { cookie: invitee.cookie })).text();
    expect(page).toContain(`Join ${owner.handle} as author`);

    const joined = await accept(invitee, invitationId);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);

    // The session now works in the owner's publication, as an author.
    const listed = ok(await trpc(invitee.cookie, "members.list"));
    expect(listed.publication.id).toBe(owner.id);
    expect(listed.you.role).toBe("author");
    expect(listed.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, "owner"],
      [invitee.email, "author"],
    ]);
    // An author invites nobody, so sees no invitation.
    expect(listed.invitations).toEqual([]);

    // The member acts in that publication: a blog written now is the publication's, with them as its author.
    const created = ok(await trpc(invitee.cookie, "blogs.editor.create", { title: "Written by a member", editSession: "m1" }));
    const blog = await db().blog.findUniqueOrThrow({ where: { id: created.data.blog.id } });
    expect(blog.userId).toBe(owner.id);

    const publications = ok(await trpc(invitee.cookie, "members.publications"));
    expect(publications.map((p: { id: string; role: string; active: boolean }) => [p.id, p.role, p.active]).sort()).toEqual(
      [
        [owner.id, "author", true],
        [invitee.id, "owner", false],
      ].sort(),
    );

    // Single use: the same link again is refused, and its page says it was used.
    const again = await accept(invitee, invitationId);
    expect(again.status).toBe(400);
    expect(await (await getPath(`/invitations/${invitationId}`, { cookie: invitee.cookie })).text()).toContain("already used");
  });

  it("switching publication: only to one of the person's own, and the session follows at once", async () => {
    ok(await trpc(invitee.cookie, "members.switchPublication", { publicationId: invitee.id }));
    expect(ok(await trpc(invitee.cookie, "members.list")).publication.id).toBe(invitee.id);
    ok(await trpc(invitee.cookie, "members.switchPublication", { publicationId: owner.id }));
    expect(ok(await trpc(invitee.cookie, "members.list")).publication.id).toBe(owner.id);

    const stranger = await createTestAccount();
    refused(await trpc(invitee.cookie, "members.switchPublication", { publicationId: stranger.id }), 404, "RESOURCE_NOT_FOUND");
    expect(ok(await trpc(invitee.cookie, "members.list")).publication.id).toBe(owner.id);
  });
});

describe("invitations refused", () => {
  let owner: Person;

  beforeAll(async () => {
    owner = await person();
  });

  it("expired: refused, and its page says so", async () => {
    const invitee = await person();
    const invitationId = await invite(owner, invitee, "editor");
    await db().invitation.update({ where: { id: invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await accept(invitee, invitationId)).status).toBe(400);
    expect(await (await getPath(`/invitations/${invitationId}`, { cookie: invitee.cookie })).text()).toContain("This invitation has expired");
    expect(await db().member.count({ where: { organizationId: owner.id, userId: invitee.id } })).toBe(0);
  });

  it("revoked: refused, gone from the list, and its page says so", async () => {
    const invitee = await person();
    const invitationId = await invite(owner, invitee, "contributor");
    expect(ok(await trpc(owner.cookie, "members.list")).invitations.map((i: { id: string }) => i.id)).toContain(invitationId);
    ok(await trpc(owner.cookie, "members.revokeInvitation", { invitationId }));
    expect(ok(await trpc(owner.cookie, "members.list")).invitations.map((i: { id: string }) => i.id)).not.toContain(invitationId);
    expect((await accept(invitee, invitationId)).status).toBe(400);
    expect(await (await getPath(`/invitations/${invitationId}`, { cookie: invitee.cookie })).text()).toContain("This invitation was revoked");
    refused(await trpc(owner.cookie, "members.revokeInvitation", { invitationId }), 409, "RESOURCE_CONFLICT");
  });

  it("a second invitation to the same address cancels the first: one link works at a time", async () => {
    const invitee = await person();
    const first = await invite(owner, invitee, "author");
    const second = await invite(owner, invitee, "editor");
    expect((await db().invitation.findUniqueOrThrow({ where: { id: first } })).status).toBe("canceled");
    expect((await accept(invitee, first)).status).toBe(400);
    expect((await accept(invitee, second)).status).toBe(200);
    expect((await db().member.findFirstOrThrow({ where: { organizationId: owner.id, userId: invitee.id } })).role).toBe("editor");
  });

  it("to another address: refused to whoever else is signed in, whose page says so", async () => {
    const invitee = await person();
    const other = await person();
    const invitationId = await invite(owner, invitee, "author");
    const answer = await accept(other, invitationId);
    expect(answer.status).toBe(403);
    expect(await (await getPath(`/invitations/${invitationId}`, { cookie: other.cookie })).text()).toContain("This invitation is for someone else");
    expect(await db().member.count({ where: { organizationId: owner.id, userId: other.id } })).toBe(0);
    // Signed out, the page offers to sign in or up, and back.
    const signedOut = await (await getPath(`/invitations/${invitationId}`)).text();
    expect(signedOut).toContain(`/sign-in?next=%2Finvitations%2F${invitationId}`);
    expect(signedOut).toContain(`/sign-up?next=%2Finvitations%2F${invitationId}`);
  });

  it("an unknown id tells nothing", async () => {
    expect(await (await getPath("/invitations/no-such-invitation", { cookie: owner.cookie })).text()).toContain("Invitation not found");
    expect((await accept(owner, "no-such-invitation")).status).toBe(400);
  });

  it("a member is not invited again, nor is anyone as owner; a bad address is a 400", async () => {
    const member = await person();
    await join(owner, member, "author");
    refused(await trpc(owner.cookie, "members.invite", { email: member.email, role: "editor" }), 409, "RESOURCE_CONFLICT");
    refused(await trpc(owner.cookie, "members.invite", { email: "x@example.test", role: "owner" }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(owner.cookie, "members.invite", { email: "not an address", role: "author" }), 400, "INVALID_PARAMETER");
    refused(await trpc(owner.cookie, "members.invite", { email: "x@example.test", role: "emperor" }), 400, "INVALID_PARAMETER");
  });

  it("only from a verified address: the email names the inviter and the publication", async () => {
    const unverified = await person();
    await db().user.update({ where: { id: unverified.id }, data: { emailVerified: false } });
    refused(await trpc(unverified.cookie, "members.invite", { email: "y@example.test", role: "author" }), 403, "EMAIL_NOT_VERIFIED");
  });

  it("the organization plugin's other endpoints are closed at /api/auth", async () => {
    for (const path of ["/organization/create", "/organization/invite-member", "/organization/update-member-role", "/organization/remove-member", "/organization/set-active"]) {
      expect((await authPost(path, {}, owner.cookie)).status, path).toBe(404);
    }
  });
});

describe("who may do what", () => {
  let owner: Person;
  let admin: Person;
  let editor: Person;
  let author: Person;

  beforeAll(async () => {
    [owner, admin, editor, author] = await Promise.all([person(), person(), person(), person()]);
    await join(owner, admin, "administrator");
    await join(owner, editor, "editor");
    await join(owner, author, "author");
  });

  it("an editor invites authors and contributors, never an administrator or an editor", async () => {
    const error = refused(await trpc(editor.cookie, "members.invite", { email: "adm@example.test", role: "administrator" }), 403, "INSUFFICIENT_PERMISSIONS");
    expect(error.message).toBe("As an editor you may invite only authors and contributors");
    refused(await trpc(editor.cookie, "members.invite", { email: "ed@example.test", role: "editor" }), 403, "INSUFFICIENT_PERMISSIONS");
    const invitee = await createTestAccount();
    const invited = ok(await trpc(editor.cookie, "members.invite", { email: invitee.email, role: "contributor" }));
    // The editor sees the invitations they could make, not an administrator's.
    const byAdmin = ok(await trpc(admin.cookie, "members.invite", { email: `a-${invitee.email}`, role: "administrator" }));
    const seen = ok(await trpc(editor.cookie, "members.list")).invitations.map((i: { id: string }) => i.id);
    expect(seen).toContain(invited.id);
    expect(seen).not.toContain(byAdmin.id);
    refused(await trpc(editor.cookie, "members.revokeInvitation", { invitationId: byAdmin.id }), 403, "INSUFFICIENT_PERMISSIONS");
    // Nor does an editor change roles or remove anyone.
    refused(await trpc(editor.cookie, "members.changeRole", { memberId: await memberIdOf(owner.id, author.id), role: "editor" }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(editor.cookie, "members.remove", { memberId: await memberIdOf(owner.id, author.id) }), 403, "INSUFFICIENT_PERMISSIONS");
  });

  it("an author invites nobody", async () => {
    refused(await trpc(author.cookie, "members.invite", { email: "c@example.test", role: "contributor" }), 403, "INSUFFICIENT_PERMISSIONS");
  });

  it("an administrator changes roles but not the owner's, and never makes an owner", async () => {
    const ownerMember = await memberIdOf(owner.id, owner.id);
    refused(await trpc(admin.cookie, "members.changeRole", { memberId: ownerMember, role: "editor" }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(admin.cookie, "members.changeRole", { memberId: await memberIdOf(owner.id, author.id), role: "owner" }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(admin.cookie, "members.remove", { memberId: ownerMember }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(admin.cookie, "members.transferOwnership", { memberId: await memberIdOf(owner.id, admin.id), password: "password-123" }), 403, "INSUFFICIENT_PERMISSIONS");
  });

  it("a role changed limits the member at their very next request", async () => {
    const editorMember = await memberIdOf(owner.id, editor.id);
    ok(await trpc(admin.cookie, "members.changeRole", { memberId: editorMember, role: "contributor" }));
    expect(ok(await trpc(editor.cookie, "members.list")).you.role).toBe("contributor");
    refused(await trpc(editor.cookie, "members.invite", { email: "late@example.test", role: "author" }), 403, "INSUFFICIENT_PERMISSIONS");
    ok(await trpc(owner.cookie, "members.changeRole", { memberId: editorMember, role: "editor" }));
    expect(ok(await trpc(editor.cookie, "members.list")).you.role).toBe("editor");
  });

  it("the owner cannot leave, and nobody changes their own role", async () => {
    refused(await trpc(owner.cookie, "members.remove", { memberId: await memberIdOf(owner.id, owner.id) }), 403, "INSUFFICIENT_PERMISSIONS");
    refused(await trpc(admin.cookie, "members.changeRole", { memberId: await memberIdOf(owner.id, admin.id), role: "owner" }), 403, "INSUFFICIENT_PERMISSIONS");
  });
});

describe("removing and leaving", () => {
  it("a removed member is refused at once: their session no longer reaches the publication", async () => {
    const [owner, member] = await Promise.all([person(), person()]);
    const [blogId] = await seedBlogs(owner.id, [{ title: "The team's post" }]);
    await join(owner, member, "editor");
    expect(ok(await trpc(member.cookie, "blogs.get", { blogId })).data.blog.id).toBe(blogId);

    ok(await trpc(owner.cookie, "members.remove", { memberId: await memberIdOf(owner.id, member.id) }));
    // The very next request: the same session now works in the member's own publication.
    const listed = ok(await trpc(member.cookie, "members.list"));
    expect(listed.publication.id).toBe(member.id);
    expect((await trpc(member.cookie, "blogs.get", { blogId })).status).toBe(404);
    refused(await trpc(member.cookie, "members.switchPublication", { publicationId: owner.id }), 404, "RESOURCE_NOT_FOUND");
  });

  it("a member leaves by removing themselves", async () => {
    const [owner, member] = await Promise.all([person(), person()]);
    await join(owner, member, "author");
    const left = ok(await trpc(member.cookie, "members.remove", { memberId: await memberIdOf(owner.id, member.id) }));
    expect(left.left).toBe(true);
    expect(await db().member.count({ where: { organizationId: owner.id, userId: member.id } })).toBe(0);
    expect(ok(await trpc(member.cookie, "members.list")).publication.id).toBe(member.id);
  });
});

describe("transferring the publication", () => {
  it("takes the owner's password; the member becomes the owner, the old owner an administrator", async () => {
    const [owner, member] = await Promise.all([person(), person()]);
    await join(owner, member, "editor");
    const memberId = await memberIdOf(owner.id, member.id);
    const wrong = refused(await trpc(owner.cookie, "members.transferOwnership", { memberId, password: "not-the-password" }), 400, "INVALID_PARAMETER");
    expect(wrong.data.field).toBe("password");
    expect((await db().member.findUniqueOrThrow({ where: { id: memberId } })).role).toBe("editor");

    ok(await trpc(owner.cookie, "members.transferOwnership", { memberId, password: "password-123" }));
    const roles = await db().member.findMany({ where: { organizationId: owner.id }, select: { userId: true, role: true } });
    expect(Object.fromEntries(roles.map((r) => [r.userId, r.role]))).toEqual({ [owner.id]: "administrator", [member.id]: "owner" });
    // At once: the old owner cannot transfer it again; the new one may remove them.
    refused(await trpc(owner.cookie, "members.transferOwnership", { memberId, password: "password-123" }), 403, "INSUFFICIENT_PERMISSIONS");
    ok(await trpc(member.cookie, "members.switchPublication", { publicationId: owner.id }));
    expect(ok(await trpc(member.cookie, "members.list")).you.role).toBe("owner");
  });
});

describe("one publication's members never see another's", () => {
  it("members, invitations and memberships of another publication are not found", async () => {
    const [ann, bob, annMember] = await Promise.all([person(), person(), person()]);
    await join(ann, annMember, "author");
    const annInvitee = await createTestAccount();
    const annInvitation = await invite(ann, annInvitee, "author");
    const annMemberId = await memberIdOf(ann.id, annMember.id);

    const bobList = ok(await trpc(bob.cookie, "members.list"));
    expect(bobList.members.map((m: { userId: string }) => m.userId)).toEqual([bob.id]);
    expect(bobList.invitations).toEqual([]);
    refused(await trpc(bob.cookie, "members.changeRole", { memberId: annMemberId, role: "editor" }), 404, "RESOURCE_NOT_FOUND");
    refused(await trpc(bob.cookie, "members.remove", { memberId: annMemberId }), 404, "RESOURCE_NOT_FOUND");
    refused(await trpc(bob.cookie, "members.transferOwnership", { memberId: annMemberId, password: "password-123" }), 404, "RESOURCE_NOT_FOUND");
    refused(await trpc(bob.cookie, "members.revokeInvitation", { invitationId: annInvitation }), 404, "RESOURCE_NOT_FOUND");
    refused(await trpc(bob.cookie, "members.switchPublication", { publicationId: ann.id }), 404, "RESOURCE_NOT_FOUND");
    expect(ok(await trpc(bob.cookie, "members.publications")).map((p: { id: string }) => p.id)).toEqual([bob.id]);
    // Unchanged.
    expect((await db().member.findUniqueOrThrow({ where: { id: annMemberId } })).role).toBe("author");
    expect((await db().invitation.findUniqueOrThrow({ where: { id: annInvitation } })).status).toBe("pending");
  });

  it("no API key reaches the members procedures", async () => {
    const ann = await person();
    const answer = await trpc(null, "members.list", undefined, { headers: { "x-api-key": ann.key } });
    expect(answer.status).toBe(401);
  });
});
