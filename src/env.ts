import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import { missingDeploymentSettings } from "~/server/runtime/production-settings";

/**
 * Every environment variable the app reads, validated once. All are optional: without
 * DATABASE_URL the launcher (scripts/serve.ts) starts embedded PostgreSQL and passes its URL on;
 * without Redis settings rate limits are kept in process.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  /** The production server's port (src/server/http/server.ts); its address is HOSTNAME's (src/server/http/listen-address.ts). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.url().optional(),
  /**
   * The same database without the pooler, when DATABASE_URL goes through one in transaction mode
   * (docs/deploying.md): LISTEN, the job worker and migrations need a session of their own.
   */
  DIRECT_URL: z.url().optional(),
  /** Connections per server process; small by default since serverless instances multiply it. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** Read replicas, comma-separated PostgreSQL URLs: the public site and analytics read from them (docs/read-replicas.md). */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((value) => value.split(",").map((url) => url.trim()).filter(Boolean))
    .pipe(z.array(z.url()))
    .optional(),
  /** "0": the hot path's statements are never prepared (src/server/db/prepared-statement.ts), e.g. behind a pooler in transaction mode. */
  DATABASE_PREPARED_STATEMENTS: z.enum(["0", "1"]).default("1"),
  /** "0": the production server does not listen for public content changes, and checks each public page hit instead (src/server/public-site/change-listener.ts). */
  PUBLIC_CACHE_LISTEN: z.enum(["0", "1"]).default("1"),
  REDIS_URL: z.url().optional(),
  UPSTASH_REDIS_REST_URL: z.url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  /**
   * pino's level for the server's log lines. The logger (src/server/runtime/log.ts) reads it itself:
   * the launcher logs before the app's environment is complete (it sets DATABASE_URL); here it is validated.
   */
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  /** Where embedded PostgreSQL keeps its data when DATABASE_URL is unset (read by the launcher and the CLI, which start it before the app loads). */
  DATA_DIR: z.string().default(".data"),
  /** Signs dashboard session cookies (better-auth); see fallbackAuthSecret when unset. */
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /** The app's public origin (docs/security.md, The app's origin); from each request's Host when unset (off Vercel). */
  BETTER_AUTH_URL: z.url().optional(),
  /**
   * Proxies in front of the app that append to X-Forwarded-For (docs/security.md): the client's
   * address is the N-th from the right. 0: the socket's address is the client's.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Seconds a server told to stop (SIGTERM) fails its health check while still serving, before it stops accepting (docs/deploying.md). */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(60).default(0),
  /** "1": webhook URLs may be http and reach loopback/private addresses (development, tests; docs/webhooks.md). */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(["0", "1"]).default("0"),
  /** Waits before each retry of a failed delivery, e.g. "1s,2s,4s" (docs/webhooks.md). */
  WEBHOOK_RETRY_SCHEDULE: z.string().default("5s,5m,30m,2h,5h,10h,10h"),
  /** Deliveries of one endpoint in flight at once. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(4),
  /** "0": this process runs no webhook worker (another process, or the Vercel Cron route, does). */
  WEBHOOK_WORKER: z.enum(["0", "1"]).default("1"),
  /** Vercel Cron's bearer token for /api/cron/jobs. */
  CRON_SECRET: z.string().min(16).optional(),
  /** An S3-compatible bucket for images' files (docs/images.md); without S3_BUCKET they are kept in PostgreSQL. */
  S3_BUCKET: z.string().min(1).optional(),
  /** The bucket's endpoint (R2, MinIO, a local server); unset for AWS S3 itself. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("auto"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Outgoing email (docs/security.md, Email): smtp://user:pass@host:587 or smtps://...; unset off Vercel, emails are written to the log. */
  SMTP_URL: z.url().optional(),
  /** The sender of every email, e.g. "Blog Manager <no-reply@example.com>". */
  EMAIL_FROM: z.string().min(3).optional(),
  /**
   * Newsletter emails sent per minute, all posts and instances together (docs/newsletters.md,
   * Throttle): below the SMTP provider's sending rate. 0: unthrottled.
   */
  NEWSLETTER_RATE_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * DNS servers that verify custom domains' TXT records (docs/public-blog.md, Custom domains):
   * comma-separated host[:port], IPv6 in brackets when a port follows; unset, the system's.
   */
  DNS_SERVERS: z
    .string()
    .transform((value) => value.split(",").map((server) => server.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isDnsServer, { error: "DNS_SERVERS must be IP addresses, each with an optional :port (e.g. 1.1.1.1,[2606:4700::1111]:53)" })).min(1))
    .optional(),
  /** Vercel API token and project: a custom domain set by its owner is added to that project (docs/deploying.md, Custom domains). */
  VERCEL_TOKEN: z.string().min(1).optional(),
  VERCEL_PROJECT_ID: z.string().min(1).optional(),
  /** The Vercel team owning the project, when it is a team's. */
  VERCEL_TEAM_ID: z.string().min(1).optional(),
  /** Vercel's API, for tests that stand a local server in for it. */
  VERCEL_API_URL: z.url().default("https://api.vercel.com"),
  /** "1" on Vercel, set by the platform. */
  VERCEL: z.string().optional(),
  /** The production domain of the Vercel project (no scheme), set by the platform: the app's origin there when BETTER_AUTH_URL is unset. */
  VERCEL_PROJECT_PRODUCTION_URL: z.string().optional(),
});

/** An IP address with an optional port, as node:dns's setServers takes it: "1.1.1.1", "1.1.1.1:5353", "::1", "[::1]:5353". */
function isDnsServer(value: string): boolean {
  const [, address = "", port] = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(value) ?? [value, value];
  return isIP(address) !== 0 && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535));
}

/** Development and test only. */
const DEV_AUTH_SECRET = "blogmgr-development-secret-not-for-production-use";

export type Env = z.infer<typeof schema> & { BETTER_AUTH_SECRET: string };

function readEnv(): Env {
  // A variable set to "" (as deployment dashboards and `FOO= cmd` leave them) counts as unset.
  const given = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
  }
  // Also while `next build` loads this module on Vercel, which gives builds the same variables: a
  // deployment missing one fails to build and the previous one keeps serving.
  const missing = missingDeploymentSettings(given);
  if (missing) throw new Error(missing);
  const data = parsed.data;
  return { ...data, BETTER_AUTH_SECRET: data.BETTER_AUTH_SECRET ?? fallbackAuthSecret(data.NODE_ENV) };
}

/**
 * Without BETTER_AUTH_SECRET, development uses a fixed secret; production uses a random one of
 * this process (dashboard sessions end with it: the production server says so when it starts),
 * rather than refusing to serve: the API does not depend on it. `npm start` persists one under
 * DATA_DIR; Vercel needs it set. The core is loaded once per process (README.md, Architecture):
 * every route checks cookies with this one secret.
 */
function fallbackAuthSecret(nodeEnv: Env["NODE_ENV"]): string {
  return nodeEnv === "production" ? randomBytes(32).toString("hex") : DEV_AUTH_SECRET;
}

export const env = readEnv();
