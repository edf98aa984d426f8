import { describe, expect, it } from "vitest";
import { findSecrets, passwordsInTests } from "../../scripts/lib/secret-scan";

/** The scan `npm test` runs over the production server's log after the suite. */
describe("the server log's secret scan", () => {
  const known = { passwords: ["password-123"], sessionTokens: ["Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6"] };
  const key = `bm_${"a1".repeat(32)}`;

  it("finds a key, a password, a session cookie or token, and an api_key query, by line", () => {
    const log = [
      '{"level":"info","msg":"request","route":"/blogs","status":200}',
      `{"level":"error","msg":"x","header":"${key}"}`,
      '{"level":"error","body":{"password":"password-123"}}',
      '{"msg":"cookie: __Secure-better-auth.session_token=abc"}',
      '{"msg":"token Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6 seen"}',
      `{"msg":"Zx9Zx9Zx9Zx9Zx9Zx9Zx9Zx9Zx9Zx9Zx.${"A".repeat(42)}k%3D"}`,
      '{"msg":"GET /api/v1/blogs?api_key=whatever"}',
    ].join("\n");
    expect(findSecrets(log, known)).toEqual([
      { line: 2, kind: "API key" },
      { line: 3, kind: 'password "password-123"' },
      { line: 4, kind: "session cookie" },
      { line: 5, kind: "session token" },
      { line: 6, kind: "signed session token" },
      { line: 7, kind: "api_key query" },
    ]);
  });

  it("passes a log holding only ids, masked keys and redacted fields", () => {
    const log = '{"level":"info","msg":"request","keyId":"cm3abc","key":"bm_abcd…wxyz","password":"[redacted]","durationMs":3}';
    expect(findSecrets(log, known)).toEqual([]);
  });

  it("collects the passwords the tests use from their sources", async () => {
    const passwords = await passwordsInTests(["tests", "e2e"]);
    expect(passwords).toEqual(expect.arrayContaining(["password-123", "secret-123", "correct-horse-battery"]));
    expect(passwords).not.toContain("1234567");
  });
});
