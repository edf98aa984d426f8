/**
 * API2 Broken Authentication, the account emails (docs/security.md, Email): what an attacker can
 * make the app mail to someone else. Each address gets at most a few emails it did not ask for, in
 * the rate-limit store, whichever endpoints and client addresses ask, while security notices to a
 * verified address still arrive; an account has one live reset link, and none once the password is
 * reset; an email to an address not yet proven carries no text the requester chose. Against the
 * built server and its mailbox (tests/support/mailbox.ts).
 */
import { describe, expect, it } from "vitest";
import { RECIPIENT_EMAIL_LIMITS } from "~/server/email/recipient-cap";
import { createTestAccount, db } from "../support/api";
import { authPost, signIn } from "../support/dashboard";
import { uniqueEmail } from "../support/http-client";
import { emailsTo, waitForEmails, waitForLink, type CapturedEmail } from "../support/mailbox";

const PASSWORD = "password-123";
const [{ limit: EMAILS_PER_RECIPIENT }] = RECIPIENT_EMAIL_LIMITS;

/** Time enough for the job worker to have sent an email queued before now, had one been queued. */
const SETTLE_MS = 3_000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

const handle = () => `e${crypto.randomUUID().slice(0, 12)}`;
const signUp = (email: string, name = "Someone") => authPost("/sign-up/email", { email, password: PASSWORD, name, handle: handle() });
const requestReset = (email: string) => authPost("/request-password-reset", { email });
const resetToken = (email: CapturedEmail) => new URL(email.links[0]!).searchParams.get("token")!;
const resetWith = (token: string, newPassword: string) => authPost("/reset-password", { token, newPassword });
const liveResetLinks = (userId: string) => db().verification.count({ where: { value: userId, identifier: { startsWith: "reset-password:" } } });

/** What may differ between two answers: nothing but header values (dates, request ids). */
const shape = (answer: { status: number; headers: Headers; body: unknown }) => ({ status: answer.status, body: answer.body, headerNames: [...answer.headers.keys()].sort() });

