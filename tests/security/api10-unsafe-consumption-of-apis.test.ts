import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter } from "~/server/ratelimit";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

/**
 * OWASP API10:2023 Unsafe Consumption of APIs: what the server takes from the services it calls
 * is untrusted input. A rate-limit store that answers garbage, the wrong type, an error, or
 * nothing at all leaves requests served (fail open) within 1 s, never a 500 and never a
 * made-up refusal; a database error's text reaches no client, over the API or in the dashboard.
 */

/** How the fake Redis answers the rate limiter's commands (EVAL, EVALSHA). */
const STORE_BEHAVIOURS = {
  "bytes that are not RESP": "\u0000\u0001garbage\r\n",
  "a string where counts belong": "$5\r\nhello\r\n",
  "an array of non-numbers": "*2\r\n$3\r\nabc\r\n$3\r\nxyz\r\n",
  "a negative count": "*2\r\n:-5\r\n:100\r\n",
  "an error reply": "-ERR out of memory\r\n",
  "half a reply, then silence": "$100\r\nabc",
  "silence (a proxy that swallows traffic)": "silence",
  "a closed connection": "close",
} as const;

type StoreBehaviour = keyof typeof STORE_BEHAVIOURS;

/** What a client's connection check (INFO) needs to hear to go on and send its commands. */
const INFO = "# Server\r\nloading:0\r\n";
const INFO_REPLY = `$${INFO.length}\r\n${INFO}\r\n`;

/** The names of the complete commands (RESP arrays of bulk strings) at the start of `buffer`, and the rest. */
function readCommands(buffer: string): { names: string[]; rest: string } {
  const names: string[] = [];
  const command = /^\*(\d+)\r\n/;
  for (;;) {
    const header = command.exec(buffer);
    if (!header) return { names, rest: buffer };
    let at = header[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(header[1]); i++) {
      const bulk = /^\$(\d+)\r\n/.exec(buffer.slice(at));
      if (!bulk || buffer.length < at + bulk[0].length + Number(bulk[1]) + 2) return { names, rest: buffer };
      args.push(buffer.slice(at + bulk[0].length, at + bulk[0].length + Number(bulk[1])));
      at += bulk[0].length + Number(bulk[1]) + 2;
    }
    names.push(args[0]?.toUpperCase() ?? "");
    buffer = buffer.slice(at);
  }
}

/**
 * A TCP server on a local port speaking just enough of Redis's protocol to misbehave: it answers
 * INFO like a server that is up, and every other command as the current behaviour says.
 */
function fakeRedis() {
  let reply: string = STORE_BEHAVIOURS["an error reply"];
  const sockets = new Set<Socket>();
  const seen = { evals: 0 };
  const server: Server = createServer((socket) => {
    if (reply === "close") return void socket.destroy();
    sockets.add(socket);
    let buffer = "";
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      const { names, rest } = readCommands(buffer + chunk.toString("latin1"));
      buffer = rest;
      if (reply === "silence") return;
      for (const name of names) {
        if (name !== "INFO") seen.evals++;
        socket.write(name === "INFO" ? INFO_REPLY : reply);
      }
    });
  });
  return {
    server,
    sockets,
    seen,
    behave(behaviour: StoreBehaviour) {
      reply = STORE_BEHAVIOURS[behaviour];
      seen.evals = 0;
      // Connections are remade on the new behaviour's terms, as after a store's restart.
      for (const socket of sockets) socket.destroy();
    },
  };
}

const store = fakeRedis();
let server: RunningServer;
let account: TestAccount;
let cookie: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => store.server.listen(0, "127.0.0.1", resolve));
  const { port } = store.server.address() as { port: number };
  [account, server] = await Promise.all([
    createTestAccount("free"),
    startProductionServer({ ...process.env, REDIS_URL: `redis://127.0.0.1:${port}`, UPSTASH_REDIS_REST_URL: "" }, { logFile: serverLogFile() }),
  ]);
  cookie = await signIn(account, server.baseUrl);
}, 120_000);

afterAll(async () => {
  server?.stop();
  for (const socket of store.sockets) socket.destroy();
  await new Promise((resolve) => store.server.close(resolve));
});

async function timedGet(path: string, key?: string) {
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, { headers: key ? { "x-api-key": key } : {} });
  const body = await response.json();
  return { status: response.status, headers: response.headers, body, ms: performance.now() - started };
}

/** The three rate-limit headers as numbers: each a whole number, the remaining within the limit. */
function expectSaneRateHeaders(headers: Headers, limit: number): void {
  const [reportedLimit, remaining, reset] = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((h) => Number(headers.get(h)));
  expect(reportedLimit).toBe(limit);
  expect(Number.isInteger(remaining) && remaining! >= 0 && remaining! <= limit, `remaining ${headers.get("x-ratelimit-remaining")}`).toBe(true);
  expect(Number.isInteger(reset) && reset! * 1000 > Date.now()).toBe(true);
}

