/**
 * The benchmark's baseline: GET /api/v1/blogs on a bare `node:http` server with `pg` and `ioredis`,
 * doing the same work as the app, so the app's figures can be read against what the hardware
 * allows. Identical to the app:
 * - the key from x-api-key, then Authorization: Bearer, then ?api_key=; looked up by SHA-256 with
 *   the same SQL (src/server/keys/key-sql.ts, src/server/blogs/list-blogs-sql.ts), prepared the same
 *   way (src/server/db/prepared-statement.ts); unknown, deactivated, expired -> 401 INVALID_API_KEY;
 * - 401s count against the client IP's bucket (100/h, never a 429); permission read:blogs (403
 *   reports the account's state); the account's budget consumed with @upstash/ratelimit's
 *   fixedWindow Lua script (same keys, same arguments) -> X-RateLimit-* headers, 429 with
 *   Retry-After and details;
 * - the same parameter rules and messages (page, limit, public, from, to, cursor);
 * - the same single list statement (listBlogsSql), the same JSON envelope, pagination and cursor;
 * - the same headers (security, CORS, the X-RateLimit-* and RateLimit fields, the ETag of the body
 *   and its Cache-Control; the bench compares them) and the same access log line (the app's logger);
 * - after the response: "Last Used" at most once a minute (same SQL), usage batched the same way
 *   (same batcher, same statement).
 * What it leaves out is the framework: tRPC, trpc-to-openapi, zod, and Next.js (which the app's
 * production server loads for everything but /api/v1).
 *
 * Run: DATABASE_URL=... REDIS_URL=... PORT=... node --conditions=react-server --import tsx bench/baseline.ts
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Redis } from "ioredis";
import pg from "pg";
import { decodeBlogCursor, encodeBlogCursor } from "~/server/blogs/blog-cursor";
import { DEFAULT_BLOG_SORT_NAME } from "~/shared/blog-sort";
import { parseCalendarDate } from "~/shared/calendar-date";
import { hashApiKey } from "~/server/keys/api-key";
import { entityTag } from "~/server/http/entity-tags";
import { setRateLimitHeaders, setRetryAfter } from "~/server/api/rate-limit-headers";
import { log } from "~/server/runtime/log";
import { API_CORS_HEADERS, API_SECURITY_HEADERS, CACHE_CONTROL_REVALIDATED } from "~/server/http/security-headers";
import { listBlogsSql, type ListBlogsRow } from "~/server/blogs/list-blogs-sql";
import { queryPrepared } from "~/server/db/prepared-statement";
import { API_KEY_LOOKUP_SQL, KEY_LAST_USED_SQL, type ApiKeyRow } from "~/server/keys/key-sql";
import { loggedQuery } from "~/server/usage/record-request";
import { createUsageBatcher } from "~/server/usage/usage-batch";

const PLAN_LIMITS: Record<string, number> = { free: 100, pro: 1000, enterprise: 10000 };
const WINDOW_MS = 3_600_000;
const PREFIX = "@upstash/ratelimit";
const PERMISSIONS = new Set(["read:blogs", "write:blogs", "delete:blogs", "read:analytics"]);

// @upstash/ratelimit 2.2.0's single-region fixedWindow scripts, without the shebang line Redis 7.0
// rejects (exactly what the app's adapter sends).
const LIMIT_SCRIPT = `
  local key           = KEYS[1]
  local dynamicLimitKey = KEYS[2]  -- optional: key for dynamic limit in redis
  local tokens        = tonumber(ARGV[1])  -- default limit
  local window        = ARGV[2]
  local incrementBy   = ARGV[3] -- increment rate per request at a given value, default is 1

  -- Check for dynamic limit
  local effectiveLimit = tokens
  if dynamicLimitKey and dynamicLimitKey ~= "" then
    local dynamicLimit = redis.call("GET", dynamicLimitKey)
    if dynamicLimit then
      effectiveLimit = tonumber(dynamicLimit)
    end
  end

  local r = redis.call("INCRBY", key, incrementBy)
  if r == tonumber(incrementBy) then
  -- The first time this key is set, the value will be equal to incrementBy.
  -- So we only need the expire command once
  redis.call("PEXPIRE", key, window)
  end

  return {r, effectiveLimit}
`;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 0 });
const limitSha = (await redis.script("LOAD", LIMIT_SCRIPT)) as string;

// The app's usage batcher, on this pool.
const usage = createUsageBatcher(() => pool);

interface RateState {
  limit: number;
  remaining: number;
  reset: number;
  success: boolean;
}

async function consume(identifier: string, limit: number): Promise<RateState> {
  const bucket = Math.floor(Date.now() / WINDOW_MS);
  const [used, effectiveLimit] = (await redis.evalsha(limitSha, 1, `${PREFIX}:${identifier}:${bucket}`, limit, WINDOW_MS, 1)) as [number, number];
  return { limit, remaining: Math.max(0, effectiveLimit - used), reset: (bucket + 1) * WINDOW_MS, success: used <= effectiveLimit };
}

type HeaderMap = Record<string, string>;

/** What the request's access log line says besides its status. */
interface Logged {
  started: number;
  requestId: string;
  route: string | null;
  keyId: string | null;
}

