import { describe, expect, it } from "vitest";
import { AUTH_ATTEMPTS_PER_MINUTE, SIGN_IN_BACKOFF } from "~/server/auth";
import { apiBaseUrl, createTestAccount, db, type TestAccount } from "../support/api";
import { authenticatorApp } from "../support/authenticator-app";
import { authPost, signIn } from "../support/dashboard";
import { atStartOfAMinute, freshLoopbackAddress, httpRequest, uniqueEmail } from "../support/http-client";
import { emailsTo, waitForEmails, waitForLink } from "../support/mailbox";

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
  const app = authenticatorApp({ uri: enabled.body.totpURI });
  const confirmed = await authPost("/two-factor/verify-totp", { code: await app.nextCode() }, session);
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
    // Read off a screen or a sheet of paper: no 0/O/o, 1/l/I or other look-alikes, in three groups of four.
    for (const code of started.body.backupCodes as string[]) expect(code).toMatch(/^[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}$/);
    // Not on until the app's code confirms the secret was taken.
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(false);
    const wrong = await authPost("/two-factor/verify-totp", { code: "000000" }, cookie);
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_CODE"]);
    const app = authenticatorApp({ uri: started.body.totpURI });
    expect((await authPost("/two-factor/verify-totp", { code: await app.nextCode() }, cookie)).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(true);

    const pending = await passwordStep(account);
    expect(await sessionEmail(pending)).toBeNull();
    const signedIn = await authPost("/two-factor/verify-totp", { code: await app.nextCode() }, pending);
    expect(signedIn.status).toBe(200);
    expect(await sessionEmail(signedIn.cookie!)).toBe(account.email);
    // Emailed once: when it was turned on, not at a sign-in with a code.
    await expectNotice(account.email, "Two-factor sign-in was turned on");
  });

  it("takes a backup code once, and never trusts a device to skip the code", async () => {
    const account = await createTestAccount();
    const { app, backupCodes } = await enableTwoFactor(account);

    const trusting = await authPost("/two-factor/verify-totp", { code: await app.nextCode(), trustDevice: true }, await passwordStep(account));
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
    expect(new Set([...backupCodes, ...(renewed.body.backupCodes as string[])]).size).toBe(20);
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
    const wrongPassword = await authPost("/two-factor/disable", { password: "not-the-password", code: await app.nextCode() }, cookie);
    expect([wrongPassword.status, wrongPassword.body.code]).toEqual([400, "INVALID_PASSWORD"]);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).twoFactorEnabled).toBe(true);

    // The code the wrong password came with is still good: the password is checked first.
    const off = await authPost("/two-factor/disable", { password: PASSWORD, code: app.lastCode() }, cookie);
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
    const held = await authPost("/two-factor/verify-totp", { code: await app.nextCode() }, pending);
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
    const code = await app.nextCode();
    const refused = await authPost("/two-factor/verify-totp", { code }, pending, apiBaseUrl(), socket);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // From another address the same challenge and code go through: the refusal used up nothing of them.
    expect((await authPost("/two-factor/verify-totp", { code }, pending)).status).toBe(200);
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

/** A password reset by the emailed link, as the reset page makes it. */
async function resetPassword(email: string, newPassword: string): Promise<void> {
  expect((await authPost("/request-password-reset", { email })).status).toBe(200);
  const link = (await waitForEmails(email)).map((received) => received.links[0]).find((url) => url && new URL(url).pathname === "/reset-password");
  const token = new URL(link!).searchParams.get("token");
  const reset = await authPost("/reset-password", { token, newPassword });
  expect(reset.status, JSON.stringify(reset.body)).toBe(200);
}

/** An account made by sign-up, whose address nobody has confirmed yet, signed in. */
async function unverifiedAccount(): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail("squat");
  const signedUp = await authPost("/sign-up/email", { email, password: PASSWORD, name: "Squatter", handle: `sq-${crypto.randomUUID().slice(0, 12)}` });
  expect(signedUp.status).toBe(200);
  return { email, cookie: await signIn({ email }) };
}

/** A passkey row as @better-auth/passkey stores one (its credential made by a browser elsewhere). */
const storedPasskey = (userId: string) =>
  db().passkey.create({
    data: { id: crypto.randomUUID(), name: "Squatter's key", userId, credentialID: crypto.randomUUID(), publicKey: "cHVibGlj", counter: 0, deviceType: "singleDevice", backedUp: false },
  });

