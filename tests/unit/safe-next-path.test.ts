import { describe, expect, it } from "vitest";
import { safeNextPath } from "~/server/accounts/safe-next-path";

describe("safeNextPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/dashboard/keys", "/dashboard/keys"],
    ["/dashboard/blogs/blog123?created=1", "/dashboard/blogs/blog123?created=1"],
    ["/dashboard/usage#chart", "/dashboard/usage#chart"],
    ["/invitations/inv123", "/invitations/inv123"],
  ])("keeps the dashboard page %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    ["a backslash that browsers read as //", "/\\evil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["a doubly encoded backslash", "/%255Cevil.example"],
    ["a tab that URL parsers drop", "/\t/evil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded line break", "/dashboard/%0d%0aSet-Cookie:x=1"],
    ["a protocol-relative URL", "//evil.example"],
    ["an absolute URL", "https://evil.example/dashboard"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a path off the dashboard", "/sign-out"],
    ["a dashboard look-alike", "/dashboardevil"],
    ["an invitations look-alike", "/invitationsevil"],
    ["a path climbing out of an invitation", "/invitations/../sign-out"],
    ["a path climbing out of the dashboard", "/dashboard/../sign-out"],
    ["an encoded climb", "/dashboard/%2e%2e/sign-out"],
    ["malformed escapes", "/dashboard/%zz"],
    ["an overlong value", `/dashboard/${"a".repeat(3000)}`],
    ["nothing", undefined],
    ["an empty value", ""],
  ])("refuses %s and sends the owner to /dashboard", (_, next) => {
    expect(safeNextPath(next)).toBe("/dashboard");
  });
});
