import { describe, expect, it } from "vitest";
import { NOTICE_KINDS, renderEmail, type Email, type NoticeKind } from "~/server/email/messages";
import { verificationTokenClaims } from "~/server/email/account-emails";

const base = { to: "ann@example.com", name: "Ann <script>" };

const EVERY_KIND: Email[] = [
  { ...base, kind: "verify-email", url: "https://blogs.example.com/api/auth/verify-email?token=a.b.c&callbackURL=%2Fdashboard" },
  { ...base, kind: "confirm-new-email", url: "https://blogs.example.com/api/auth/verify-email?token=d.e.f" },
  { ...base, kind: "reset-password", url: "https://blogs.example.com/reset-password?token=xyz" },
  { ...base, kind: "account-exists", signInUrl: "https://blogs.example.com/sign-in", resetUrl: "https://blogs.example.com/forgot-password" },
  ...(Object.keys(NOTICE_KINDS) as NoticeKind[]).map((notice): Email => ({ ...base, kind: "notice", notice, settingsUrl: "https://blogs.example.com/dashboard/account" })),
];

describe("the app's emails (src/server/email/messages.ts)", () => {
  it.each(EVERY_KIND.map((email) => [email.kind === "notice" ? `notice ${email.notice}` : email.kind, email] as const))(
    "%s has a subject, both parts and its links, the name escaped in HTML",
    (_, email) => {
      const rendered = renderEmail(email);
      expect(rendered.subject.length).toBeGreaterThan(0);
      expect(rendered.text).toContain("Hello Ann <script>,");
      expect(rendered.html).toContain("Hello Ann &lt;script&gt;,");
      expect(rendered.html).not.toContain("<script>");
      expect(rendered.links.length).toBeGreaterThan(0);
      for (const link of rendered.links) {
        expect(rendered.text).toContain(link);
        expect(rendered.html).toContain(link.replaceAll("&", "&amp;"));
      }
    },
  );

  it("a notice names what changed and, when given, the detail", () => {
    const { subject, text } = renderEmail({ ...base, kind: "notice", notice: "email-changed", detail: "it is now new@example.com", settingsUrl: "https://x.example/dashboard/account" });
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
