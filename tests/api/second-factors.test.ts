import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { AUTH_ATTEMPTS_PER_MINUTE, SIGN_IN_BACKOFF } from "~/server/auth";
import { apiBaseUrl, createTestAccount, db, type TestAccount } from "../support/api";
import { authPost, signIn } from "../support/dashboard";
import { atStartOfAMinute, freshLoopbackAddress, httpRequest, uniqueEmail } from "../support/http-client";
import { emailsTo } from "../support/mailbox";

/**
 * Two-factor sign-in (better-auth's twoFactor plugin, docs/security.md) and the session list of the
 * account page, over real HTTP: codes computed from the secret as an authenticator app computes
 * them, backup codes used once, the throttles of sign-in applied to codes, turning it off only
 * with the password and a code; sessions listed and one ended.
 */

const PASSWORD = "password-123";

/** Every cookie an answer set, as one Cookie header (the two_factor cookie of a pending sign-in among them). */
function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .filter((cookie) => !/max-age=0/i.test(cookie))
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const answer = await httpRequest(apiBaseUrl(), "/api/auth/get-session", { headers: { cookie } });
  return (answer.body ? (JSON.parse(answer.body) as { user?: { email: string } } | null) : null)?.user?.email ?? null;
}

/** Turns two-factor sign-in on as the account page does; the app's TOTP, the backup codes, the new session cookie. */
async function enableTwoFactor(account: TestAccount, cookie?: string) {
  const session = cookie ?? (await signIn(account));
  const enabled = await authPost("/two-factor/enable", { password: PASSWORD }, session);
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const app = OTPAuth.URI.parse(enabled.body.totpURI) as OTPAuth.TOTP;
  const confirmed = await authPost("/two-factor/verify-totp", { code: app.generate() }, session);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { app, backupCodes: enabled.body.backupCodes as string[], cookie: confirmed.cookie ?? session };
}

/** The password step of a sign-in: the two_factor cookie the code step takes. */
async function passwordStep(account: Pick<TestAccount, "email">, localAddress = freshLoopbackAddress()): Promise<string> {
  const answer = await authPost("/sign-in/email", { email: account.email, password: PASSWORD }, undefined, apiBaseUrl(), localAddress);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
  const cookies = cookiesOf(answer.headers);
  // better-auth's session cookie only cleared: no session before the code.
  expect(cookies).not.toContain("session_token");
  return cookies;
}


/** The security notice reached the owner's inbox exactly once (docs/security.md, Security notices). */
async function expectNotice(email: string, subject: string): Promise<void> {
  await expect.poll(async () => (await emailsTo(email)).filter((received) => received.subject === subject).length, { timeout: 20_000 }).toBe(1);
}

