import { describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs } from "../support/api";
import { authPost, signIn, trpc } from "../support/dashboard";
import { waitForEmails } from "../support/mailbox";

/**
 * The account settings page's calls to better-auth (/api/auth) over real HTTP: email (current
 * password required: tests/security/api2-...-account-endpoints.test.ts; confirmed by the new
 * address, other sessions signed out: tests/api/account-email.test.ts), password
 * (current one required, other sessions signed out), other sessions, and deletion with everything
 * the account holds. Handles: tests/security/api3-...-handles.test.ts.
 */

async function sessionEmail(cookie: string): Promise<string | null> {
  const response = await fetch(new URL("/api/auth/get-session", apiBaseUrl()), { headers: { cookie } });
  const body = (await response.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

describe("account settings", () => {
  it("changes the password only with the current one, and can sign out the other sessions", async () => {
    const account = await createTestAccount();
    const [here, elsewhere] = [await signIn(account), await signIn(account)];
    const wrong = await authPost("/change-password", { currentPassword: "not-the-password", newPassword: "another-password-1" }, here);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    const changed = await authPost("/change-password", { currentPassword: "password-123", newPassword: "another-password-1", revokeOtherSessions: true }, here);
    expect(changed.status).toBe(200);
    expect(await sessionEmail(elsewhere)).toBeNull();
    // The session that changed it goes on (better-auth gives it a new cookie).
    expect(await sessionEmail(changed.cookie ?? here)).toBe(account.email);
    expect((await authPost("/sign-in/email", { email: account.email, password: "password-123" })).status).toBe(401);
    const [notice] = await waitForEmails(account.email);
    expect(notice!.subject).toBe("Your password was changed");
  });

  it("signs out every other session", async () => {
    const account = await createTestAccount();
    const [here, elsewhere] = [await signIn(account), await signIn(account)];
    expect((await authPost("/revoke-other-sessions", {}, here)).status).toBe(200);
    expect(await sessionEmail(elsewhere)).toBeNull();
    expect(await sessionEmail(here)).toBe(account.email);
  });

  it("deletes the account only with its password, and its blogs, keys, usage and request log with it", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    await seedBlogs(account.id, [{ title: "goes too", isPublic: true }]);
    expect((await call("/blogs", { key: account.key })).status).toBe(200);
    expect((await trpc(cookie, "keys.activity", { id: (await db().apiKey.findFirstOrThrow({ where: { userId: account.id } })).id })).status).toBe(200);

    expect((await authPost("/delete-user", {}, cookie)).status).toBe(400);
    expect((await authPost("/delete-user", { password: "not-the-password" }, cookie)).status).toBe(400);
    expect(await db().user.count({ where: { id: account.id } })).toBe(1);

    expect((await authPost("/delete-user", { password: "password-123" }, cookie)).status).toBe(200);
    const where = { where: { userId: account.id } };
    expect(await db().user.count({ where: { id: account.id } })).toBe(0);
    expect([await db().blog.count(where), await db().apiKey.count(where), await db().usageDaily.count(where), await db().apiRequestLog.count(where)]).toEqual([0, 0, 0, 0]);
    expect((await call("/blogs", { key: account.key })).json.error?.code).toBe("INVALID_API_KEY");
    expect(await sessionEmail(cookie)).toBeNull();
  });
});