describe("second factors and account recovery", () => {
  it("no passkey or two-factor sign-in is set up on an account whose address is not confirmed", async () => {
    const { cookie } = await unverifiedAccount();
    const options = await httpRequest(apiBaseUrl(), "/api/auth/passkey/generate-register-options", { headers: { cookie } });
    expect([options.status, options.json().code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
    const authorization = await authPost("/passkey/authorize-registration", { password: PASSWORD }, cookie);
    expect([authorization.status, authorization.body.code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
    const registration = await authPost("/passkey/verify-registration", { response: {}, name: "Mine now" }, cookie);
    expect([registration.status, registration.body.code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
    const twoFactor = await authPost("/two-factor/enable", { password: PASSWORD }, cookie);
    expect([twoFactor.status, twoFactor.body.code]).toEqual([403, "EMAIL_NOT_VERIFIED"]);
  });

  it("an email change the squatter asked for before the reset no longer applies", async () => {
    const { email, cookie } = await unverifiedAccount();
    const squatterEmail = uniqueEmail("squatter");
    expect((await authPost("/change-email", { newEmail: squatterEmail, password: PASSWORD }, cookie)).status).toBe(200);
    const { link } = await waitForLink(squatterEmail);
    // The link's time is in whole seconds: the owner's reset comes in a later one, as it would.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The owner takes the address back: a reset by its emailed link.
    await resetPassword(email, "the-owners-password-1");
    const followed = await fetch(link, { redirect: "manual" });
    expect(followed.status).toBe(400);
    expect(((await followed.json()) as { code: string }).code).toBe("INVALID_TOKEN");
    expect(await db().user.count({ where: { email } })).toBe(1);
    expect(await db().user.count({ where: { email: squatterEmail } })).toBe(0);
  });

  it("a password reset removes the account's passkeys, and the owner is told", async () => {
    const account = await createTestAccount();
    await storedPasskey(account.id);
    await storedPasskey(account.id);
    await resetPassword(account.email, "a-new-password-1");
    expect(await db().passkey.count({ where: { userId: account.id } })).toBe(0);
    await expectNotice(account.email, "Your passkeys were removed");
  });
});

describe("adding a passkey", () => {
  const registrationOptions = (cookie: string) => httpRequest(apiBaseUrl(), "/api/auth/passkey/generate-register-options", { headers: { cookie } });

  it("takes the password, and a code when two-factor sign-in is on, before the browser is asked for a credential", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const authorize = (body: Record<string, unknown>, session = cookie) => authPost("/passkey/authorize-registration", body, session);
    // A session cookie alone gets no registration challenge.
    const unauthorized = await registrationOptions(cookie);
    expect([unauthorized.status, unauthorized.json().code]).toEqual([403, "PASSKEY_NOT_AUTHORIZED"]);
    const without = await authorize({});
    expect([without.status, without.body.code]).toEqual([400, "PASSWORD_REQUIRED"]);
    const wrong = await authorize({ password: "not-the-password" });
    expect([wrong.status, wrong.body.code]).toEqual([400, "INVALID_PASSWORD"]);
    expect((await registrationOptions(cookie)).status).toBe(403);

    expect((await authorize({ password: PASSWORD })).status).toBe(200);
    const options = await registrationOptions(cookie);
    expect(options.status).toBe(200);
    expect(options.json().authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    // One challenge per authorization.
    expect((await registrationOptions(cookie)).status).toBe(403);

    const { app, cookie: withTwoFactor } = await enableTwoFactor(account, cookie);
    const noCode = await authorize({ password: PASSWORD }, withTwoFactor);
    expect([noCode.status, noCode.body.code]).toEqual([400, "CODE_REQUIRED"]);
    const wrongCode = await authorize({ password: PASSWORD, code: "000000" }, withTwoFactor);
    expect([wrongCode.status, wrongCode.body.code]).toEqual([401, "INVALID_CODE"]);
    expect((await registrationOptions(withTwoFactor)).status).toBe(403);
    expect((await authorize({ password: PASSWORD, code: await app.nextCode() }, withTwoFactor)).status).toBe(200);
    expect((await registrationOptions(withTwoFactor)).status).toBe(200);
  });

  it("asks the browser to verify the owner at sign-in too", async () => {
    const options = await httpRequest(apiBaseUrl(), "/api/auth/passkey/generate-authenticate-options", {});
    expect(options.json().userVerification).toBe("required");
  });
});

describe("codes from the app", () => {
  it("are taken once: the code that signed in does not sign in again", async () => {
    const account = await createTestAccount();
    const { app } = await enableTwoFactor(account);
    // The code that turned it on is spent already.
    const replayedSetup = await authPost("/two-factor/verify-totp", { code: app.lastCode() }, await passwordStep(account));
    expect([replayedSetup.status, replayedSetup.body.code]).toEqual([401, "INVALID_CODE"]);
    const code = await app.nextCode();
    expect((await authPost("/two-factor/verify-totp", { code }, await passwordStep(account))).status).toBe(200);
    const replayed = await authPost("/two-factor/verify-totp", { code }, await passwordStep(account));
    expect([replayed.status, replayed.body.code]).toEqual([401, "INVALID_CODE"]);
    expect(cookiesOf(replayed.headers)).not.toContain("session_token");
  });

  it("are taken once by sign-ins racing with the same code: one gets in", async () => {
    const account = await createTestAccount();
    const { app } = await enableTwoFactor(account);
    const [first, second] = [await passwordStep(account), await passwordStep(account)];
    const racing = await app.nextCode();
    const answers = await Promise.all([first, second].map((pending) => authPost("/two-factor/verify-totp", { code: racing }, pending)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  it("turning two-factor sign-in on ends the owner's other sessions", async () => {
    const account = await createTestAccount();
    const elsewhere = await signIn(account);
    const { cookie } = await enableTwoFactor(account);
    expect(await sessionEmail(elsewhere)).toBeNull();
    expect(await sessionEmail(cookie)).toBe(account.email);
  });

  it("turning it off with a wrong password spends no backup code", async () => {
    const account = await createTestAccount();
    const { backupCodes, cookie } = await enableTwoFactor(account);
    const wrongPassword = await authPost("/two-factor/disable", { password: "not-the-password", code: backupCodes[0] }, cookie);
    expect([wrongPassword.status, wrongPassword.body.code]).toEqual([400, "INVALID_PASSWORD"]);
    expect((await authPost("/two-factor/verify-backup-code", { code: backupCodes[0] }, await passwordStep(account))).status).toBe(200);
  });
});
