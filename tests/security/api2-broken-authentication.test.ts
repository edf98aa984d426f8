/**
 * OWASP API Security Top 10 (2023), API2: Broken Authentication. Password guessing is throttled
 * per client address (which a client cannot choose by sending forwarding headers) and per email,
 * across server instances; in-process counters stay bounded; sign-in never redirects off-site.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { AUTH_ATTEMPTS_PER_MINUTE, SIGN_IN_BACKOFF } from "~/server/auth";
import { createMemoryLimiter } from "~/server/ratelimit/memory";
import { apiBaseUrl } from "../support/api";
import {
  freshLoopbackAddress,
  httpRequest,
  randomClientAddress,
  sessionCookie,
  uniqueEmail,
  type HttpOptions,
} from "../support/http-client";

const PASSWORD = "correct-horse-battery";

/** Sign-in limits count per clock minute: start a burst early in one, so it cannot straddle two. */
async function atStartOfAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

function signIn(baseUrl: string, email: string, password: string, options: HttpOptions = {}) {
  return httpRequest(baseUrl, "/api/auth/sign-in/email", { ...options, method: "POST", body: { email, password } });
}

async function signUp(baseUrl: string): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail();
  const handle = `t${email.slice(2, 14)}`;
  const answer = await httpRequest(baseUrl, "/api/auth/sign-up/email", {
    method: "POST",
    body: { email, password: PASSWORD, name: "Owner", handle },
    localAddress: freshLoopbackAddress(),
  });
  expect(answer.status).toBe(200);
  // Sign-up starts no session (docs/security.md, No account enumeration): the sign-up page signs in next.
  const signedIn = await signIn(baseUrl, email, PASSWORD, { localAddress: freshLoopbackAddress() });
  expect(signedIn.status).toBe(200);
  return { email, cookie: sessionCookie(signedIn) };
}

/** 401 for a wrong password, never 429, for `count` attempts; then the answer to one more. */
async function exhaustSignIns(baseUrl: string, count: number, options: () => HttpOptions) {
  for (let i = 0; i < count; i++) {
    const answer = await signIn(baseUrl, uniqueEmail(), "wrong-password", options());
    expect(answer.status, `attempt ${i + 1}: ${answer.body}`).toBe(401);
  }
  return signIn(baseUrl, uniqueEmail(), "wrong-password", options());
}

describe("the client's address is the socket's, whatever forwarding headers say", () => {
  it(`refuses the ${AUTH_ATTEMPTS_PER_MINUTE + 1}th sign-in of a minute from one socket with 429 and Retry-After, X-Forwarded-For rotating`, async () => {
    const socket = freshLoopbackAddress();
    await atStartOfAMinute();
    const refused = await exhaustSignIns(apiBaseUrl(), AUTH_ATTEMPTS_PER_MINUTE, () => ({
      localAddress: socket,
      // A fresh forged address every time, in every header a naive server would believe.
      headers: { "x-forwarded-for": randomClientAddress(), "x-real-ip": randomClientAddress(), "x-blogmgr-client-ip": randomClientAddress() },
    }));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Another client is not affected.
    expect((await signIn(apiBaseUrl(), uniqueEmail(), "wrong-password", { localAddress: freshLoopbackAddress() })).status).toBe(401);
  });

  it("counts the API's unauthenticated requests per socket, X-Forwarded-For rotating", async () => {
    const socket = freshLoopbackAddress();
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const answer = await httpRequest(apiBaseUrl(), "/api/v1/blogs", {
        localAddress: socket,
        headers: { "x-forwarded-for": randomClientAddress(), "x-blogmgr-client-ip": randomClientAddress() },
      });
      expect(answer.status).toBe(401);
      remaining.push(Number(answer.headers["x-ratelimit-remaining"]));
    }
    expect(remaining).toEqual([99, 98, 97]);
  });
});

describe("in-process counters are bounded", () => {
  it("keeps at most its maximum of entries under a flood of 16 KB junk identifiers, exact for those it keeps", async () => {
    const limiter = createMemoryLimiter(1_000);
    const junk = (i: number) => `ip:${String(i).padStart(16 * 1024, "x")}`;
    for (let i = 0; i < 5_000; i++) await limiter.consume(junk(i), 100);
    expect(limiter.entryCount).toBe(1_000);
    // The most recent identifiers keep their exact counts.
    expect(await limiter.consume(junk(4_999), 100)).toMatchObject({ remaining: 98, success: true });
  });
});