describe.each(Object.keys(STORE_BEHAVIOURS) as StoreBehaviour[])("a rate-limit store (Redis) answering with %s", (behaviour) => {
  beforeAll(() => store.behave(behaviour));

  it("leaves API requests served within 1 s, with the plan's limit in sane headers", async () => {
    const answers = [];
    // Until the server has reconnected and sent its commands to the new behaviour (at most 5 s).
    const reachesStore = !["silence (a proxy that swallows traffic)", "a closed connection"].includes(behaviour);
    for (const until = Date.now() + 5000; answers.length < 3 || (reachesStore && store.seen.evals === 0 && Date.now() < until); ) {
      answers.push(await timedGet("/blogs", account.key));
    }
    if (reachesStore) expect(store.seen.evals).toBeGreaterThan(0);
    answers.push(...(await Promise.all(Array.from({ length: 10 }, () => timedGet("/blogs", account.key)))));
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.ms).toBeLessThan(1000);
      expectSaneRateHeaders(answer.headers, 100);
    }
  });

  it("answers a request without a key 401 within 1 s (its per-IP count fails open too)", async () => {
    const answer = await timedGet("/blogs");
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("MISSING_API_KEY");
    expect(answer.ms).toBeLessThan(1000);
    expectSaneRateHeaders(answer.headers, 100);
  });

  it("shows the dashboard's usage page its numbers, not an error", async () => {
    const answer = await trpc(cookie, "usage.rateLimit", undefined, { baseUrl: server.baseUrl });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { hourlyLimit, used, remaining } = answer.body.result.data;
    expect(hourlyLimit).toBe(100);
    expect(used + remaining).toBe(100);
    expect(Number.isInteger(remaining) && remaining >= 0).toBe(true);
  });
});

describe("a rate-limit store (Upstash REST) answering with the wrong shapes", () => {
  let upstash: HttpServer;
  let reply = "";

  beforeAll(async () => {
    upstash = createHttpServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(reply));
    await new Promise<void>((resolve) => upstash.listen(0, "127.0.0.1", resolve));
  });

  afterAll(() => new Promise((resolve) => upstash.close(resolve)));

  // The client sends its commands to /pipeline, which answers an array of {result} or {error}
  // (results base64-encoded, as the client asks).
  const replies = ["not json", "{}", "[]", '[{"result":null}]', '[{"result":"aGVsbG8="}]', '[{"result":["YWJj","eHl6"]}]', '[{"result":[0.5,100]}]', '[{"error":"ERR internal"}]'];

  it.each(replies)("%s: served, fail open", async (body) => {
    reply = body;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { port } = upstash.address() as { port: number };
    const limiter = createRateLimiter({ upstashUrl: `http://127.0.0.1:${port}`, upstashToken: "token" });
    for (const state of [await limiter.consume("account", 100), await limiter.peek("account", 100)]) {
      expect(state).toMatchObject({ limit: 100, remaining: 100, success: true });
    }
    vi.restoreAllMocks();
  });
});

describe("a database error", () => {
  // A trigger in the test's own database fails every write of a blog titled with the canary,
  // with a message full of internals; no other test writes such a title.
  const CANARY = `owasp-api10-canary-${randomUUID().slice(0, 8)}`;
  const INTERNALS = [CANARY, "secret_table", "prisma", "invocation", "P0001", "plpgsql"];
  let blogId: string;

  beforeAll(async () => {
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION owasp_api10_canary() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.title LIKE '${CANARY}%' THEN
          RAISE EXCEPTION 'internal detail for %: relation "secret_table" in schema "private" is broken', NEW.title;
        END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER owasp_api10_canary BEFORE INSERT OR UPDATE ON blog FOR EACH ROW EXECUTE FUNCTION owasp_api10_canary()`);
    blogId = (await seedBlogs(account.id, [{ title: "Before the failure" }]))[0]!;
  });

  afterAll(async () => {
    await db().$executeRawUnsafe("DROP TRIGGER IF EXISTS owasp_api10_canary ON blog");
    await db().$executeRawUnsafe("DROP FUNCTION IF EXISTS owasp_api10_canary()");
  });

  function expectNoInternals(text: string): void {
    for (const internal of INTERNALS) expect(text.toLowerCase()).not.toContain(internal.toLowerCase());
    expect(text).not.toMatch(/\bat .+:\d+:\d+/); // a stack frame
  }

  it("reaches an API client as a bare 500 in the envelope, with its request id and nothing of the cause", async () => {
    const body = JSON.stringify({ title: CANARY });
    for (const [path, method] of [["/blogs", "POST"], [`/blogs/${blogId}`, "PATCH"]] as const) {
      const response = await call(path, { key: account.key, method, headers: { "content-type": "application/json" }, body });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: { code: "INTERNAL_SERVER_ERROR", message: "Internal server error" } });
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
  });

  it("reaches the dashboard as a generic message, nothing of the cause", async () => {
    const dashboardCookie = await signIn(account);
    for (const [procedure, input] of [["blogs.create", { title: CANARY }], ["blogs.update", { blogId, title: CANARY }]] as const) {
      const answer = await trpc(dashboardCookie, procedure, input);
      expect(answer.status).toBe(500);
      expectNoInternals(JSON.stringify(answer.body));
    }
  });
});
