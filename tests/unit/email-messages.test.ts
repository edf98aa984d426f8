import { describe, expect, it } from "vitest";
import { NOTICE_KINDS, renderEmail, type Email, type NoticeKind } from "~/server/email/messages";
import { verificationTokenClaims } from "~/server/email/account-emails";

const to = "ann@example.com";
const named = { to, name: "Ann <script>" };

/** The kinds that may greet by name (to an address the account has proven), with one. */
const NAMED_KINDS: Extract<Email, { name?: string }>[] = [
  { ...named, kind: "reset-password", url: "https://blogs.example.com/reset-password?token=xyz" },
  { ...named, kind: "account-exists", signInUrl: "https://blogs.example.com/sign-in", resetUrl: "https://blogs.example.com/forgot-password" },
  ...(Object.keys(NOTICE_KINDS) as NoticeKind[]).map((notice) => ({ ...named, kind: "notice" as const, notice, settingsUrl: "https://blogs.example.com/dashboard/account" })),
];

const EVERY_KIND: Email[] = [
  { to, kind: "verify-email", url: "https://blogs.example.com/api/auth/verify-email?token=a.b.c&callbackURL=%2Fdashboard" },
  { to, kind: "confirm-new-email", url: "https://blogs.example.com/api/auth/verify-email?token=d.e.f" },
  { to, kind: "confirm-subscription", publication: "Engine <Notes>", url: "https://blogs.example.com/ann/subscribe/confirm?token=t0k" },
  { to, kind: "invitation", publication: "Engine <Notes>", inviter: "Ann", role: "editor", url: "https://blogs.example.com/invitations/inv1" },
  ...NAMED_KINDS,
];

const label = (email: Email) => (email.kind === "notice" ? `notice ${email.notice}` : email.kind);

describe("the app's emails (src/server/email/messages.ts)", () => {
  it.each(EVERY_KIND.map((email) => [label(email), email] as const))("%s has a subject, both parts and its links", (_, email) => {
    const rendered = renderEmail(email);
    expect(rendered.subject.length).toBeGreaterThan(0);
    expect(rendered.links.length).toBeGreaterThan(0);
    for (const link of rendered.links) {
      expect(rendered.text).toContain(link);
      expect(rendered.html).toContain(link.replaceAll("&", "&amp;"));
    }
  });

  it.each(NAMED_KINDS.map((email) => [label(email), email] as const))("%s greets by the name given, escaped in HTML, and without one by none", (_, email) => {
    const rendered = renderEmail(email);
    expect(rendered.text).toContain("Hello Ann <script>,");
    expect(rendered.html).toContain("Hello Ann &lt;script&gt;,");
    expect(rendered.html).not.toContain("<script>");
    expect(renderEmail({ ...email, name: undefined }).text).toMatch(/^Hello,\n/);
  });

  it("the two kinds sent to an address not yet proven greet by no name, even from a job queued with one", () => {
    for (const email of EVERY_KIND.filter((e) => e.kind === "verify-email" || e.kind === "confirm-new-email")) {
      const queuedWithName = { ...email, name: "Security team: confirm at https://evil.example" } as unknown as Email;
      const { text } = renderEmail(queuedWithName);
      expect(text).toMatch(/^Hello,\n/);
      expect(text).not.toContain("evil.example");
    }
  });

  it("a subscription's confirmation names the publication, escaped in HTML, with its link and how long it works", () => {
    const { subject, text, html, links } = renderEmail({ to, kind: "confirm-subscription", publication: "Engine <Notes>", url: "https://news.example/subscribe/confirm?token=abc" });
    expect(subject).toBe("Confirm your subscription to Engine <Notes>");
    expect(text).toMatch(/^Hello,\n/);
    expect(text).toContain("the new posts of Engine <Notes> to be emailed to this address");
    expect(text).toContain("valid for 7 days");
    expect(html).toContain("Engine &lt;Notes&gt;");
    expect(html).not.toContain("<Notes>");
    expect(links).toEqual(["https://news.example/subscribe/confirm?token=abc"]);
  });

  it("an invitation names the publication, the inviter (when proven) and the role, escaped in HTML, with its link and how long it works", () => {
    const { subject, text, html, links } = renderEmail({ to, kind: "invitation", publication: "Engine <Notes>", inviter: "Ann", role: "author", url: "https://x.example/invitations/inv1" });
    expect(subject).toBe("Join Engine <Notes> on Blog Manager");
    expect(text).toMatch(/^Hello,\n/);
    expect(text).toContain("Ann invites you to join Engine <Notes> on Blog Manager as an author.");
    expect(text).toContain("valid for 7 days and works once");
    expect(html).toContain("Engine &lt;Notes&gt;");
    expect(html).not.toContain("<Notes>");
    expect(links).toEqual(["https://x.example/invitations/inv1"]);
    expect(renderEmail({ to, kind: "invitation", publication: "P", role: "editor", url: "https://x.example/invitations/i" }).text).toContain("You are invited to join P on Blog Manager as an editor.");
  });

  it("a notice names what changed and, when given, the detail", () => {
    const { subject, text } = renderEmail({ ...named, kind: "notice", notice: "email-changed", detail: "it is now new@example.com", settingsUrl: "https://x.example/dashboard/account" });
    expect(subject).toBe("Your account's email address was changed");
    expect(text).toContain("on your Blog Manager account: it is now new@example.com");
  });
});

describe("verificationTokenClaims", () => {
  const token = (claims: unknown) => `header.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.signature`;

  it("reads an email change's claims, and nothing from what is not a token", () => {
    expect(verificationTokenClaims(token({ email: "old@example.com", updateTo: "new@example.com", requestType: "change-email-verification", userId: "u1" }))).toEqual({
      email: "old@example.com",
      updateTo: "new@example.com",
      requestType: "change-email-verification",
      userId: "u1",
    });
    for (const junk of [undefined, 42, "", "no-dots", "a.%%%.c", token({ updateTo: "x" }), token("a string")]) expect(verificationTokenClaims(junk)).toBeUndefined();
  });
});