/** The header map as the app's header setters write to (src/server/api/rate-limit-headers.ts). */
const settable = (headers: HeaderMap) => ({ set: (name: string, value: string) => void (headers[name] = value) });

/** The app's rate-limit headers of a bucket under its policy (the plan, or "unauthenticated"). */
function rateHeaders(headers: HeaderMap, state: RateState, policy: string): void {
  setRateLimitHeaders(settable(headers), { ...state, policy, windowSeconds: WINDOW_MS / 1000 });
}

/** Sends the answer, a 200 with its ETag as the app does, and writes the app's access log line. */
function send(res: ServerResponse, status: number, headers: HeaderMap, body: unknown, logged: Logged): void {
  const text = JSON.stringify(body);
  if (status === 200) {
    headers.ETag = entityTag(text);
    headers["Cache-Control"] = CACHE_CONTROL_REVALIDATED;
  }
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(text);
  const durationMs = Math.round(performance.now() - logged.started);
  log.info({ requestId: logged.requestId, method: "GET", route: logged.route, status, durationMs, keyId: logged.keyId }, "request");
}

function error(res: ServerResponse, status: number, headers: HeaderMap, logged: Logged, code: string, message: string, details?: string): void {
  send(res, status, headers, { success: false, error: details === undefined ? { code, message } : { code, message, details } }, logged);
}

function presentedKey(req: IncomingMessage, url: URL): string | null {
  const x = req.headers["x-api-key"];
  if (typeof x === "string" && x !== "") return x;
  const auth = req.headers.authorization;
  if (auth) {
    const match = /^Bearer\s+(.+)$/i.exec(auth);
    if (match?.[1]?.trim()) return match[1].trim();
  }
  const q = url.searchParams.get("api_key");
  return q ? q : null;
}

function clientIp(req: IncomingMessage): string {
  const fwd = req.headers["x-forwarded-for"];
  return (typeof fwd === "string" ? fwd.split(",")[0]?.trim() : "") || (req.headers["x-real-ip"] as string | undefined) || "unknown";
}

class ParamError extends Error {
  constructor(
    readonly param: string,
    readonly details: string,
  ) {
    super(details);
  }
}

function integer(params: URLSearchParams, name: string, min: number, max: number | undefined, fallback: number): number {
  const value = params.get(name);
  if (value === null) return fallback;
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= (max ?? Infinity))) {
    throw new ParamError(name, max === undefined ? `${name} must be an integer greater than or equal to ${min}` : `${name} must be an integer between ${min} and ${max}`);
  }
  return n;
}

function listQuery(params: URLSearchParams) {
  const page = integer(params, "page", 1, undefined, 1);
  const limit = integer(params, "limit", 1, 50, 10);
  const pub = params.get("public");
  if (pub !== null && pub !== "true" && pub !== "false") throw new ParamError("public", "public must be true or false");
  const isPublic = pub === null ? undefined : pub === "true";
  const day = (name: string) => {
    const value = params.get(name);
    if (value === null) return undefined;
    const date = parseCalendarDate(value);
    if (!date) throw new ParamError(name, `${name} must be a real calendar date in the form YYYY-MM-DD`);
    return date;
  };
  const from = day("from");
  const to = day("to");
  const cursorText = params.get("cursor");
  const cursor = cursorText === null ? undefined : decodeBlogCursor(cursorText);
  if (cursor === null) throw new ParamError("cursor", "cursor must be a pagination.nextCursor returned by this endpoint");
  if (from && to && from > to) throw new ParamError("from", "from must not be after to");
  if (!cursor) return { page, limit, public: isPublic, from, to, after: undefined };
  const t = (d?: Date) => d?.getTime();
  const conflict =
    (params.has("page") && page !== cursor.page && "page") ||
    (params.has("limit") && limit !== cursor.limit && "limit") ||
    (params.has("public") && isPublic !== cursor.public && "public") ||
    (params.has("from") && t(from) !== t(cursor.from) && "from") ||
    (params.has("to") && t(to) !== t(cursor.to) && "to");
  if (conflict) throw new ParamError("cursor", `cursor was issued for another ${conflict}; omit ${conflict} or send the value the cursor was issued for`);
  return { page: cursor.page, limit: cursor.limit, public: cursor.public, from: cursor.from, to: cursor.to, after: cursor };
}