describe("two-factor sign-in", () => {
  it("is turned on with the password and a first code from the app, then asked at every sign-in", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    expect((await authPost("/two-factor/enable", {}, cookie)).status).toBe(400);
    expect((await authPost("/two-factor/enable", { password: "not-the-password" }, cookie)).body.code).toBe("INVALID_PASSWORD");

    const started = await authPost("/two-factor/enable", { password: PASSWORD }, cookie);
    expect(started.status).toBe(200);
    expect(started.body.totpURI).toMatch(/^otpauth:\/\/totp\/Blog%20Manager:.+\?.*secret=[A-Z2-7]+/);
    expect(started.body.backupCodes).toHaveLength(10);
    // Not on until the app's code confirms the secret was taken.
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(false);
    const wrong = await authPost("/two-factor/verify-totp", { code: "000000" }, cookie);
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_CODE"]);
    const app = OTPAuth.URI.parse(started.body.totpURI) as OTPAuth.TOTP;
    expect((await authPost("/two-factor/verify-totp", { code: app.generate() }, cookie)).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(true);

    const pending = await passwordStep(account);
    expect(await sessionEmail(pending)).toBeNull();
    const signedIn = await authPost("/two-factor/verify-totp", { code: app.generate() }, pending);
    expect(signedIn.status).toBe(200);
    expect(await sessionEmail(signedIn.cookie!)).toBe(account.email);
    // Emailed once: when it was turned on, not at a sign-in with a code.
    await expectNotice(account.email, "Two-factor sign-in was turned on");
  });

  it("takes a backup code once, and never trusts a device to skip the code", async () => {
    const account = await createTestAccount();
    const { app, backupCodes } = await enableTwoFactor(account);

    const trusting = await authPost("/two-factor/verify-totp", { code: app.generate(), trustDevice: true }, await passwordStep(account));
    expect([trusting.status, trusting.body.code]).toEqual([400, "INVALID_PARAMETER"]);

    const withBackupCode = await authPost("/two-factor/verify-backup-code", { code: backupCodes[0] }, await passwordStep(account));
    expect(withBackupCode.status).toBe(200);
    expect(await sessionEmail(withBackupCode.cookie!)).toBe(account.email);

    const pending = await passwordStep(account);
    const reused = await authPost("/two-factor/verify-backup-code", { code: backupCodes[0] }, pending);
    expect([reused.status, reused.body.code]).toEqual([401, "INVALID_BACKUP_CODE"]);
    expect((await authPost("/two-factor/verify-backup-code", { code: backupCodes[1] }, pending)).status).toBe(200);
  });

  it("makes new backup codes with the password; the old ones stop working", async () => {
    const account = await createTestAccount();
    const { backupCodes, cookie } = await enableTwoFactor(account);
    expect((await authPost("/two-factor/generate-backup-codes", { password: "not-the-password" }, cookie)).status).toBe(400);
    const renewed = await authPost("/two-factor/generate-backup-codes", { password: PASSWORD }, cookie);
    expect(renewed.status).toBe(200);
    expect(renewed.body.backupCodes).toHaveLength(10);
    expect((await authPost("/two-factor/verify-backup-code", { code: backupCodes[0] }, await passwordStep(account))).status).toBe(401);
    expect((await authPost("/two-factor/verify-backup-code", { code: renewed.body.backupCodes[0] }, await passwordStep(account))).status).toBe(200);
    await expectNotice(account.email, "New backup codes were made, and the old ones no longer work");
  });

  it("is turned off only with the password and a code", async () => {
    const account = await createTestAccount();
    const { app, cookie } = await enableTwoFactor(account);
    const noCode = await authPost("/two-factor/disable", { password: PASSWORD }, cookie);
    expect([noCode.status, noCode.body.code]).toEqual([400, "CODE_REQUIRED"]);
    const wrongCode = await authPost("/two-factor/disable", { password: PASSWORD, code: "000000" }, cookie);
    expect([wrongCode.status, wrongCode.body.code]).toEqual([401, "INVALID_CODE"]);
    const wrongPassword = await authPost("/two-factor/disable", { password: "not-the-password", code: app.generate() }, cookie);
    expect([wrongPassword.status, wrongPassword.body.code]).toEqual([400, "INVALID_PASSWORD"]);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(true);

    const off = await authPost("/two-factor/disable", { password: PASSWORD, code: app.generate() }, cookie);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(false);
    expect(await db().twoFactor.count({ where: { userId: account.id } })).toBe(0);
    await expectNotice(account.email, "Two-factor sign-in was turned off");
    // The password alone signs in again.
    await signIn(account);
  });

  it(`counts wrong codes as failed sign-ins of the account's email: after ${SIGN_IN_BACKOFF.freeAttempts} in a row, even the right code waits`, async () => {
    const account = await createTestAccount();
    const { app } = await enableTwoFactor(account);
    // The password step is the first attempt without a success; each wrong code one more.
    const pending = await passwordStep(account);
    for (let i = 1; i < SIGN_IN_BACKOFF.freeAttempts; i++) {
      expect((await authPost("/two-factor/verify-totp", { code: "000000" }, pending)).status).toBe(401);
    }
    const held = await authPost("/two-factor/verify-totp", { code: app.generate() }, pending);
    expect([held.status, held.body.code]).toEqual([429, "TOO_MANY_SIGN_IN_ATTEMPTS"]);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(cookiesOf(held.headers)).not.toContain("session_token");
  });

  it(`counts codes in the sign-in budget of ${AUTH_ATTEMPTS_PER_MINUTE} attempts a minute per address`, async () => {
    const account = await createTestAccount();
    const { app } = await enableTwoFactor(account);
    const pending = await passwordStep(account);
    const socket = freshLoopbackAddress();
    await atStartOfAMinute();
    for (let i = 0; i < AUTH_ATTEMPTS_PER_MINUTE; i++) {
      expect((await authPost("/sign-in/email", { email: uniqueEmail(), password: "wrong-password" }, undefined, apiBaseUrl(), socket)).status).toBe(401);
    }
    const refused = await authPost("/two-factor/verify-totp", { code: app.generate() }, pending, apiBaseUrl(), socket);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // From another address the same challenge goes through: the refusal used up nothing of it.
    expect((await authPost("/two-factor/verify-totp", { code: app.generate() }, pending)).status).toBe(200);
  });
});

describe("the owner's sessions", () => {
  it("are listed with address, device and activity; one is ended, its cookie then signed out", async () => {
    const account = await createTestAccount();
    const [here, elsewhere] = [await signIn(account), await signIn(account)];
    const listed = await httpRequest(apiBaseUrl(), "/api/auth/list-sessions", { headers: { cookie: here } });
    expect(listed.status).toBe(200);
    const sessions = listed.json() as { token: string; ipAddress: string | null; updatedAt: string }[];
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      expect(session.ipAddress).toMatch(/^127\./);
      expect(Date.parse(session.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    }
    const other = sessions.find((session) => elsewhere.endsWith(encodeURIComponent(session.token)) || elsewhere.includes(session.token))!;
    expect(other).toBeDefined();

    // Another owner's token ends nothing.
    const stranger = await signIn(await createTestAccount());
    expect((await authPost("/revoke-session", { token: other.token }, stranger)).status).toBe(200);
    expect(await sessionEmail(elsewhere)).toBe(account.email);

    expect((await authPost("/revoke-session", { token: other.token }, here)).status).toBe(200);
    expect(await sessionEmail(elsewhere)).toBeNull();
    expect(await sessionEmail(here)).toBe(account.email);
    expect((await httpRequest(apiBaseUrl(), "/api/auth/list-sessions", { headers: { cookie: here } })).json()).toHaveLength(1);
  });
});