describe("behind one trusted proxy (TRUSTED_PROXY_HOPS=1)", () => {
  let behindProxy: RunningServer;

  beforeAll(async () => {
    behindProxy = await startProductionServer({ ...process.env, TRUSTED_PROXY_HOPS: "1" }, { logFile: serverLogFile() });
  }, 120_000);

  afterAll(() => behindProxy?.stop());

  it("counts sign-ins by the right-most X-Forwarded-For address, whatever the client put left of it", async () => {
    const client = randomClientAddress();
    await atStartOfAMinute();
    const refused = await exhaustSignIns(behindProxy.baseUrl, AUTH_ATTEMPTS_PER_MINUTE, () => ({
      localAddress: freshLoopbackAddress(),
      headers: { "x-forwarded-for": `${randomClientAddress()}, ${client}` },
    }));
    expect(refused.status).toBe(429);

    const otherClient = await signIn(behindProxy.baseUrl, uniqueEmail(), "wrong-password", {
      headers: { "x-forwarded-for": `${client}, ${randomClientAddress()}` },
    });
    expect(otherClient.status).toBe(401);
  });

  it("counts the API's unauthenticated requests by the right-most X-Forwarded-For address", async () => {
    const client = randomClientAddress();
    const remaining = [];
    for (let i = 0; i < 2; i++) {
      const answer = await httpRequest(behindProxy.baseUrl, "/api/v1/blogs", {
        localAddress: freshLoopbackAddress(),
        headers: { "x-forwarded-for": `${randomClientAddress()}, ${client}` },
      });
      remaining.push(Number(answer.headers["x-ratelimit-remaining"]));
    }
    expect(remaining).toEqual([99, 98]);
  });

  describe.skipIf(!process.env.REDIS_URL)("with two server processes sharing Redis", () => {
    it(`makes an email wait after ${SIGN_IN_BACKOFF.freeAttempts} failed sign-ins, on either server, even with the right password`, async () => {
      const { email } = await signUp(apiBaseUrl());
      const servers = [
        { baseUrl: apiBaseUrl(), options: () => ({ localAddress: freshLoopbackAddress() }) },
        { baseUrl: behindProxy.baseUrl, options: () => ({ headers: { "x-forwarded-for": randomClientAddress() } }) },
      ];
      for (let i = 0; i < SIGN_IN_BACKOFF.freeAttempts; i++) {
        const server = servers[i % 2]!;
        expect((await signIn(server.baseUrl, email, "wrong-password", server.options())).status).toBe(401);
      }
      for (const server of servers) {
        const waiting = await signIn(server.baseUrl, email, PASSWORD, server.options());
        expect(waiting.status).toBe(429);
        expect(waiting.json().code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
        const retryAfter = Number(waiting.headers["retry-after"]);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_BACKOFF.firstDelaySeconds);
      }
    });
  });
});

describe("after sign-in, only pages of the dashboard", () => {
  let cookie: string;

  beforeAll(async () => {
    ({ cookie } = await signUp(apiBaseUrl()));
  });

  const signInPage = (next: string, withCookie = true) =>
    httpRequest(apiBaseUrl(), `/sign-in?next=${encodeURIComponent(next)}`, { headers: withCookie ? { cookie } : {} });

  it.each(["/\\evil.example", "/\t/evil.example", "//evil.example", "https://evil.example/", "/%5Cevil.example", "/sign-out"])(
    "sends a signed-in owner visiting /sign-in?next=%s to /dashboard",
    async (next) => {
      const answer = await signInPage(next);
      expect(answer.status).toBe(307);
      expect(answer.headers.location).toBe("/dashboard");
    },
  );

  it("sends a signed-in owner visiting /sign-in?next=/dashboard/keys there", async () => {
    const answer = await signInPage("/dashboard/keys");
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe("/dashboard/keys");
  });

  // Needs the proxy (src/proxy.ts), which tells the dashboard's layout the page asked for.
  it("sends a signed-out visitor of /dashboard/keys to sign in with next=/dashboard/keys", async () => {
    const answer = await httpRequest(apiBaseUrl(), "/dashboard/keys?tab=all", { headers: { "x-dashboard-path": "/\\evil.example" } });
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe(`/sign-in?next=${encodeURIComponent("/dashboard/keys?tab=all")}`);
  });
});