async function listBlogs(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const started = performance.now();
  const requestId = randomUUID();
  const headers: HeaderMap = { "X-Request-Id": requestId, ...API_CORS_HEADERS, ...API_SECURITY_HEADERS };
  const logged: Logged = { started, requestId, route: "/blogs", keyId: null };
  const presented = presentedKey(req, url);
  if (!presented) {
    rateHeaders(headers, await consume(`ip:${clientIp(req)}`, 100), "unauthenticated");
    return error(res, 401, headers, logged, "MISSING_API_KEY", "API key is required");
  }
  const { rows } = await queryPrepared<ApiKeyRow>(pool, API_KEY_LOOKUP_SQL, [hashApiKey(presented)]);
  const key = rows[0];
  const rejected = !key ? "Invalid API key" : key.deactivatedAt ? "API key has been deactivated" : key.graceEndsAt && key.graceEndsAt <= new Date() ? "API key has been rolled" : key.expiresAt && key.expiresAt <= new Date() ? "API key has expired" : null;
  if (!key || rejected) {
    rateHeaders(headers, await consume(`ip:${clientIp(req)}`, 100), "unauthenticated");
    return error(res, 401, headers, logged, "INVALID_API_KEY", rejected ?? "Invalid API key");
  }
  logged.keyId = key.id;
  const permissions = key.permissions.filter((p) => PERMISSIONS.has(p));
  const lastUsedAt = key.lastUsedAt;
  const now = new Date();
  // After the response, as the app does with Next's after(), and only when due.
  if (!lastUsedAt || now.getTime() - lastUsedAt.getTime() >= 60_000) {
    res.on("finish", () => {
      pool.query(KEY_LAST_USED_SQL, [now, key.id, new Date(now.getTime() - 60_000)]).catch((e) => console.error(e));
    });
  }
  const record = (status: number, errorCode: string | null = null) =>
    void usage.record({
      accountId: key.userId,
      keyId: key.id,
      method: "GET",
      path: "/blogs",
      query: loggedQuery(url.search),
      status,
      errorCode,
      at: new Date(),
      latencyMs: Math.round(performance.now() - started),
      requestId,
    });
  const limit = PLAN_LIMITS[key.plan] ?? 100;
  if (!permissions.includes("read:blogs")) {
    error(res, 403, headers, logged, "INSUFFICIENT_PERMISSIONS", "This API key lacks the read:blogs permission");
    return record(403, "INSUFFICIENT_PERMISSIONS");
  }
  const state = await consume(`account:${key.userId}`, limit);
  rateHeaders(headers, state, key.plan);
  if (!state.success) {
    setRetryAfter(settable(headers), state);
    error(res, 429, headers, logged, "RATE_LIMIT_EXCEEDED", "Rate limit exceeded", `Hourly limit of ${state.limit} requests exceeded; the limit resets at ${new Date(state.reset).toISOString()}`);
    return record(429, "RATE_LIMIT_EXCEEDED");
  }
  let query;
  try {
    query = listQuery(url.searchParams);
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    error(res, 400, headers, logged, "INVALID_PARAMETER", `Invalid parameter: ${e.param}`, e.details);
    return record(400, "INVALID_PARAMETER");
  }
  const { text, values } = listBlogsSql({
    accountId: key.userId,
    apiAccessOnly: true,
    limit: query.limit,
    offset: query.after ? 0 : (query.page - 1) * query.limit,
    public: query.public,
    from: query.from,
    to: query.to,
    after: query.after,
  });
  const result = await queryPrepared<ListBlogsRow>(pool, text, values);
  const total = result.rows[0]?.total ?? 0;
  const blogs = [];
  for (const row of result.rows) {
    if (row.blog !== null) blogs.push(row.blog);
  }
  const totalPages = Math.ceil(total / query.limit);
  const hasNext = query.page < totalPages;
  const last = result.rows.at(-1);
  const nextCursor =
    hasNext && last && last.id !== null
      ? encodeBlogCursor({ sort: DEFAULT_BLOG_SORT_NAME, key: (last.sortKey as Date).toISOString(), id: last.id, page: query.page + 1, limit: query.limit, public: query.public, from: query.from, to: query.to })
      : null;
  send(
    res,
    200,
    headers,
    { success: true, data: { blogs, pagination: { page: query.page, limit: query.limit, total, totalPages, hasNext, hasPrev: query.page > 1, nextCursor } } },
    logged,
  );
  record(200);
}

const unkeyed = (): Logged => ({ started: performance.now(), requestId: randomUUID(), route: null, keyId: null });

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (req.method === "GET" && url.pathname === "/api/v1/blogs") {
    listBlogs(req, res, url).catch((e) => {
      console.error(e);
      if (!res.headersSent) error(res, 500, {}, unkeyed(), "INTERNAL_SERVER_ERROR", "Internal server error");
    });
    return;
  }
  error(res, 404, {}, unkeyed(), "RESOURCE_NOT_FOUND", "Not found");
});
server.keepAliveTimeout = 65_000;
// An orderly exit, so that `--cpu-prof` writes its profile (bench/run.ts, BENCH_CPU_PROFILE_DIR).
process.on("SIGTERM", () => process.exit(0));
server.listen(Number(process.env.PORT ?? 3999), "127.0.0.1", () => console.log(`baseline listening on ${process.env.PORT ?? 3999}`));