describe("emails per recipient", () => {
  it(`sends one address at most ${EMAILS_PER_RECIPIENT} unasked-for emails, whichever endpoints ask; the capped ones answer alike and are not sent`, async () => {
    const victim = uniqueEmail("victim");
    const attacker = await createTestAccount();
    const attackerSession = await signIn(attacker);
    // An email change to the victim's address, then (the address now has an account) sign-ups,
    // a verification link sent again and resets, each from a client address of its own.
    expect((await authPost("/change-email", { newEmail: victim, password: PASSWORD }, attackerSession)).status).toBe(200);
    const asks = [() => signUp(victim), () => authPost("/send-verification-email", { email: victim }), () => requestReset(victim)];
    for (let ask = 0; ask < EMAILS_PER_RECIPIENT + 2; ask++) {
      const answer = await asks[ask % asks.length]!();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    // Past the cap, a reset for the victim answers as one for an address nobody asked about.
    expect(shape(await requestReset(victim))).toEqual(shape(await requestReset(uniqueEmail("unknown"))));

    await waitForEmails(victim, EMAILS_PER_RECIPIENT);
    await settle();
    expect(await emailsTo(victim)).toHaveLength(EMAILS_PER_RECIPIENT);
  });

  it("still sends the security notices of an owner with a verified address once the cap is spent, and keeps the last emailed reset link working", async () => {
    const owner = await createTestAccount();
    for (let ask = 0; ask < EMAILS_PER_RECIPIENT + 2; ask++) expect((await requestReset(owner.email)).status).toBe(200);
    const resets = await waitForEmails(owner.email, EMAILS_PER_RECIPIENT);
    await settle();
    expect(await emailsTo(owner.email)).toHaveLength(EMAILS_PER_RECIPIENT);
    expect(await liveResetLinks(owner.id)).toBe(1);

    const cookie = await signIn(owner);
    expect((await authPost("/change-password", { currentPassword: PASSWORD, newPassword: "changed-password-1" }, cookie)).status).toBe(200);
    const notice = (await waitForEmails(owner.email, EMAILS_PER_RECIPIENT + 1)).at(-1)!;
    expect(notice.subject).toBe("Your password was changed");
    expect((await resetWith(resetToken(resets.at(-1)!), "reset-password-1")).status).toBe(200);
  });

  it("counts the notices of an account whose address is not verified: its holder may not be the address's owner", async () => {
    const victim = uniqueEmail("noticed");
    expect((await signUp(victim)).status).toBe(200);
    const attackerSession = await signIn({ email: victim });
    let password = PASSWORD;
    for (let change = 0; change < EMAILS_PER_RECIPIENT + 1; change++) {
      const newPassword = `changed-password-${change}`;
      expect((await authPost("/change-password", { currentPassword: password, newPassword }, attackerSession)).status).toBe(200);
      password = newPassword;
    }
    await waitForEmails(victim, EMAILS_PER_RECIPIENT);
    await settle();
    expect(await emailsTo(victim)).toHaveLength(EMAILS_PER_RECIPIENT);
  });
});

describe("reset links", () => {
  it("a new link replaces the account's earlier one, and a reset leaves none working", async () => {
    const owner = await createTestAccount();
    expect((await requestReset(owner.email)).status).toBe(200);
    expect((await requestReset(owner.email)).status).toBe(200);
    const [first, second] = await waitForEmails(owner.email, 2);
    expect(await liveResetLinks(owner.id)).toBe(1);

    expect((await resetWith(resetToken(second!), "a-new-password-1")).status).toBe(200);
    const earlier = await resetWith(resetToken(first!), "attacker-password-1");
    expect(earlier.status).toBe(400);
    expect(earlier.body.code).toBe("INVALID_TOKEN");
    expect(await liveResetLinks(owner.id)).toBe(0);
    expect((await authPost("/sign-in/email", { email: owner.email, password: "a-new-password-1" })).status).toBe(200);
  });
});

describe("text the requester chose", () => {
  const LURE = "Security team: confirm at https://evil.example";
  const expectNoLure = (email: CapturedEmail) => {
    for (const part of [email.subject, email.text, email.html]) {
      expect(part).not.toContain("evil.example");
      expect(part).not.toContain("Security team");
    }
  };

  it("reaches no address not yet proven: sign-up's verification, a reset or 'account exists' to an unverified account, a new address's confirmation", async () => {
    const victim = uniqueEmail("lured");
    expect((await signUp(victim, LURE)).status).toBe(200);
    expect((await requestReset(victim)).status).toBe(200);
    expect((await signUp(victim, "Another lure https://evil.example")).status).toBe(200);
    const [verification, reset, accountExists] = await waitForEmails(victim, 3);
    expect([verification!.subject, reset!.subject, accountExists!.subject].sort()).toEqual(["Confirm your email address", "Reset your password", "You already have an account"]);
    for (const email of [verification!, reset!, accountExists!]) expectNoLure(email);

    const attacker = await createTestAccount();
    const attackerSession = await signIn(attacker);
    expect((await authPost("/update-user", { name: LURE }, attackerSession)).status).toBe(200);
    const newAddress = uniqueEmail("lured-new");
    expect((await authPost("/change-email", { newEmail: newAddress, password: PASSWORD }, attackerSession)).status).toBe(200);
    const { email: confirmation } = await waitForLink(newAddress);
    expect(confirmation.subject).toBe("Confirm your new email address");
    expectNoLure(confirmation);
  });

  it("greets a verified owner by their name", async () => {
    const owner = await createTestAccount();
    expect((await requestReset(owner.email)).status).toBe(200);
    const [reset] = await waitForEmails(owner.email);
    expect(reset!.text).toContain(`Hello ${owner.handle},`);
  });
});
