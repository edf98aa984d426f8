import { describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount, db } from "../support/api";
import { authPost, signIn, trpc } from "../support/dashboard";
import { httpRequest, uniqueEmail } from "../support/http-client";
import { acceptMailTo, emailsTo, refuseMailTo, refusedAttempts, waitForEmails, waitForLink } from "../support/mailbox";

/**
 * The account emails against the built server and a real SMTP server (scripts/lib/mailbox.ts),
 * following the links the emails hold (docs/security.md, Email): verification, password reset,
 * email change, security notices, retries while the mail server is down, and sign-up, sign-in and
 * reset answering alike for known and unknown addresses.
 */

const PASSWORD = "password-123";

async function signUp(email: string, password = PASSWORD) {
  const handle = `m-${crypto.randomUUID().slice(0, 12)}`;
  return authPost("/sign-up/email", { email, password, name: "Mail Owner", handle });
}

/** Follows an emailed link without following its redirect; answers the status and where it leads. */
async function follow(link: string, cookie?: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(link, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: response.status, location: response.headers.get("location") };
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const response = await fetch(new URL("/api/auth/get-session", apiBaseUrl()), { headers: { cookie } });
  const body = (await response.json()) as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

const resetToken = (link: string) => new URL(link).searchParams.get("token")!;

describe("sign-up, verification and password reset, by the emailed links", () => {
  it("sign-up → verify → reset → sign-in: each link works once, the reset signs out every session and is noticed", async () => {
    const email = uniqueEmail("path");
    const signedUp = await signUp(email);
    expect(signedUp.status).toBe(200);
    expect(signedUp.body).toEqual({ status: true });
    expect(signedUp.cookie).toBeUndefined();
    const cookie = await signIn({ email });
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(false);

    const { email: verification, link } = await waitForLink(email);
    expect(verification.subject).toBe("Confirm your email address");
    expect(verification.html).toContain("Confirm my address");
    expect(await follow(link, cookie)).toEqual({ status: 302, location: "/dashboard?verified=1" });
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(true);

    const elsewhere = await signIn({ email });
    expect((await authPost("/request-password-reset", { email })).status).toBe(200);
    const reset = await waitForLink(email, 2);
    expect(reset.email.subject).toBe("Reset your password");
    expect(new URL(reset.link).pathname).toBe("/reset-password");
    expect((await fetch(reset.link)).status).toBe(200);
    const token = resetToken(reset.link);
    expect((await authPost("/reset-password", { token, newPassword: "a-new-password-1" })).status).toBe(200);
    expect(await sessionEmail(cookie)).toBeNull();
    expect(await sessionEmail(elsewhere)).toBeNull();
    const again = await authPost("/reset-password", { token, newPassword: "a-third-password-1" });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("INVALID_TOKEN");

    expect((await authPost("/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
    expect((await authPost("/sign-in/email", { email, password: "a-new-password-1" })).status).toBe(200);
    const notice = (await waitForEmails(email, 3))[2]!;
    expect(notice.subject).toBe("Your password was changed");
  });

  it("refuses a reset link an hour old", async () => {
    const account = await createTestAccount();
    expect((await authPost("/request-password-reset", { email: account.email })).status).toBe(200);
    const { link } = await waitForLink(account.email);
    await db().verification.updateMany({ where: { identifier: `reset-password:${resetToken(link)}` }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const answer = await authPost("/reset-password", { token: resetToken(link), newPassword: "a-new-password-1" });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("INVALID_TOKEN");
    await signIn(account);
  });

  it("mails no link made from a forged Host: without BETTER_AUTH_URL, links start only with this machine's origin", async () => {
    const account = await createTestAccount();
    const forged = await httpRequest(apiBaseUrl(), "/api/auth/request-password-reset", {
      method: "POST",
      headers: { host: "evil.example", origin: "http://evil.example", "content-type": "application/json" },
      body: { email: account.email },
    });
    expect(forged.status).toBe(200);
    expect((await authPost("/request-password-reset", { email: account.email })).status).toBe(200);
    const { link } = await waitForLink(account.email);
    expect(new URL(link).origin).toBe(new URL(apiBaseUrl()).origin);
    // The forged request came first: had it queued an email, the worker would have sent it by now.
    expect(await emailsTo(account.email)).toHaveLength(1);
  });

  it("answers a reset at once while the mail server is down; the email arrives once it is back", async () => {
    const account = await createTestAccount();
    await refuseMailTo(account.email);
    const startedAt = Date.now();
    expect((await authPost("/request-password-reset", { email: account.email })).status).toBe(200);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    const deadline = Date.now() + 15_000;
    while ((await refusedAttempts(account.email)) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await refusedAttempts(account.email)).toBeGreaterThan(0);
    expect(await emailsTo(account.email)).toEqual([]);
    await acceptMailTo(account.email);
    const [reset] = await waitForEmails(account.email, 1, 30_000);
    expect(reset!.subject).toBe("Reset your password");
  });
});

describe("changing the email", () => {
  it("takes effect only from the new address's link, tells the old one, and ends the other sessions", async () => {
    const account = await createTestAccount();
    const [here, elsewhere] = [await signIn(account), await signIn(account)];
    const newEmail = uniqueEmail("moved");
    expect((await authPost("/change-email", { newEmail, password: PASSWORD }, here)).status).toBe(200);
    const { email: confirmation, link } = await waitForLink(newEmail);
    expect(confirmation.subject).toBe("Confirm your new email address");
    expect(await sessionEmail(here)).toBe(account.email);
    expect(await sessionEmail(elsewhere)).toBe(account.email);

    expect(await follow(link, here)).toEqual({ status: 302, location: "/dashboard/account?email-changed=1" });
    expect(await sessionEmail(here)).toBe(newEmail);
    expect(await sessionEmail(elsewhere)).toBeNull();
    const [notice] = await waitForEmails(account.email);
    expect(notice!.subject).toBe("Your account's email address was changed");
    expect(notice!.text).toContain(newEmail);
    await signIn({ email: newEmail });
    // Used again, the link changes nothing.
    expect((await follow(link)).location).toMatch(/error=/);
  });
});

describe("an unverified owner", () => {
  it("may not create API keys or webhook endpoints in the dashboard until verified (403 EMAIL_NOT_VERIFIED); then key changes are noticed", async () => {
    const email = uniqueEmail("unverified");
    expect((await signUp(email)).status).toBe(200);
    const cookie = await signIn({ email });
    const key = await trpc(cookie, "keys.create", { name: "too soon", permissions: ["read:blogs"] });
    expect(key.status).toBe(403);
    expect(key.body.error.data.apiCode).toBe("EMAIL_NOT_VERIFIED");
    expect(key.body.error.message).toBe("Confirm your email address before creating API keys or webhook endpoints");
    const endpoint = await trpc(cookie, "webhooks.create", { url: "http://127.0.0.1:9/hook", eventTypes: ["blog.created"] });
    expect(endpoint.status).toBe(403);
    expect(endpoint.body.error.data.apiCode).toBe("EMAIL_NOT_VERIFIED");
    expect(await db().apiKey.count({ where: { account: { members: { some: { user: { email } } } } } })).toBe(0);

    const { link } = await waitForLink(email);
    await follow(link, cookie);
    const created = await trpc(cookie, "keys.create", { name: "now", permissions: ["read:blogs"] });
    expect(created.status).toBe(200);
    const notice = (await waitForEmails(email, 2))[1]!;
    expect(notice.subject).toBe("A new API key was created");
    expect(notice.text).toContain('"now"');
    expect((await trpc(cookie, "keys.roll", { id: created.body.result.data.id })).status).toBe(200);
    const rolled = (await waitForEmails(email, 3))[2]!;
    expect(rolled.subject).toBe("An API key was rolled");
    expect(rolled.text).toContain('"now"');
  });
});

describe("no account enumeration", () => {
  /** What may differ between two answers: nothing but header values (dates, request ids). */
  const shape = (answer: { status: number; headers: Headers; body: unknown }) => ({ status: answer.status, body: answer.body, headerNames: [...answer.headers.keys()].sort() });

  it("sign-up, sign-in and reset answer alike for a known and an unknown address; the known one is told by email", async () => {
    const known = await createTestAccount();
    const unknown = uniqueEmail("nobody");
    const handle = () => `e-${crypto.randomUUID().slice(0, 12)}`;
    const signUpAs = (email: string) => authPost("/sign-up/email", { email, password: "another-password", name: "Someone", handle: handle() });
    expect(shape(await signUpAs(known.email))).toEqual(shape(await signUpAs(uniqueEmail("fresh"))));
    const signInAs = (email: string) => authPost("/sign-in/email", { email, password: "not-the-password" });
    expect(shape(await signInAs(known.email))).toEqual(shape(await signInAs(unknown)));
    const resetFor = (email: string) => authPost("/request-password-reset", { email });
    expect(shape(await resetFor(known.email))).toEqual(shape(await resetFor(unknown)));

    const [accountExists] = await waitForEmails(known.email);
    expect(accountExists!.subject).toBe("You already have an account");
    expect(await db().user.count({ where: { email: known.email } })).toBe(1);
  });
});
