/**
 * OWASP API Security Top 10 (2023), API2: Broken Authentication, on the account endpoints of
 * /api/auth (better-auth): only the endpoints the app uses answer; every endpoint that checks a
 * password shares the sign-in limit per address and the backoff per email; the sign-in email
 * changes only with the password and takes the other sessions with it; display names and bodies
 * are bounded; nothing changes from another origin, and forwarding headers move nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { AUTH_ATTEMPTS_PER_MINUTE, AUTH_ENDPOINTS, AUTH_MAX_BODY_BYTES, SIGN_IN_BACKOFF, getAuth } from "~/server/auth";
import { apiBaseUrl, createTestAccount, db } from "../support/api";
import { authPost, signIn, trpc } from "../support/dashboard";
import { atStartOfAMinute, freshLoopbackAddress, httpRequest, postWithoutFinishing, uniqueEmail, type HttpOptions } from "../support/http-client";

const PASSWORD = "password-123";

const post = (path: string, body: unknown, options: HttpOptions = {}) => httpRequest(apiBaseUrl(), `/api/auth${path}`, { ...options, method: "POST", body });

async function sessionEmail(cookie: string): Promise<string | null> {
  const answer = await httpRequest(apiBaseUrl(), "/api/auth/get-session", { headers: { cookie } });
  return (answer.body ? (JSON.parse(answer.body) as { user?: { email: string } } | null) : null)?.user?.email ?? null;
}

describe("better-auth's endpoints the app does not use", () => {
  const unused = Object.values(getAuth().api as Record<string, { path?: string }>)
    .map((endpoint) => endpoint.path)
    .filter((path): path is string => typeof path === "string" && !AUTH_ENDPOINTS.has(path));

  it("are a list that covers verify-password, the reset link's redirect, unused second-factor and the social flows", () => {
    expect(unused).toEqual(expect.arrayContaining(["/verify-password", "/reset-password/:token", "/sign-in/social", "/revoke-sessions", "/two-factor/send-otp", "/two-factor/get-totp-uri"]));
  });

  it("answer 404 to every method, signed in or not, and check no password however often they are asked", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    for (const path of unused) {
      const concrete = path.replace(/:[a-zA-Z]+/g, "x");
      for (const method of ["GET", "POST"]) {
        const answer = await httpRequest(apiBaseUrl(), `/api/auth${concrete}`, { method, headers: { cookie }, body: method === "POST" ? {} : undefined });
        expect(answer.status, `${method} ${concrete}`).toBe(404);
      }
    }
    const socket = freshLoopbackAddress();
    for (let i = 0; i < 15; i++) {
      const answer = await post("/verify-password", { password: `guess-${i}` }, { headers: { cookie }, localAddress: socket });
      expect(answer.status).toBe(404);
    }
  });
});

describe("every endpoint that checks a password", () => {
  it(`shares the sign-in limit of ${AUTH_ATTEMPTS_PER_MINUTE} a minute per address`, async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const socket = freshLoopbackAddress();
    await atStartOfAMinute();
    for (let i = 0; i < AUTH_ATTEMPTS_PER_MINUTE; i++) {
      expect((await post("/sign-in/email", { email: uniqueEmail(), password: "wrong-password" }, { localAddress: socket })).status).toBe(401);
    }
    for (const [path, body] of [
      ["/change-password", { currentPassword: "wrong-password", newPassword: "another-password-1" }],
      ["/change-email", { newEmail: uniqueEmail(), password: "wrong-password" }],
      ["/delete-user", { password: "wrong-password" }],
    ] as const) {
      const answer = await post(path, body, { headers: { cookie }, localAddress: socket });
      expect(answer.status, path).toBe(429);
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(await db().user.count({ where: { id: account.id } })).toBe(1);
  });

  it(`shares the backoff of its email: ${SIGN_IN_BACKOFF.freeAttempts} wrong passwords in the settings hold back sign-in too`, async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const guesses = [
      ["/change-password", { currentPassword: "wrong-password", newPassword: "another-password-1" }],
      ["/change-email", { newEmail: uniqueEmail(), password: "wrong-password" }],
      ["/delete-user", { password: "wrong-password" }],
    ] as const;
    for (let i = 0; i < SIGN_IN_BACKOFF.freeAttempts; i++) {
      const [path, body] = guesses[i % guesses.length]!;
      expect((await post(path, body, { headers: { cookie }, localAddress: freshLoopbackAddress() })).status, path).toBe(400);
    }
    for (const [path, body] of guesses) {
      const answer = await post(path, body, { headers: { cookie }, localAddress: freshLoopbackAddress() });
      expect(answer.status, path).toBe(429);
      expect(answer.json().code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
    }
    const signInWaits = await post("/sign-in/email", { email: account.email, password: PASSWORD }, { localAddress: freshLoopbackAddress() });
    expect(signInWaits.status).toBe(429);
    expect(Number(signInWaits.headers["retry-after"])).toBeLessThanOrEqual(SIGN_IN_BACKOFF.firstDelaySeconds);
  });
});

describe("changing the sign-in email", () => {
  it("takes the current password; the change waits for the new address's link (tests/api/account-email.test.ts)", async () => {
    const account = await createTestAccount();
    const [here, elsewhere] = [await signIn(account), await signIn(account)];
    const newEmail = uniqueEmail();
    const without = await authPost("/change-email", { newEmail }, here);
    expect(without.status).toBe(400);
    expect(without.body.code).toBe("PASSWORD_REQUIRED");
    const wrong = await authPost("/change-email", { newEmail, password: "not-the-password" }, here);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    expect(await sessionEmail(here)).toBe(account.email);
    expect(await sessionEmail(elsewhere)).toBe(account.email);

    expect((await authPost("/change-email", { newEmail, password: PASSWORD }, here)).status).toBe(200);
    expect(await sessionEmail(here)).toBe(account.email);
    expect(await sessionEmail(elsewhere)).toBe(account.email);
  });
});

describe("display names and bodies", () => {
  const signUpBody = (name: unknown) => ({ email: uniqueEmail(), password: PASSWORD, name, handle: `n${crypto.randomUUID().slice(0, 12)}` });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["101 characters", "x".repeat(101)],
    ["a NUL", "Ann\u0000"],
    ["a line break", "Ann\nEvil"],
    ["an escape", "Ann\u001b[31m"],
    ["DEL", "Ann\u007f"],
    ["a C1 control", "Ann\u0085"],
    ["not a string", 42],
  ])("refuses a name that is %s at sign-up and in the settings, storing nothing", async (_, name) => {
    const signUp = await post("/sign-up/email", signUpBody(name), { localAddress: freshLoopbackAddress() });
    expect(signUp.status).toBe(400);
    expect(signUp.json().message).toMatch(/name/);

    const account = await createTestAccount();
    const cookie = await signIn(account);
    const update = await authPost("/update-user", { name }, cookie);
    expect(update.status).toBe(400);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).name).toBe(account.handle);
  });

  it("takes a name of 100 characters (astral ones counted once), trimmed", async () => {
    const name = `${"é".repeat(98)}😀x`;
    const body = signUpBody(` ${name} `);
    expect((await post("/sign-up/email", body, { localAddress: freshLoopbackAddress() })).status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { email: body.email } })).name).toBe(name);
    const update = await authPost("/update-user", { name: " Ann Owner " }, await signIn({ email: body.email }));
    expect(update.status).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { email: body.email } })).name).toBe("Ann Owner");
  });

  it.each([
    ["a javascript: URL", "javascript:alert(document.cookie)"],
    ["60,000 characters", `https://example.test/${"a".repeat(60_000)}`],
    ["an https URL", "https://example.test/me.png"],
  ])("stores no picture at sign-up or in the settings (the app shows none): %s is refused", async (_, image) => {
    const body = { ...signUpBody("Ann"), image };
    const signUp = await post("/sign-up/email", body, { localAddress: freshLoopbackAddress() });
    expect([signUp.status, signUp.json().code]).toEqual([400, "INVALID_PARAMETER"]);
    expect(await db().user.count({ where: { email: body.email } })).toBe(0);

    const account = await createTestAccount();
    const update = await authPost("/update-user", { image }, await signIn(account));
    expect([update.status, update.body.code]).toEqual([400, "INVALID_PARAMETER"]);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).image).toBeNull();
  });

  it(`refuses a body over ${AUTH_MAX_BODY_BYTES / 1024} KiB with 413, declared or streamed`, async () => {
    const huge = signUpBody("x".repeat(AUTH_MAX_BODY_BYTES));
    const declared = await post("/sign-up/email", huge, { localAddress: freshLoopbackAddress() });
    expect(declared.status).toBe(413);
    const streamed = await fetch(new URL("/api/auth/sign-up/email", apiBaseUrl()), {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(apiBaseUrl()).origin },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(huge)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await db().user.count({ where: { email: huge.email } })).toBe(0);
  });

  it("stops reading past 64 KiB: a body declared at 10 MB, or chunked, is answered before the rest is sent", async () => {
    for (const [sent, declared] of [[128 * 1024, 10 * 1024 * 1024], [1024 * 1024, undefined]] as const) {
      const answer = await postWithoutFinishing("/api/auth/sign-up/email", {}, sent, declared);
      expect(answer.status).toBe(413);
      expect(answer.body.code).toBe("PAYLOAD_TOO_LARGE");
    }
  });
});

describe("text PostgreSQL cannot store", () => {
  let server: RunningServer;
  const output: Buffer[] = [];
  let startLines = 0;

  beforeAll(async () => {
    server = await startProductionServer(process.env, { logFile: serverLogFile(), onOutput: (chunk) => output.push(chunk) });
    // What it printed while starting (Next's banner) is not a request's.
    startLines = output.length;
  }, 120_000);

  afterAll(() => server?.stop());

  it("is a 400 naming the field on every /api/auth endpoint, and nothing but JSON log lines reaches the server's output", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account, server.baseUrl);
    const send = (path: string, body: unknown, withCookie = true) =>
      httpRequest(server.baseUrl, `/api/auth${path}`, { method: "POST", body, headers: withCookie ? { cookie } : {}, localAddress: freshLoopbackAddress() });
    const cases: [string, Record<string, unknown>, string, boolean][] = [
      ["/update-user", { name: "Ann\u0000" }, "name", true],
      ["/update-user", { image: "https://example.test/\u0000.png" }, "image", true],
      ["/update-user", { name: "Ann \ud800" }, "name", true],
      ["/update-user", { handle: "ann\u0000" }, "handle", true],
      ["/sign-up/email", { email: uniqueEmail(), password: "pass\u0000word-123", name: "Ann", handle: "ann-nul" }, "password", false],
      ["/sign-up/email", { email: uniqueEmail(), password: PASSWORD, name: "Ann", handle: "ann-nul", callbackURL: "/\u0000" }, "callbackURL", false],
      ["/sign-in/email", { email: `a\u0000${uniqueEmail()}`, password: PASSWORD }, "email", false],
      ["/change-password", { currentPassword: PASSWORD, newPassword: "new\u0000password" }, "newPassword", true],
      ["/change-email", { newEmail: uniqueEmail(), password: "\u0000" }, "password", true],
    ];
    for (const [path, body, field, withCookie] of cases) {
      const answer = await send(path, body, withCookie);
      expect(answer.status, `${path} ${field}`).toBe(400);
      expect(answer.json().message, path).toContain(field);
    }
    expect((await httpRequest(server.baseUrl, "/api/auth/update-user", { method: "POST", headers: { cookie, "content-type": "application/json" }, body: undefined })).status).toBeLessThan(500);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).name).toBe(account.handle);
    // One request that is surely logged (the API's access line), so the output read is not empty.
    expect((await httpRequest(server.baseUrl, "/api/v1/blogs")).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = Buffer.concat(output.slice(startLines)).toString("utf8").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  });
});

describe("requests from other origins", () => {
  const own = () => new URL(apiBaseUrl()).origin;
  const sibling = () => `http://evil.${new URL(apiBaseUrl()).hostname}.nip.io:${new URL(apiBaseUrl()).port}`;

  it("never run a dashboard mutation: a key is created only from the app's own origin, as JSON", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const keysBefore = await db().apiKey.count({ where: { userId: account.id } });
    const create = (headers: Record<string, string>) =>
      exactPost("/api/trpc/keys.create", { name: "csrf", permissions: ["read:blogs"] }, { cookie, "content-type": "application/json", ...headers });
    const refusals: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: sibling() },
      { origin: "null" },
      { origin: "" },
      { origin: own().replace("http:", "https:") },
      {},
      { "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
      { origin: own(), "content-type": "text/plain" },
      { origin: own(), "content-type": "application/x-www-form-urlencoded" },
      { origin: own(), "content-type": "multipart/form-data; boundary=x" },
    ];
    for (const headers of refusals) {
      const refused = await create(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect((await refused.json()).error.code).toBe("FORBIDDEN");
    }
    expect(await db().apiKey.count({ where: { userId: account.id } })).toBe(keysBefore);
    expect((await create({ origin: own() })).status).toBe(200);
    expect((await create({ "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await trpc(cookie, "keys.list")).status).toBe(200);
  });

  it("never sign in, sign up or change an account through /api/auth", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    for (const origin of ["https://evil.example", sibling()]) {
      const signInAnswer = await post("/sign-in/email", { email: account.email, password: PASSWORD }, { headers: { origin }, localAddress: freshLoopbackAddress() });
      expect(signInAnswer.status).toBe(403);
      expect(signInAnswer.headers["set-cookie"]).toBeUndefined();
      expect((await post("/update-user", { name: "Hijacked" }, { headers: { origin, cookie } })).status).toBe(403);
    }
    expect((await exactPost("/api/auth/update-user", { name: "Hijacked" }, { cookie, "content-type": "application/json" })).status).toBe(403);
    expect((await exactPost("/api/auth/sign-out", {}, { cookie, "content-type": "application/x-www-form-urlencoded", origin: own() })).status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: account.id } })).name).toBe(account.handle);
    expect(await sessionEmail(cookie)).toBe(account.email);
  });

  it("never trust X-Forwarded-Host: no session, trusted origin or redirect follows a forged one", async () => {
    const account = await createTestAccount();
    const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const fromEvil = await post(
      "/sign-in/email",
      { email: account.email, password: PASSWORD, callbackURL: "https://evil.example/steal" },
      { headers: { ...forged, origin: "https://evil.example" }, localAddress: freshLoopbackAddress() },
    );
    expect(fromEvil.status).toBe(403);
    expect(fromEvil.headers["set-cookie"]).toBeUndefined();

    const fromOwnPage = await post(
      "/sign-in/email",
      { email: account.email, password: PASSWORD, callbackURL: "https://evil.example/steal" },
      { headers: forged, localAddress: freshLoopbackAddress() },
    );
    expect(fromOwnPage.headers.location ?? "").not.toContain("evil.example");
    expect(fromOwnPage.body).not.toContain("evil.example");

    const cookie = await signIn(account);
    const signOut = await post("/sign-out", {}, { headers: { ...forged, cookie } });
    expect(signOut.status).toBe(200);
    expect(signOut.headers.location ?? "").not.toContain("evil.example");
  });
});

/** A POST with exactly these headers (the helpers add the page's Origin, as a browser would). */
function exactPost(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(new URL(path, apiBaseUrl()), { method: "POST", headers, body: JSON.stringify(body), redirect: "manual" });
}
